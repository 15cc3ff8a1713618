/**
 * `pgv2kit generate`: writes new vector cases, from given parts (a signature case and,
 * with --with-mistakes, its known-mistake candidates) or at random from a seed. Every
 * expected value is computed by the reference and checked independently; the written
 * set is loaded (validated) before success is declared. Never overwrites a file or a case.
 * @module
 */
import { GENERATE_KINDS } from '../../generate/areas.js';
import { defineCommand, type OptionSpecs } from '../command.js';
import { APP_SECRET_ENV } from '../../env.js';
import { vectorLimitOptions } from '../vector-limit-options.js';
import { WRITING_VECTORS_HELP } from '../_writing-help.js';

/** Random mode's options: not with the parts. */
const NOT_THE_PARTS = {
  options: ['app-id', 'secret', 'method', 'url', 'timestamp', 'nonce', 'body-file', 'body', 'with-mistakes'],
  message: 'give either the parts (--app-id …) or --seed/--count/--kind, not both',
} as const;

/** The options of `pgv2kit generate`. */
export const generateOptions = {
  'app-id': { type: 'string', valueName: '<id>', description: 'Part 1: the application id' },
  secret: {
    type: 'string',
    valueName: '<secret>',
    env: APP_SECRET_ENV,
    secret: true,
    description: `Part 2: the secret (or ${APP_SECRET_ENV}); written into the vector file`,
  },
  method: { type: 'string', valueName: '<method>', description: 'Part 3: the HTTP method as sent' },
  url: { type: 'string', valueName: '<url>', description: 'Part 4: the full URL as sent' },
  timestamp: { type: 'string', valueName: '<ms>', description: 'Part 5', default: { shown: 'now, in milliseconds' } },
  nonce: { type: 'string', valueName: '<nonce>', description: 'Part 6', default: { shown: '32 random hex digits' } },
  'body-file': { type: 'string', valueName: '<path>', description: "Part 7: the body, the file's exact bytes" },
  body: {
    type: 'string',
    valueName: '<text>',
    description: 'Part 7 as UTF-8 text',
    conflicts: { options: ['body-file'], message: 'give --body or --body-file, not both' },
  },
  'with-mistakes': { type: 'boolean', description: 'Also write one invalid case per known signer mistake' },
  seed: {
    type: 'string',
    valueName: '<n>',
    description: 'Random mode: the seed, an integer 0 … 4294967295',
    conflicts: NOT_THE_PARTS,
  },
  count: {
    type: 'string',
    valueName: '<k>',
    description: 'Random mode: how many cases (1 … 10000)',
    conflicts: NOT_THE_PARTS,
  },
  kind: {
    type: 'string',
    valueName: '<kind>',
    description: `Random mode: ${GENERATE_KINDS.join(' | ')}`,
    conflicts: NOT_THE_PARTS,
  },
  area: {
    type: 'string',
    valueName: '<kind>',
    description: '--kind by its older name (kept for scripts)',
    conflicts: NOT_THE_PARTS,
  },
  out: {
    type: 'string',
    valueName: '<file>',
    description: 'The file to write, in a kind folder of a vectors folder',
    conflicts: ['dir'],
  },
  append: {
    type: 'boolean',
    description: 'Add the cases after those of an existing --out file',
    requires: { options: ['out'], message: '--append needs --out' },
  },
  dir: {
    type: 'string',
    valueName: '<dir>',
    description: 'The vectors folder',
    default: { shown: "the kit's own; made when missing" },
  },
  ...vectorLimitOptions,
} as const satisfies OptionSpecs;

export const generateCommand = defineCommand({
  name: 'generate',
  summary: 'Write new vector cases: from given parts, or at random from a seed',
  usage: [
    'pgv2kit generate --app-id <id> [--secret <secret>] --method <method> --url <url> ' +
      '(--body-file <path> | --body <text>)',
    '                 [--timestamp <ms>] [--nonce <nonce>] [--with-mistakes] [--out <file> [--append] | --dir <dir>]',
    'pgv2kit generate --seed <n> --count <k> --kind signature|authorization|response|webhook|redirect ' +
      '[--out <file> [--append] | --dir <dir>]',
  ].join('\n'),
  description: [
    'From given parts: one valid signature case of the seven parts (timestamp and nonce',
    'default to now and a random nonce); --with-mistakes adds one invalid case per known',
    'signer mistake. The secret comes from --secret or the environment variable',
    `${APP_SECRET_ENV}; it is masked in everything printed, but the vector file itself`,
    'contains it (appSecret of each case): a vector needs the secret it was signed with.',
    'Use a test secret.',
    '',
    `At random from a seed: --count cases of one kind (${GENERATE_KINDS.join(', ')}); the`,
    'same seed and kit version give the same cases.',
    '',
    'Every content and sign is computed by the reference and again by plain',
    'concatenation hashed with node:crypto (headers: written by hand and parsed by the',
    'reference); nothing is written if they disagree. Ids are <kind>.gen-<seed>-<n>,',
    "skipping ids already in the set (and in the kit's). The file (default",
    '<dir>/<kind>/generated-<seed>.yaml) is never overwritten: --append adds the cases after',
    'those of an existing file. Every case carries the flag Generated.',
    '',
    ...WRITING_VECTORS_HELP,
  ].join('\n'),
  options: generateOptions,
  exitCodes: {
    0: 'the cases were written and the whole set validates',
    2:
      "usage error: missing or conflicting options, the file exists (no --append) or is the kit's own, " +
      'a vectors folder that does not load (every problem printed)',
    3: 'the reference and the independent check disagree, or the written set did not validate (undone)',
  },
  examples: [
    `${APP_SECRET_ENV}=sk_test_… pgv2kit generate --app-id app_9f2c --method POST ` +
      '--url https://pg.example.com/pg/v2/payment/create --body-file body.json --with-mistakes',
    'pgv2kit generate --seed 42 --count 20 --kind signature',
    'pgv2kit generate --seed 7 --count 20 --kind authorization --dir ./my-vectors',
  ],
  run: async (context) => (await import('./generate.run.js')).runGenerate(context),
});
