/**
 * What `pgv2kit serve` does, loaded only when the command runs (serve.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { maskSecret } from '../../scheme/mask.js';
import { DEMO_MERCHANT, startGateway, type Gateway } from '../../gateway/index.js';
import { merchantFrom, merchantSecrets } from '../credentials.js';
import { resolvePath } from '../_files.js';
import { UsageError, type OptionValues, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { watchParent } from '../parent-watch.js';
import type { serveOptions } from './serve.js';

/**
 * Runs `pgv2kit serve`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runServe({ values, io, addSecret }: CommandContext<typeof serveOptions>): Promise<number> {
  return serve(values, io, addSecret, () => untilStopped(io));
}

/**
 * Runs the gateway until what `stop` returns settles (the command's: SIGINT, SIGTERM or its parent
 * process gone; tests pass their own).
 * @param values - the command's option values
 * @param io - the io
 * @param addSecret - declares the secret in use, masked in every output
 * @param stop - called once the gateway listens (nothing is watched before, nor after a failed start): settles when
 *   it should stop, with the reason
 * @param started - called with the gateway once it listens (tests)
 * @returns the exit code
 * @throws {UsageError} for a bad port, an appId without a secret (or a secret without an appId), a bad appId
 * @example await serve({ port: '0' }, io, () => {}, async () => 'stopped') // 0
 */
export async function serve(
  values: OptionValues<typeof serveOptions>,
  io: CliIo,
  addSecret: (secret: string) => void,
  stop: () => Promise<string>,
  started?: (gateway: Gateway) => void,
): Promise<number> {
  const port = portOf(values.port, 'port');
  const uploadPort = portOf(values['upload-port'], 'upload-port');
  const { merchant, source } = merchantFrom(values, io.env);
  // the demo merchant's secret is published (docs/guide/gateway.md, --help): printed in clear, labelled; any other
  // is masked everywhere
  const demo = merchant === DEMO_MERCHANT;
  for (const secret of merchantSecrets(merchant)) addSecret(secret);
  const host = values.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host needs an address');
  if (!/^(?:127\.\d+\.\d+\.\d+|::1|localhost)$/.test(host))
    io.stderr(`pgv2kit serve: warning: listening on ${host}: reachable from other machines, not loopback only\n`);

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
      // R8 (d), (e): the header parser's further choices, both refused unless asked
      header: { ignoreEmpty: values['ignore-empty-items'] === true, foldNames: values['fold-item-names'] === true },
    });
  } catch (e) {
    if (e instanceof RangeError || e instanceof TypeError) throw new UsageError(e.message);
    io.stderr(`pgv2kit serve: the gateway could not start: ${e instanceof Error ? e.message : String(e)}\n`);
    return EXIT.failure;
  }
  const shown = demo ? merchant.appSecret : maskSecret(merchant.appSecret);
  if (values.json) {
    const summary = {
      baseUrl: gateway.baseUrl,
      uploadUrl: gateway.uploadUrl,
      appId: merchant.appId,
      secret: shown,
      testCredential: demo,
      storageDir: gateway.storage.dir,
    };
    io.stdout(`${JSON.stringify(summary)}\n`);
  } else {
    io.stdout(
      [
        'pgv2kit reference gateway',
        `base URL    ${gateway.baseUrl}`,
        `upload URL  ${gateway.uploadUrl}`,
        `appId       ${merchant.appId}`,
        `secret      ${shown} (${source})`,
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
  const reason = await stop();
  await gateway.close();
  if (!values.json) io.stdout(`stopped (${reason})\n`);
  return EXIT.ok;
}

// --- internal ---

function portOf(value: string | undefined, name: string): number {
  if (value === undefined) return 0;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--${name} must be a port number from 0 to 65535, not ${JSON.stringify(value)}`);
  return Number(value);
}

/**
 * Settles on the first SIGINT or SIGTERM, with the signal's name, or once the process that
 * started serve has exited (its parent pid changed: it was adopted) — `npx pgv2kit serve` in a
 * test set-up is stopped by stopping npx, which does not pass the signal on.
 */
function untilStopped(io: Pick<CliIo, 'stderr'>): Promise<string> {
  return new Promise((resolve) => {
    const done = (reason: string): void => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      unwatch();
      resolve(reason);
    };
    const unwatch = watchParent((parent) => {
      io.stderr(`pgv2kit serve: the process that started it (pid ${parent}) has exited: stopping\n`);
      done('its parent process exited');
    });
    process.on('SIGINT', done);
    process.on('SIGTERM', done);
  });
}
