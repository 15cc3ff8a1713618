/**
 * What `pgv2kit certify` does, loaded only when the command runs (certify.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { runCertification } from '../../certify/certify.js';
import { CertificationReportError, verdictLine, writeCertificationReports } from '../../certify/report.js';
import { startSampleMerchant, type StartedSample } from '../../certify/sample.js';
import { resolvePath } from '../_files.js';
import { secondsOption } from '../_numbers.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { certifyOptions } from './certify.js';

/**
 * Runs `pgv2kit certify`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runCertify({ values, io, addSecret }: CommandContext<typeof certifyOptions>): Promise<number> {
  const given = (['notify-url', 'return-url', 'deliver-to', 'return-deliver-to'] as const).filter((k) => values[k] !== undefined);
  const sampleMode = given.length === 0;
  if (!sampleMode && (values['notify-url'] === undefined || values['return-url'] === undefined)) {
    throw new UsageError('give both --notify-url and --return-url (as registered), or neither to certify the sample merchant');
  }
  for (const k of given) {
    const v = values[k] ?? '';
    if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`--${k} must be an http(s):// URL, not ${JSON.stringify(v)}`);
    if (v.includes('#')) throw new UsageError(`--${k} must not have a fragment (a fragment is never sent)`);
  }
  const seed = values.seed === undefined ? randomInt(0, 2 ** 32 - 1) : parseSeed(values.seed);
  const timeoutMs = secondsOption(values.timeout, 'timeout', 5);

  let sample: StartedSample | undefined;
  let target: { appId: string; appSecret: string; notifyUrl: string; returnUrl: string; deliverTo?: string; returnDeliverTo?: string };
  if (sampleMode) {
    try {
      sample = await startSampleMerchant();
    } catch (e) {
      io.stderr(`pgv2kit certify: the sample merchant could not be started: ${e instanceof Error ? e.message : String(e)}\n`);
      return EXIT.failure;
    }
    target = sample;
  } else {
    const appId = values['app-id'] ?? io.env['PGV2_APP_ID'];
    const appSecret = values.secret ?? io.env['PGV2_APP_SECRET'];
    if (!appId || !appSecret) throw new UsageError('certify needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)');
    target = {
      appId,
      appSecret,
      notifyUrl: values['notify-url'] ?? '',
      returnUrl: values['return-url'] ?? '',
      ...(values['deliver-to'] !== undefined ? { deliverTo: values['deliver-to'] } : {}),
      ...(values['return-deliver-to'] !== undefined ? { returnDeliverTo: values['return-deliver-to'] } : {}),
    };
  }
  addSecret(target.appSecret);

  try {
    io.stdout(`certifying ${sample ? 'the sample merchant' : 'the merchant'}: notifyUrl ${target.notifyUrl}${target.deliverTo ? ` (delivered to ${target.deliverTo})` : ''}, returnUrl ${target.returnUrl}${target.returnDeliverTo ? ` (delivered to ${target.returnDeliverTo})` : ''}; seed ${seed}\n`);
    const result = await runCertification({ ...target, seed, timeoutMs, ...(values['accept-body'] !== undefined ? { acceptBody: values['accept-body'] } : {}) });
    for (const r of result.requirements) io.stdout(`${r.result.toUpperCase().padEnd(14)} ${r.id}  ${r.title} (${r.sections.join(', ')})\n`);
    for (const n of result.notes) io.stdout(`note: ${n}\n`);
    for (const reason of result.reasons) io.stdout(`reason: ${reason}\n`);
    const runName = values['run-name'] ?? `certify-${result.date.replace(/[-:]/g, '').replace('T', '-').slice(0, 15)}`;
    const dir = values['report-dir'] ? resolvePath(io.cwd, values['report-dir']) : join(io.cwd, 'reports', runName);
    try {
      const written = await writeCertificationReports(result, { dir, secrets: [target.appSecret] });
      io.stdout(`reports: ${written.dir}\n`);
    } catch (e) {
      if (e instanceof CertificationReportError) throw new UsageError(e.message);
      throw e;
    }
    io.stdout(`${verdictLine(result)}; plan hash ${result.planHash}\n`);
    if (!result.reachable) return EXIT.failure;
    return result.verdict === 'CERTIFIED' ? EXIT.ok : EXIT.nonconformance;
  } finally {
    await sample?.close();
  }
}

// --- internal ---

function parseSeed(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 2 ** 32 - 1) throw new UsageError(`--seed must be an integer from 0 to 4294967295, not ${JSON.stringify(value)}`);
  return Number(value);
}

