/**
 * What `pgv2kit proxy` does, loaded only when the command runs (proxy.ts declares it): a live session opened
 * (src/live/session.ts: the report folder checked and locked first), the proxy started — before a gateway
 * (src/live/proxy.ts) or a merchant (src/live/merchant-proxy.ts) — with every exchange handed to the session, which
 * judges it, prints its line and streams it to disk; on the first SIGINT or SIGTERM the proxy stops (the exchanges
 * in flight end), the session writes the reports, and the exit code is the verdict's. A second signal exits at once.
 * @module
 */
import { join } from 'node:path';
import { Pgv2kitError } from '../../errors.js';
import { MerchantBook } from '../../gateway/merchants.js';
import type { LiveExchange } from '../../live/exchange.js';
import type { LiveJudgement } from '../../live/judge.js';
import { startMerchantProxy, type PassThrough } from '../../live/merchant-proxy.js';
import { startProxy } from '../../live/proxy.js';
import { shortUrl } from '../../live/report.js';
import { LIVE_REPORT_FILES, LiveSession } from '../../live/session.js';
import type { AcceptanceRule } from '../../roles/merchant/as-gateway/acceptance.js';
import { Masker } from '../../scheme/mask.js';
import { inertText } from '../../scheme/terminal-text.js';
import { jsonOutput } from '../_json-output.js';
import { checkedReportFolder, reportFolderName } from '../_report-folder.js';
import { UsageError, type CommandContext } from '../command.js';
import { merchantFrom, merchantSecrets, urlPasswords } from '../credentials.js';
import { acceptanceRuleOf } from '../merchant-target.js';
import { EXIT } from '../exit-codes.js';
import { useColour } from '../io.js';
import { watchParent } from '../parent-watch.js';
import type { proxyOptions } from './proxy.js';

/** What the proxy printed first, as `--json` prints it: where clients go, and what is behind. */
export interface ProxyStarted {
  readonly proxyUrl: string;
  readonly uploadUrl?: string;
  readonly upstream?: string;
  readonly merchant?: string;
  readonly notifyUrl?: string;
  readonly returnUrl?: string;
}

/** How a proxy run is stopped and watched: the command's own are the process's signals. */
export interface ProxyRunHooks {
  /** Called once the proxy listens: settles when it should stop, with why (a signal's name, its parent gone). */
  readonly stop: () => Promise<string>;
  /** Called with what was printed first, once the proxy listens (tests). */
  readonly started?: (started: ProxyStarted) => void;
  /** Called once the session is open with what drops its files: an exit at once calls it (no half-written folder). */
  readonly opened?: (abort: () => void) => void;
}

/**
 * Runs `pgv2kit proxy` until SIGINT or SIGTERM.
 * @param context - the parsed options and the io
 * @returns the verdict's exit code: 0 every exchange judged conformant (one at least), 1 otherwise
 * @throws {UsageError} not exactly one of --upstream and --merchant, a bad URL, bad credentials
 * @throws {ReportWriteError} for a report folder refused (exit 2)
 */
export async function runProxy(context: CommandContext<typeof proxyOptions>): Promise<number> {
  const signals = new Signals(context.io.stderr);
  try {
    return await runProxyWith(context, { stop: () => signals.first(), opened: (abort) => (signals.cleanup = abort) });
  } finally {
    signals.remove();
  }
}

/**
 * Runs `pgv2kit proxy` until `hooks.stop` settles.
 * @param context - the parsed options and the io
 * @param hooks - when to stop, and what to tell once started
 * @returns the verdict's exit code
 * @throws {UsageError} not exactly one of --upstream and --merchant, a bad URL, bad credentials
 * @throws {ReportWriteError} for a report folder refused (exit 2)
 */
