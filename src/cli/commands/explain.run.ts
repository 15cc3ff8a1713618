/**
 * What `pgv2kit explain` does, loaded only when the command runs (explain.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { readBytes, resolvePath } from '../_files.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { explainSignature, type ExplainInput } from '../explain/model.js';
import { explanationJson, renderExplanation } from '../explain/render.js';
import { APP_SECRET_ENV } from '../../env.js';
import type { explainOptions } from './explain.js';

/**
 * Runs `pgv2kit explain`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runExplain({ values, io }: CommandContext<typeof explainOptions>): Promise<number> {
  const required = (name: 'app-id' | 'method' | 'url'): string => {
    const v = values[name];
    if (v === undefined) throw new UsageError(`missing --${name}`);
    return v;
  };
  const appId = required('app-id');
  const method = required('method');
  const url = required('url');
  const appSecret = values.secret || io.env[APP_SECRET_ENV];
  if (!appSecret) throw new UsageError(`no secret: set ${APP_SECRET_ENV} (or pass --secret)`);

  // --body with --body-file, --authorization with --timestamp or --nonce: refused by explain.ts's table
  let body: Uint8Array;
  let bodySource: ExplainInput['bodySource'];
  if (values['body-file'] === '-') {
    if (!io.readStdin) throw new UsageError('--body-file -: standard input cannot be read here');
    body = await io.readStdin();
    bodySource = 'stdin';
  } else if (values['body-file'] !== undefined) {
    body = readBytes(resolvePath(io.cwd, values['body-file']), `--body-file ${values['body-file']}`);
    bodySource = 'file';
  } else {
    body = new TextEncoder().encode(values.body ?? '');
    bodySource = values.body === undefined ? 'none' : 'option';
  }

  const { timestamp, nonce, authorization } = values;
  if (authorization === undefined && (timestamp === undefined || nonce === undefined)) {
    throw new UsageError(
      timestamp === undefined && nonce === undefined
        ? 'give --authorization, or --timestamp and --nonce'
        : `missing --${timestamp === undefined ? 'timestamp' : 'nonce'}`,
    );
  }

  const input: ExplainInput = {
    appId,
    appSecret,
    method,
    url,
    body,
    bodySource,
    ...(authorization !== undefined ? { authorization } : { timestamp, nonce }),
  };
  const x = explainSignature(input);
  io.stdout(values.json ? `${JSON.stringify(explanationJson(x), null, 2)}\n` : renderExplanation(x));
  return x.verdict === 'match' || x.verdict === 'no-header' ? EXIT.ok : EXIT.nonconformance;
}
