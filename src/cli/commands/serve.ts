/**
 * `pgv2kit serve`: runs the reference gateway (src/gateway/) until SIGINT or SIGTERM —
 * the API on the base URL, the upload address the uploadUrl values point to, per-case
 * base URLs `/s/<scenario id>`, and a line per request on standard error saying what
 * was accepted or refused and why.
 * @module
 */
import { maskSecret } from '../../scheme/mask.js';
import { DEMO_MERCHANT, startGateway, type Gateway, type Merchant } from '../../gateway/index.js';
import { resolvePath } from '../_files.js';
import { UsageError, defineCommand, type OptionValues } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';

/** The environment variable holding the merchant appId. */
export const APP_ID_ENV = 'PGV2_APP_ID';
/** The environment variable holding the merchant secret. */
export const APP_SECRET_ENV = 'PGV2_APP_SECRET';

const OPTIONS = {
  port: { type: 'string', valueName: '<n>', description: 'The API port (default 0: a free port, printed)' },
  'upload-port': { type: 'string', valueName: '<n>', description: 'The upload port (default 0: a free port, printed)' },
  host: { type: 'string', valueName: '<host>', description: 'The address to listen on (default 127.0.0.1: loopback only)' },
  'app-id': { type: 'string', valueName: '<id>', description: 'The merchant appId', env: APP_ID_ENV },
  secret: { type: 'string', valueName: '<secret>', description: 'The merchant secret', env: APP_SECRET_ENV, secret: true },
  'storage-dir': { type: 'string', valueName: '<dir>', description: 'Keep uploaded files in this folder (default: a temporary one, removed on exit)' },
  json: { type: 'boolean', description: 'Print one JSON line (baseUrl, uploadUrl, appId, masked secret) instead of text' },
  quiet: { type: 'boolean', description: 'Print no line per request' },
} as const;

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'Run the reference gateway (API, upload address, scenarios) on loopback until stopped',
  usage: 'pgv2kit serve [--port <n>] [--upload-port <n>] [--host <host>] [--app-id <id> --secret <secret>] [options]',
  description: [
    'Starts the reference gateway and prints its base URL, its upload URL and the merchant:',
    'POST <base URL>/pg/v2/file/generateUploadUrl and POST <base URL>/pg/v2/payment/create',
    'verify the V2_SHA256 signature (§5) and the body, and answer with a signed envelope',
    '(§2.3, §5.4); the upload address checks every formFields entry, the file part last,',
    'the size and the type, and answers 204. <base URL>/s/<scenario id> is a per-case base',
    'URL: the same gateway, recorded apart. Each request is logged on standard error with',
    'its outcome (a refusal says why: the header item, the field and rule, the known',
    'signer mistake that reproduces a wrong sign).',
    '',
    `The merchant comes from --app-id and --secret, or ${APP_ID_ENV} and ${APP_SECRET_ENV}.`,
    `Without them the demo merchant is used: appId ${DEMO_MERCHANT.appId}, secret`,
    `${DEMO_MERCHANT.appSecret} (a public test credential; printed masked like any secret).`,
    'The gateway listens on loopback only unless --host is given. It runs until SIGINT',
    '(Ctrl-C) or SIGTERM.',
  ].join('\n'),
  options: OPTIONS,
  exitCodes: {
    0: 'stopped by SIGINT or SIGTERM',
    2: 'usage error: a port that is not 0–65535, an appId without a secret, a bad appId',
    3: 'the gateway could not start (a port in use, an address not available)',
  },
  examples: ['pgv2kit serve', `${APP_ID_ENV}=app_9f2c ${APP_SECRET_ENV}=… pgv2kit serve --port 8080 --upload-port 8081`, 'pgv2kit serve --json --quiet'],
  run({ values, io, addSecret }) {
    return serve(values, io, addSecret, untilSignal());
  },
});