export async function runProxyWith(
  { values, io: given, addSecret, atEnd }: CommandContext<typeof proxyOptions>,
  hooks: ProxyRunHooks,
): Promise<number> {
  const json = values.json === true;
  const { io, emit } = jsonOutput(json, given);
  const mode = modeOf(values);
  const { merchant, source } = merchantFrom(values, io.env);
  const secrets = [
    ...merchantSecrets(merchant),
    ...(mode.kind === 'merchant' ? urlPasswords([mode.notifyUrl, mode.returnUrl]) : []),
  ];
  for (const secret of secrets) addSecret(secret);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host needs an address');
  if (!/^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host))
    io.stderr(`pgv2kit proxy: warning: listening on ${inertText(host)}: reachable from other machines\n`);
  const name = values.name ?? `proxy-${stamp(new Date())}`;
  const reportDir =
    checkedReportFolder(
      { 'report-dir': values['report-dir'], 'run-name': reportFolderName(name) },
      { name: 'proxy', io, atEnd },
      LIVE_REPORT_FILES,
    ) ?? join(io.cwd, 'reports', reportFolderName(name));
  const merchants = new MerchantBook([merchant]);
  const masker = new Masker(secrets);
  const session = LiveSession.open({
    name,
    target: mode.kind === 'upstream' ? `proxy → ${mode.upstream}` : `proxy → merchant ${mode.merchant}`,
    merchants,
    secrets,
    reportDir,
    print: io.stdout,
    colour: !json && useColour(given),
    cwd: io.cwd,
  });
  hooks.opened?.(() => session.abort());
  // an exchange the session could not take (a disk full): the proxy goes on forwarding; the error is told once
  let failed = false;
  const take = (ex: LiveExchange, judged?: LiveJudgement): Promise<void> =>
    session.add(ex, judged).then(
      () => undefined,
      (e: unknown) => {
        if (failed) return;
        failed = true;
        io.stderr(`pgv2kit proxy: an exchange could not be recorded: ${inertText(masker.text(message(e)))}\n`);
      },
    );
  let running: { close(): Promise<void> };
  let started: ProxyStarted;
  const timeoutMs = values.timeout;
  try {
    if (mode.kind === 'upstream') {
      const p = await startProxy({
        upstream: mode.upstream,
        merchants,
        host,
        ...(values.port !== undefined ? { port: values.port } : {}),
        ...(values.upload ? { upload: true } : {}),
        ...(values['upload-port'] !== undefined ? { uploadPort: values['upload-port'] } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        onExchange: (ex) => take(ex),
      });
      running = p;
      started = {
        proxyUrl: p.url,
        upstream: mode.upstream,
        ...(p.uploadUrl !== undefined ? { uploadUrl: p.uploadUrl } : {}),
      };
    } else {
      const p = await startMerchantProxy({
        merchant: mode.merchant,
        notifyUrl: mode.notifyUrl,
        returnUrl: mode.returnUrl,
        merchants,
        acceptance: mode.acceptance,
        host,
        ...(values.port !== undefined ? { port: values.port } : {}),
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        // judged by the merchant proxy already, with the same judge and merchants: not judged twice
        onExchange: (ex, judgement) => take(ex, judgement),
        onPassThrough: (passed) => io.stdout(`${passLine(passed, masker)}\n`),
      });
      running = p;
      started = { proxyUrl: p.url, merchant: mode.merchant, notifyUrl: mode.notifyUrl, returnUrl: mode.returnUrl };
    }
  } catch (e) {
    session.abort();
    if (e instanceof RangeError) throw new UsageError(e.message.replace(/^startMerchantProxy: /, ''));
    throw new ProxyStartError(`the proxy could not start: ${message(e)}`, { cause: e });
  }
  if (json) given.stdout(`${JSON.stringify(masker.data(started))}\n`);
  io.stdout(startLines(started, merchant.appId, source, reportDir).join('\n'));
  hooks.started?.(started);
  const why = await hooks.stop();
  io.stderr(`pgv2kit proxy: ${why}: stopping (the exchanges in flight end, then the reports; a signal to exit now)\n`);
  try {
    await running.close();
  } catch (e) {
    // an exchange handed on when the session was failing: told above; the reports of the others are still written
    if (!failed) io.stderr(`pgv2kit proxy: ${inertText(masker.text(message(e)))}\n`);
  }
  const outcome = await session.finish();
  emit({ command: 'proxy', ...outcome.summary }, secrets);
  return outcome.exitCode;
}

// --- internal ---

/** The proxy could not listen (a port in use, an address not available): exit 3. */
class ProxyStartError extends Pgv2kitError {
  override readonly name = 'ProxyStartError';
  override readonly code = 'PGV2_PROXY_START';
  override readonly exit = 'failure' as const;
}

type Mode =
  | { readonly kind: 'upstream'; readonly upstream: string }
  | {
      readonly kind: 'merchant';
      readonly merchant: string;
      readonly notifyUrl: string;
      readonly returnUrl: string;
      readonly acceptance: AcceptanceRule;
    };

