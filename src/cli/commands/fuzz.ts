/**
 * `pgv2kit fuzz`: fuzzes an implementation's Authorization header parser
 * (`authorization.parse`, spec §5.3, reading R8) with mutated headers judged by the
 * reference, and shrinks what it finds to a minimal header, replayable and savable as
 * a vector.
 * @module
 */
import { defineCommand, UsageError, type OptionSpecs } from '../command.js';
import { parseOption } from '../_numbers.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { vectorLimitOptions } from '../vector-limit-options.js';
import { WRITING_VECTORS_HELP } from '../_writing-help.js';

/** A text that must not be blank. */
function nonEmpty(text: string, message: string): string {
  if (text.trim() === '') throw new UsageError(message);
  return text;
}

/** --gateway's and --merchant-notify's URL. */
function targetUrl(text: string): string {
  if (!/^https?:\/\/[^/]/.test(text)) {
    throw new UsageError(`the URL must be http(s)://…, not ${JSON.stringify(text)}`);
  }
  return text;
}

/** --notify-url: an http(s) URL as registered, without a fragment. */
function notifyUrlOf(text: string): string {
  if (!/^https?:\/\/[^/]/.test(text))
    throw new UsageError(`--notify-url must be an http(s):// URL, not ${JSON.stringify(text)}`);
  if (text.includes('#'))
    throw new UsageError('--notify-url must not have a fragment (a fragment is never sent, nor registered)');
  return text;
}

/** The options of `pgv2kit fuzz`. */
export const fuzzOptions = {
  testee: {
    type: 'string',
    valueName: '<command>',
    description: 'Start this command and fuzz it over protocol v1',
    conflicts: ['gateway', 'merchant-notify'],
    parse: (text: string) => nonEmpty(text, '--testee needs a command'),
  },
  gateway: {
    type: 'string',
    valueName: '<url>',
    description: 'Fuzz a gateway: signed credentials requests to <url> with fuzzed Authorization headers',
    conflicts: ['testee', 'merchant-notify'],
    parse: targetUrl,
  },
  'merchant-notify': {
    type: 'string',
    valueName: '<url>',
    description: "Fuzz a merchant's notify endpoint: signed webhooks to <url> with fuzzed Authorization headers",
    conflicts: ['testee', 'gateway'],
    parse: targetUrl,
  },
  'notify-url': {
    type: 'string',
    valueName: '<url>',
    description: 'With --merchant-notify: the notifyUrl as the merchant registered it, which every webhook signs (R10)',
    default: { shown: 'the --merchant-notify URL' },
    requires: {
      options: ['merchant-notify'],
      message:
        '--notify-url goes with --merchant-notify: ' +
        'the notifyUrl as registered, which the webhooks sent there sign (R10)',
    },
    parse: notifyUrlOf,
  },
  'accept-body': {
    type: 'string',
    valueName: '<text>',
    description:
      'With --merchant-notify: an accepting answer is a 2xx with this body ' +
      '(e.g. SUCCESS, for a merchant that refuses with 200 FAIL), as certify reads it',
    default: { shown: 'any 2xx' },
    requires: {
      options: ['merchant-notify'],
      message:
        "--accept-body goes with --merchant-notify: how the merchant's notify endpoint says it accepted a webhook",
    },
    parse: (text: string) => nonEmpty(text, '--accept-body needs the text an accepting answer carries (e.g. SUCCESS)'),
  },
  'app-id': {
    type: 'string',
    valueName: '<id>',
    description: 'With --gateway or --merchant-notify: the merchant appId',
    env: APP_ID_ENV,
  },
  secret: {
    type: 'string',
    valueName: '<secret>',
    description: 'With --gateway or --merchant-notify: the merchant secret',
    env: APP_SECRET_ENV,
    secret: true,
  },
  seed: {
    type: 'string',
    valueName: '<n>',
    description: 'The random seed',
    default: { shown: 'random, printed' },
    conflicts: { options: ['replay'], why: 'the replay carries its seed' },
    parse: parseOption.integer,
  },
  runs: {
    type: 'string',
    valueName: '<n>',
    description: 'Headers to generate (over HTTP those not sendable are counted apart, never as tried)',
    default: { shown: '1000; with --time alone: until the time is up' },
    parse: parseOption.positiveInteger,
  },
  time: {
    type: 'string',
    valueName: '<seconds>',
    description: 'Stop after this many seconds',
    parse: parseOption.seconds,
  },
  replay: { type: 'string', valueName: '<seed:path>', description: 'Replay one finding from its seed and path' },
  save: {
    type: 'string',
    valueName: '<file>',
    description:
      'Write the finding as a vector to this file, in the authorization/ folder of a vectors folder ' +
      '(created or appended to)',
    conflicts: {
      options: ['gateway', 'merchant-notify'],
      message: '--save writes authorization.parse vectors: use it with --testee or the reference',
    },
  },
  json: {
    type: 'boolean',
    description:
      'Print one JSON summary on stdout (seed, headers tried; over HTTP also generated, sent by path, ' +
      'not sendable by why, findings; the finding or null, exit code); ' +
      'every other line goes to stderr',
  },
  timeout: {
    type: 'string',
    valueName: '<seconds>',
    description: 'Per-header timeout for a testee, and for its answer to start',
    default: 5,
    parse: parseOption.seconds,
  },
  ...vectorLimitOptions,
} as const satisfies OptionSpecs;