/**
 * Runs the gateway until `stop` settles (the command passes SIGINT/SIGTERM; tests pass their own).
 * @param values - the command's option values
 * @param io - the io
 * @param addSecret - declares the secret in use, masked in every output
 * @param stop - settles when the gateway should stop, with the reason
 * @param started - called with the gateway once it listens (tests)
 * @returns the exit code
 * @throws {UsageError} for a bad port, an appId without a secret (or a secret without an appId), a bad appId
 * @example await serve({ port: '0' }, io, () => {}, stopPromise)
 */
export async function serve(
  values: OptionValues<typeof OPTIONS>,
  io: CliIo,
  addSecret: (secret: string) => void,
  stop: Promise<string>,
  started?: (gateway: Gateway) => void,
): Promise<number> {
  const port = portOf(values.port, 'port');
  const uploadPort = portOf(values['upload-port'], 'upload-port');
  const { merchant, source } = merchantOf(values, io.env);
  addSecret(merchant.appSecret);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host needs an address');
  if (!/^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host)) io.stderr(`pgv2kit serve: warning: listening on ${host}: reachable from other machines, not loopback only\n`);

  let gateway: Gateway;
  try {
    gateway = await startGateway({
      merchants: [merchant],
      recordLimit: 1000,
      host,
      port,
      uploadPort,
      ...(values['storage-dir'] !== undefined ? { storageDir: resolvePath(io.cwd, values['storage-dir']) } : {}),
      ...(values.quiet ? {} : { log: (line: string) => io.stderr(`${new Date().toISOString()} ${line}\n`) }),
    });
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) throw new UsageError(e.message);
    io.stderr(`pgv2kit serve: the gateway could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.failure;
  }
  const masked = maskSecret(merchant.appSecret);
  if (values.json) {
    io.stdout(`${JSON.stringify({ baseUrl: gateway.baseUrl, uploadUrl: gateway.uploadUrl, appId: merchant.appId, secret: masked, storageDir: gateway.storage.dir })}\n`);
  } else {
    io.stdout(
      [
        'pgv2kit reference gateway',
        `base URL    ${gateway.baseUrl}`,
        `upload URL  ${gateway.uploadUrl}`,
        `appId       ${merchant.appId}`,
        `secret      ${masked} (${source})`,
        `storage     ${gateway.storage.dir}`,
        '',
        `Point an SDK at it: base_url ${gateway.baseUrl}, appId ${merchant.appId} and the secret above.`,
        `  POST ${gateway.baseUrl}/pg/v2/file/generateUploadUrl`,
        `  POST ${gateway.baseUrl}/pg/v2/payment/create`,
        `Per-case base URL: ${gateway.baseUrl}/s/<scenario id> (the same gateway, recorded apart).`,
        'Stop with Ctrl-C (SIGINT) or SIGTERM.',
        '',
      ].join('\n'),
    );
  }
  started?.(gateway);
  const reason = await stop;
  await gateway.close();
  if (!values.json) io.stdout(`stopped (${reason})\n`);
  return EXIT.ok;
}

// --- internal ---

function portOf(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535) throw new UsageError(`--${name} must be a port number from 0 to 65535, not ${JSON.stringify(value)}`);
  return Number(value);
}

function merchantOf(values: OptionValues<typeof OPTIONS>, env: Record<string, string | undefined>): { merchant: Merchant; source: string } {
  const appId = values['app-id'] || env[APP_ID_ENV];
  const secret = values.secret || env[APP_SECRET_ENV];
  if (appId === undefined || appId === '') {
    if (values.secret) throw new UsageError(`--secret needs an appId: give --app-id or set ${APP_ID_ENV}`);
    return { merchant: DEMO_MERCHANT, source: `the demo merchant's; see pgv2kit serve --help` };
  }
  if (secret === undefined || secret === '') throw new UsageError(`appId ${JSON.stringify(appId)} needs a secret: set ${APP_SECRET_ENV} (or pass --secret)`);
  if (/[,\s]/.test(appId)) throw new UsageError(`appId ${JSON.stringify(appId)} holds a comma or white space, which the Authorization header cannot carry (R8)`);
  return { merchant: { appId, appSecret: secret }, source: values.secret ? 'from --secret' : `from ${APP_SECRET_ENV}` };
}

/** Settles on the first SIGINT or SIGTERM, with the signal's name. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
