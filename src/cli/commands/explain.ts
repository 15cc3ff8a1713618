/**
 * `pgv2kit explain`: what a developer reaches for when a signature does not match.
 * Shows the signature content part by part with every LF visible (the secret
 * masked), its length and sign, and — given the Authorization header — whether the
 * header's sign matches, and if not, which known mistake reproduces it.
 * @module
 */
import { defineCommand, type OptionSpecs } from '../command.js';
import { APP_SECRET_ENV } from '../../env.js';

/** The options of `pgv2kit explain`. */
export const explainOptions = {
  'app-id': { type: 'string', valueName: '<id>', description: 'Part 1: the application id' },
  secret: {
    type: 'string',
    valueName: '<secret>',
    description: 'Part 2: the application secret',
    env: APP_SECRET_ENV,
    secret: true,
  },
  method: { type: 'string', valueName: '<method>', description: 'Part 3: the HTTP method as sent (R5)' },
  url: { type: 'string', valueName: '<url>', description: 'Part 4: the full URL as sent (R4)' },
  timestamp: { type: 'string', valueName: '<ms>', description: 'Part 5: the timestamp, as carried in the header' },
  nonce: { type: 'string', valueName: '<nonce>', description: 'Part 6: the nonce, as carried in the header' },
  body: {
    type: 'string',
    valueName: '<text>',
    description: 'Part 7: the body, as UTF-8 text (R2)',
    default: { shown: 'empty' },
    conflicts: ['body-file'],
  },
  'body-file': {
    type: 'string',
    valueName: '<path>',
    description: 'Part 7: the body, the file\'s exact bytes ("-" reads standard input)',
  },
  authorization: {
    type: 'string',
    valueName: '<header>',
    description: 'The Authorization header value to check; gives timestamp and nonce (R6)',
    conflicts: {
      options: ['timestamp', 'nonce'],
      message: 'give --authorization or --timestamp and --nonce, not both (the header carries timestamp and nonce, R6)',
    },
  },
  json: { type: 'boolean', description: 'Print one JSON object instead of text' },
} as const satisfies OptionSpecs;

export const explainCommand = defineCommand({
  name: 'explain',
  summary: 'Show the signature content part by part, its sign, and why a header does or does not match',
  usage: [
    'pgv2kit explain --app-id <id> --method <method> --url <url> [--body <text> | --body-file <path>]',
    '                       (--authorization <header> | --timestamp <ms> --nonce <nonce>) [--json]',
  ].join('\n'),
  description: [
    'Builds the V2_SHA256 signature content of spec §5.1 from the parts given and shows it',
    'one part per line, every LF as ⏎, control characters, a BOM and bytes that are not',
    'UTF-8 as escapes, the secret masked (it is never printed). Then its length in bytes and',
    'its sign. With --authorization, timestamp and nonce are read from the header (R6); the',
    'header is parsed (R8) and its sign compared: MATCH, or MISMATCH with the known mistakes',
    '(a dropped LF, CR LF, a path-only URL, a re-serialized body …) that reproduce it.',
    '',
    `The secret comes from ${APP_SECRET_ENV} (preferred: it stays out of the shell history and`,
    'the process list) or --secret. For exact bytes, give the body as a file: --body-file.',
  ].join('\n'),
  options: explainOptions,
  exitCodes: {
    0: 'the header matches (or no --authorization was given)',
    1: 'the header does not match, or it cannot be parsed',
    2: 'usage error: a missing or conflicting option, an unreadable --body-file, no secret',
  },
  examples: [
    `export ${APP_SECRET_ENV}=…   # once, then:`,
    'pgv2kit explain --app-id app_9f2c --method POST --url https://pg.example.com/pg/v2/file/generateUploadUrl \\',
    '  --body-file body.json --authorization "V2_SHA256 appId=app_9f2c,sign=…,timestamp=1717171717000,nonce=n-1"',
    'pgv2kit explain --app-id app_9f2c --method GET --url https://pg.example.com/pg/v2/x ' +
      '--timestamp 1717171717000 --nonce n-1',
  ],
  run: async (context) => (await import('./explain.run.js')).runExplain(context),
});