function modeOf(values: CommandContext<typeof proxyOptions>['values']): Mode {
  if (values.upstream !== undefined) {
    if (values.upstream.trim() === '') throw new UsageError('--upstream needs the gateway base URL');
    return { kind: 'upstream', upstream: values.upstream };
  }
  if (values.merchant === undefined)
    throw new UsageError(
      "give --upstream <gateway base URL> (a client's traffic) or --merchant <merchant URL> " +
        '--notify-url <url> --return-url <url> (webhooks and return redirects)',
    );
  const missing = (['notify-url', 'return-url'] as const).filter((o) => !values[o]);
  if (missing.length > 0)
    throw new UsageError(
      `--merchant needs ${missing.map((o) => `--${o}`).join(' and ')}: ` +
        `${missing.length > 1 ? 'the URLs as the merchant registers them' : 'the URL as the merchant registers it'}, ` +
        'which webhooks and redirects are signed over (R10, R11)',
    );
  return {
    kind: 'merchant',
    merchant: values.merchant,
    notifyUrl: values['notify-url'] as string,
    returnUrl: values['return-url'] as string,
    acceptance: acceptanceRuleOf(values),
  };
}

function startLines(s: ProxyStarted, appId: string, source: string, reportDir: string): string[] {
  const lines = ['pgv2kit proxy', `proxy URL   ${s.proxyUrl}`];
  if (s.upstream !== undefined) {
    lines.push(`upstream    ${inertText(s.upstream)}`);
    if (s.uploadUrl !== undefined) lines.push(`upload URL  ${s.uploadUrl} (the uploadUrl answered points here)`);
  } else {
    lines.push(
      `merchant    ${inertText(s.merchant ?? '')}`,
      `notifyUrl   ${inertText(s.notifyUrl ?? '')}`,
      `returnUrl   ${inertText(s.returnUrl ?? '')}`,
    );
  }
  lines.push(`appId       ${inertText(appId)} (secret ${source})`, `reports     ${inertText(reportDir)}`, '');
  lines.push(
    s.upstream !== undefined
      ? `Use ${s.proxyUrl} as the gateway base URL. Stop with Ctrl-C (SIGINT) or SIGTERM: the reports follow.`
      : `Point the tunnel at ${s.proxyUrl}. Stop with Ctrl-C (SIGINT) or SIGTERM: the reports follow.`,
    '',
    '',
  );
  return lines;
}

/** A request passed through to the merchant, not judged: one short line. */
function passLine(p: PassThrough, masker: Masker): string {
  const answer = p.status !== undefined ? String(p.status) : `no answer (${p.failure ?? 'none'})`;
  return `   ${inertText(masker.text(`${p.method} ${shortUrl(p.url)} → ${answer}`))}  passed through, not judged`;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `20261126-071500`, in UTC: the default session name's time. */
function stamp(d: Date): string {
  return d
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
}

/**
 * The process's SIGINT and SIGTERM: the first settles {@link Signals.first}; a second one while the proxy stops and
 * the reports are written exits at once (130, 143), as `pgv2kit run` does. The process that started the proxy
 * exiting (its parent pid changed: it was adopted) stops it as a first signal does — `npx pgv2kit proxy` stopped by
 * stopping npx, which does not pass the signal on, as `pgv2kit serve` does: it was left running, holding its port.
 */
class Signals {
  /** What to drop before an exit at once (the session's files). */
  cleanup: (() => void) | undefined;
  #reason: string | undefined;
  #resolve: ((reason: string) => void) | undefined;
  readonly #unwatch: () => void;
  readonly #on = (signal: NodeJS.Signals): void => {
    if (this.#reason !== undefined) {
      this.stderr(`pgv2kit proxy: ${signal} again: exiting now, no reports\n`);
      this.cleanup?.();
      process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
    }
    this.#stop(signal);
  };

  constructor(private readonly stderr: (text: string) => void) {
    process.on('SIGINT', this.#on);
    process.on('SIGTERM', this.#on);
    this.#unwatch = watchParent((parent) => {
      if (this.#reason === undefined) this.#stop(`the process that started it (pid ${parent}) has exited`);
    });
  }

  first(): Promise<string> {
    const reason = this.#reason;
    if (reason !== undefined) return Promise.resolve(reason);
    return new Promise((resolve) => (this.#resolve = resolve));
  }

  #stop(reason: string): void {
    this.#reason = reason;
    this.#unwatch();
    this.#resolve?.(reason);
  }

  remove(): void {
    this.#unwatch();
    process.off('SIGINT', this.#on);
    process.off('SIGTERM', this.#on);
  }
}
