/**
 * `pgv2kit serve`: runs the reference gateway (src/gateway/) until SIGINT or SIGTERM —
 * the API on the base URL, the upload address the uploadUrl values point to, per-case
 * base URLs `/s/<scenario id>`, and a line per request on standard error saying what
 * was accepted or refused and why.
 * @module
 */
import { DEMO_MERCHANT } from '../../gateway/merchants.js';
import { defineCommand } from '../command.js';
import { credentialOptions } from '../credentials.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';

/** The options of `pgv2kit serve`. */
export const serveOptions = {
  port: {
    type: 'string',
    valueName: '<n>',
    description: 'The API port',
    default: { shown: '0, a free port, printed' },
  },
  'upload-port': {
    type: 'string',
    valueName: '<n>',
    description: 'The upload port',
    default: { shown: '0, a free port, printed' },
  },
  host: {
    type: 'string',
    valueName: '<host>',
    description: 'The address to listen on',
    default: { shown: '127.0.0.1, loopback only' },
  },
  ...credentialOptions,
  'storage-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Keep uploaded files in this folder',
    default: { shown: 'a temporary one, removed on exit' },
  },
  json: {
    type: 'boolean',
    description:
      'Print one JSON line (baseUrl, uploadUrl, appId, secret: the demo one in clear, any other masked; ' +
      'testCredential) instead of text',
  },
  quiet: { type: 'boolean', description: 'Print no line per request' },
  'ignore-empty-items': {
    type: 'boolean',
    description:
      'Ignore empty Authorization list elements (",,", a comma first or last; R8 (d)) instead of refusing them',
  },
  'fold-item-names': {
    type: 'boolean',
    description:
      'Compare Authorization item names without regard to ASCII case (R8 (e); a duplicate after folding is refused)',
  },
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
    `${DEMO_MERCHANT.appSecret} (a published test credential, printed in clear and labelled so;`,
    'any other secret is printed masked).',
    'The gateway listens on loopback only unless --host is given. It runs until SIGINT',
    '(Ctrl-C) or SIGTERM, or until the process that started it exits (so that a test set-up',
    'stopping `npx pgv2kit serve` stops the gateway too: npx does not pass the signal on).',
  ].join('\n'),
  options: serveOptions,
  exitCodes: {
    0: 'stopped by SIGINT or SIGTERM, or the process that started it exited',
    2: 'usage error: a port that is not 0–65535, an appId without a secret, a bad appId',
    3: 'the gateway could not start (a port in use, an address not available)',
  },
  examples: [
    'pgv2kit serve',
    `${APP_ID_ENV}=app_9f2c ${APP_SECRET_ENV}=… pgv2kit serve --port 8080 --upload-port 8081`,
    'pgv2kit serve --json --quiet',
  ],
  run: async (context) => (await import('./serve.run.js')).runServe(context),
});
