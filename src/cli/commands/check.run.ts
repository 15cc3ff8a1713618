/**
 * What `pgv2kit check` does, loaded only when the command runs (check.ts declares it): the HAR read
 * (src/live/har.ts), each exchange given to a live session (src/live/session.ts), which judges it, prints its line
 * and writes the reports.
 * @module
 */
import { basename, extname, join } from 'node:path';
import { MerchantBook } from '../../gateway/merchants.js';
import { readHar } from '../../live/har.js';
import { LIVE_REPORT_FILES, LiveSession } from '../../live/session.js';
import { inertText } from '../../scheme/terminal-text.js';
import { resolvePath } from '../_files.js';
import { jsonOutput } from '../_json-output.js';
import { checkedReportFolder, reportFolderName } from '../_report-folder.js';
import { UsageError, type CommandContext } from '../command.js';
import { merchantFrom, merchantSecrets, urlPasswords } from '../credentials.js';
import { acceptanceRuleOf } from '../merchant-target.js';
import { useColour } from '../io.js';
import type { checkOptions } from './check.js';

/**
 * Runs `pgv2kit check`.
 * @param context - the parsed options, the HAR file and the io
 * @returns 0 when every exchange judged was conformant and one was; 1 otherwise
 * @throws {UsageError} for a missing HAR, bad credentials
 * @throws {HarError} for a HAR that cannot be read (exit 2)
 * @throws {ReportWriteError} for a report folder refused (exit 2)
 */
export async function runCheck({
  values,
  positionals,
  io: given,
  addSecret,
  atEnd,
}: CommandContext<typeof checkOptions>): Promise<number> {
  const json = values.json === true;
  const { io, emit } = jsonOutput(json, given);
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0 ? 'give the HAR file to check' : `give one HAR file, not ${positionals.length}`,
    );
  const file = resolvePath(io.cwd, positionals[0] ?? '');
  const { merchant, source } = merchantFrom(values, io.env);
  const registered = [...urls(values['notify-url']), ...urls(values['return-url'])];
  const secrets = [...merchantSecrets(merchant), ...urlPasswords(registered)];
  for (const secret of secrets) addSecret(secret);
  const read = readHar(file, {
    ...(values['max-har-size'] !== undefined ? { maxBytes: values['max-har-size'] } : {}),
    ...(values['max-har-entries'] !== undefined ? { maxEntries: values['max-har-entries'] } : {}),
    kinds: { notifyUrls: urls(values['notify-url']), returnUrls: urls(values['return-url']) },
  });
  const name = values.name ?? `check-${basename(file, extname(file))}`;
  const reportDir =
    checkedReportFolder(
      { 'report-dir': values['report-dir'], 'run-name': reportFolderName(name) },
      { name: 'check', io, atEnd },
      LIVE_REPORT_FILES,
    ) ?? join(io.cwd, 'reports', reportFolderName(name));
  const session = LiveSession.open({
    name,
    target: `check ${basename(file)}`,
    merchants: new MerchantBook([merchant]),
    acceptance: acceptanceRuleOf(values),
    secrets,
    reportDir,
    print: io.stdout,
    colour: !json && useColour(given),
    cwd: io.cwd,
  });
  const skipped = read.skipped > 0 ? `, ${read.skipped} other entr${read.skipped === 1 ? 'y' : 'ies'} skipped` : '';
  io.stdout(
    `pgv2kit check ${inertText(basename(file))}: ${read.exchanges.length} exchange` +
      `${read.exchanges.length === 1 ? '' : 's'} to judge${skipped}; appId ${inertText(merchant.appId)} ` +
      `(secret ${source})\n`,
  );
  try {
    for (const ex of read.exchanges) await session.add(ex);
  } catch (e) {
    session.abort();
    throw e;
  }
  const outcome = await session.finish({ skipped: read.skipped });
  emit({ command: 'check', ...outcome.summary }, secrets);
  return outcome.exitCode;
}

// --- internal ---

/** A list option's URLs: split where a comma is followed by a URL's scheme (a query may hold a comma). */
function urls(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(/,(?=\s*[A-Za-z][A-Za-z0-9+.-]*:\/\/)/).map((u) => u.trim());
}