export const fuzzCommand = defineCommand({
  name: 'fuzz',
  summary: "Fuzz an implementation's Authorization header parser against reading R8 and shrink what breaks it",
  usage:
    'pgv2kit fuzz [--testee "<command>" | --gateway <url> | ' +
    '--merchant-notify <url> [--notify-url <url>] [--accept-body <text>]] ' +
    '[--seed <n>] [--runs <n>] [--time <s>] [--replay <seed:path>] [--save <file>]',
  description: [
    'Sends authorization.parse headers to the implementation: valid headers in every item',
    'order with realistic values, and mutated ones (items dropped, duplicated or emptied,',
    'commas and "=" injected, white space, control characters, non-ASCII, very long',
    'values, other schemes, case changes). Reading R8 decides (docs/readings.md): every answer',
    'its strict parser and its defensible variants give (white space kept, removed or refused',
    'at each place, by every common trim; unknown items ignored or refused; the scheme with or',
    'without case) passes; any other answer is a finding.',
    "Over HTTP the gateway accepts with a 200 (R9); a merchant's notify endpoint as certify reads",
    'it: with any 2xx, or with --accept-body only a 2xx with that body, any other answer a refusal.',
    'A 5xx counts as a refusal (R16): an advisory where a refusal is allowed, a finding where the',
    'header must be accepted. A webhook signs, as part 4,',
    'the notifyUrl as the merchant registered it (R10): --notify-url, when the endpoint is reached',
    'at another URL (a proxy, a local port); without it, the URL it is sent to. The URL signed is',
    'printed at the start and with a finding.',
    'Over HTTP every header counted reaches the server: one the HTTP client (undici) refuses (a control',
    'character, a character above U+00FF) goes byte for byte over a raw socket, its value as Latin-1, or',
    'as UTF-8 when a character is above U+00FF; one the wire cannot carry (CR or LF: it would end the',
    'field line and make another request; a lone surrogate) is counted as not sendable, never as tried.',
    '"N headers tried" counts the headers sent (by the HTTP client, over a raw socket); with those not',
    'sendable, the headers generated (--runs).',
    'A failure is shrunk to a minimal header and printed with its replay seed and path.',
    'Without --testee the built-in reference is fuzzed in process.',
    '',
    '--save writes the finding as an authorization.parse vector, id authorization.fuzz-<n>',
    '(a new file, or appended to an existing one; existing cases are kept), flagged FuzzFinding.',
    ...WRITING_VECTORS_HELP,
  ].join('\n'),
  options: fuzzOptions,
  exitCodes: {
    0: 'no finding: every header was handled as R8 requires',
    1: 'a finding: a header the implementation handles against R8 (printed, and saved with --save)',
    2: 'usage error',
    3:
      'the testee could not be started, or the gateway or merchant at the URL given could not be reached ' +
      '(one line, before any request)',
    130: "interrupted by Ctrl-C (SIGINT): the testee's process group stopped, the seed printed",
    143: 'terminated (SIGTERM): as 130',
  },
  examples: [
    'pgv2kit fuzz --testee "python3 examples/python-adapter/pgv2kit_adapter.py"',
    'pgv2kit fuzz --testee "node my-adapter.mjs" --runs 10000 --time 60 --save vectors/authorization/fuzz.yaml',
    'pgv2kit fuzz --testee "node my-adapter.mjs" --replay 1234:5:0:0',
    'pgv2kit fuzz --merchant-notify http://127.0.0.1:8080/hooks/pg ' +
      '--notify-url https://shop.example/hooks/pg --runs 300',
  ],
  run: async (context) => (await import('./fuzz.run.js')).runFuzz(context),
});
