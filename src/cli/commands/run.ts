/**
 * `pgv2kit run`: the main job. Runs every vector against an implementation — a testee
 * over protocol v1 (`--testee`), a module in process (`--module`), or the built-in
 * reference — and writes JUnit XML, results.json, report.md and report.html.
 * @module
 */
import { DEFAULT_PROPERTY_RUNS } from '../../properties/defaults.js';
import { defineCommand, UsageError, withRule, type OptionSpecs } from '../command.js';
import { merchantOptions, targetNameOptions } from '../merchant-options.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { vectorLimitOptions } from '../vector-limit-options.js';
import { WRITING_VECTORS_HELP } from '../_writing-help.js';
import { deadlineOption, parseOption } from '../_numbers.js';
import { MAX_SHARDS, parseShard, type Shard } from '../../runner/shard.js';
import { DEFAULT_GIVE_UP_AFTER, DEFAULT_MAX_RESTARTS } from '../../protocol/start-failure.js';

/** --name and --version name a gateway or merchant under test. */
function namesTarget(name: 'name' | 'version') {
  return {
    options: ['gateway', 'merchant'],
    message:
      `--${name} names a gateway or merchant under test (--gateway, --merchant): ` +
      'a testee or a module names itself in its handshake',
  } as const;
}

/** --properties and --replay: not where no property runs. */
// the gateway role (--gateway without --testee or --module) is refused in run.run.ts: with an SDK, --gateway only
// names the client cases' gateway, and the properties run
const NEEDS_PROPERTIES = {
  options: ['no-properties', 'merchant'],
  message:
    '--properties and --replay need the properties: ' +
    'leave out --no-properties (and --gateway and --merchant, which have none)',
} as const;

/** --shard's value. */
function shardOf(text: string): Shard {
  const shard = parseShard(text);
  if (!shard)
    throw new UsageError(
      `--shard takes <i>/<n> with 1 ≤ i ≤ n ≤ ${MAX_SHARDS} (e.g. 2/4), not ${JSON.stringify(text)}`,
    );
  return shard;
}

/** The options of `pgv2kit run`. */
export const runOptions = {
  testee: {
    type: 'string',
    valueName: '<command>',
    description: 'Start this command and run it over protocol v1',
    conflicts: ['module', 'merchant'],
  },
  module: {
    type: 'string',
    valueName: '<path>',
    description: 'Load this module in process (exports subject, createSubject() or operations)',
    conflicts: ['testee', 'merchant'],
  },
  gateway: {
    type: 'boolean',
    description:
      'Gateway role: check the gateway at [base_url] (default: the reference gateway, in process); ' +
      "with --testee or --module: the gateway at [base_url] is the one the SDK's plain client cases run against",
    conflicts: ['merchant'],
  },
  merchant: {
    type: 'boolean',
    description:
      'Merchant role: check the merchant at --notify-url and --return-url ' +
      '(default: the sample merchant, started on 127.0.0.1)',
    conflicts: ['testee', 'module', 'gateway'],
  },
  ...withRule(merchantOptions, { requires: { options: ['merchant'], why: 'the merchant role' } }),
  slow: {
    type: 'boolean',
    description:
      'Gateway role: also run the slow cases (an upload 10 min 30 s after its credentials: expiry); ' +
      'without it they are skipped',
  },
  'app-id': {
    type: 'string',
    valueName: '<id>',
    description: 'Gateway and merchant roles, and an SDK with --gateway: the merchant appId',
    env: APP_ID_ENV,
  },
  secret: {
    type: 'string',
    valueName: '<secret>',
    description: 'Gateway and merchant roles, and an SDK with --gateway: the merchant secret',
    env: APP_SECRET_ENV,
    secret: true,
  },
  name: { ...targetNameOptions.name, requires: namesTarget('name') },
  version: { ...targetNameOptions.version, requires: namesTarget('version') },
  vectors: {
    type: 'string',
    valueName: '<dirs>',
    list: 'folders',
    description:
      "The vectors folder (default: the kit's own); several run together, comma-separated, " +
      "kit naming the kit's own: --vectors kit,./my-vectors",
  },
  only: {
    type: 'string',
    valueName: '<patterns>',
    list: 'patterns',
    description: 'Run only cases matching these patterns (kind, flag or id glob; comma-separated)',
  },
  skip: {
    type: 'string',
    valueName: '<patterns>',
    list: 'patterns',
    description: 'Skip cases matching these patterns (comma-separated)',
  },
  list: { type: 'boolean', description: 'Print the cases that would run, and exit' },
  timeout: {
    type: 'string',
    valueName: '<seconds>',
    description: 'Per-case timeout for a testee',
    default: 5,
    parse: parseOption.seconds,
  },
  'give-up-after': {
    type: 'string',
    valueName: '<k>',
    description:
      'Stop restarting a testee that failed this many requests in a row (crash, hang, bad line): the run exits 3',
    default: { shown: String(DEFAULT_GIVE_UP_AFTER) },
    parse: parseOption.positiveInteger,
  },
  // 0 is a choice: a testee that breaks once is not restarted at all
  'max-restarts': {
    type: 'string',
    valueName: '<n>',
    description:
      'Stop restarting a testee restarted this many times in all: the cases left are not run, the run exits 3',
    default: { shown: String(DEFAULT_MAX_RESTARTS) },
    parse: parseOption.count,
  },
  concurrency: {
    type: 'string',
    valueName: '<n>',
    description: 'Cases in flight at once',
    default: { shown: '32; with --merchant 1: the calls in case order' },
    parse: parseOption.positiveWhole,
  },
  bail: {
    type: 'boolean',
    description: 'Stop at the first case that fails or errors (as --max-failures 1)',
    conflicts: { options: ['max-failures'], why: '--bail is --max-failures 1' },
  },
  'max-failures': {
    type: 'string',
    valueName: '<n>',
    description: 'Stop once this many cases failed or errored; the cases after are not run (the reports say so)',
    parse: parseOption.positiveInteger,
  },
  'expect-failures': {
    type: 'string',
    valueName: '<file>',
    description: 'YAML list of {id, reason}: listed failures do not fail the run; listed passes do',
  },
  'update-expect-failures': {
    type: 'boolean',
    description: 'Rewrite the --expect-failures file to list exactly the cases that fail now',
    requires: { options: ['expect-failures'], message: '--update-expect-failures needs --expect-failures <file>' },
  },
  'validate-protocol': {
    type: 'boolean',
    description: 'Check every line the testee writes against the protocol v1 schema',
    requires: { options: ['testee'], message: '--validate-protocol checks a testee: it needs --testee' },
  },
  'report-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Write the reports here',
    default: { shown: 'reports/<run name>' },
  },
  'run-name': {
    type: 'string',
    valueName: '<name>',
    description: 'Name of the run',
    default: { shown: '<implementation>-<date>-<time>' },
  },
  'no-reports': { type: 'boolean', description: 'Write no reports' },
  shard: {
    type: 'string',
    valueName: '<i>/<n>',
    description:
      'Run only shard i of n (by case id: a case keeps its shard as others are added); ' +
      "pgv2kit merge joins the shards' report folders",
    parse: shardOf,
  },
  junit: {
    type: 'string',
    valueName: '<file>',
    description: 'Also write the JUnit XML here (checked before the run; with --no-reports, the only file written)',
  },
  json: {
    type: 'boolean',
    description:
      'Print one JSON summary on stdout (totals, verdict, exit code, failures, where the reports went); ' +
      'every other line goes to stderr',
    conflicts: { options: ['list'], message: '--json summarizes a run: leave out --list' },
  },
  properties: {
    type: 'string',
    valueName: '<runs>',
    description: 'Inputs per property; the properties run after the vectors',
    env: 'PGV2KIT_PROPERTIES',
    default: DEFAULT_PROPERTY_RUNS,
    conflicts: NEEDS_PROPERTIES,
  },
  'no-properties': { type: 'boolean', description: 'Run the vectors only' },
  seed: {
    type: 'string',
    valueName: '<n>',
    description: "The properties' seed, or with --merchant the calls'",
    env: 'PGV2KIT_SEED',
    default: { shown: 'random, printed and reported' },
  },
  replay: {
    type: 'string',
    valueName: '<id>=<seed>:<path>',
    description: 'Replay one property counterexample, as a failure prints it',
    conflicts: NEEDS_PROPERTIES,
  },
  save: {
    type: 'string',
    valueName: '<file>',
    description:
      "Write the properties' counterexamples as vector cases to this file " +
      '(in the signature/, authorization/, request/, response/ or webhook/ folder of a vectors folder, ' +
      "made when missing; appended when it exists, unless it is a file of the kit's own vectors)",
  },
  ...deadlineOption,
  ...vectorLimitOptions,
} as const satisfies OptionSpecs;

export const runCommand = defineCommand({
  name: 'run',
  summary: 'Run every vector against an implementation (a testee, a module, or the reference) and write reports',
  usage:
    'pgv2kit run [--testee "<command>" | --module <path> [--gateway <base_url>] | --gateway [<base_url>] | ' +
    '--merchant [--notify-url <url> --return-url <url>]] [options]',
  description: [
    'With --testee, the command is started as a child process and spoken to over testee',
    'protocol v1 (docs/PROTOCOL.md); with --module, a JS/TS module is loaded in',
    'process; with neither, the built-in reference runs. Every vector whose operations the',
    'implementation offers is run; cases of other operations are skipped with the reason.',
    'A case passes only when every step it defines ran and passed: a case with a step of an',
    'operation not offered is partial (never counted as passed). The summary shows, per',
    'operation, whether it is offered and how many steps ran, passed and failed. A run in',
    'which no step ran exits 1 ("no test ran"). An operation name in the handshake that',
    'protocol v1 does not know is reported on every run, with the closest known name.',
    'A testee that crashes, hangs, writes a line that is not JSON or answers with the wrong',
    "id fails that case with an error and is restarted; its stderr goes to the run's log (the first",
    '1 MiB, then a count and its last lines). It starts with your environment minus PGV2_APP_SECRET.',
    'Example adapters: examples/node-adapter/adapter.mjs, examples/python-adapter/pgv2kit_adapter.py',
    "(in the kit's folder: node_modules/pgv2kit when installed). What each status and known",
    'mistake means: docs/README.md.',
    '',
    'Selection: --only and --skip take comma-separated patterns: a kind (signature), a flag',
    '(FinalLfMissing) or an id glob (signature.url-*); prefixes kind:, flag:, id: force the',
    'reading. Reports go to reports/<run name>/ (or --report-dir): junit.xml, results.json,',
    'report.md, report.html, run.log — secrets masked. A folder named before the run (--report-dir,',
    '--run-name) that another pgv2kit is writing is refused (exit 2, its pid named).',
    '',
    'Properties: after the vectors, fast-check properties run against the same target',
    '(property.<family>.<name>: LF handling, the sign, lower-case hex, header item order,',
    'format/parse round trip, exact verification of requests, responses and webhooks,',
    'verifying what it signed) over inputs no',
    'vector holds — bodies to 64 KiB around buffer boundaries, bytes that are not UTF-8 —',
    'judged by the reference and the readings. --properties <runs> (default 100), --seed,',
    '--no-properties; a failure prints its shrunk counterexample and --replay <id>=<seed>:<path>;',
    '--save <file> writes counterexamples as vector cases:',
    ...WRITING_VECTORS_HELP,
    '',
    'Gateway role: --gateway <base_url> checks a gateway server, the kit playing the merchant',
    '(the gateway vectors: signed requests correct and changed after signing, uploads with one',
    'rule of 4.2 broken), with the merchant credentials of --app-id and --secret (or',
    'PGV2_APP_ID and PGV2_APP_SECRET). --gateway with no URL checks the reference gateway,',
    'started in process.',
    '',
    'An SDK against another gateway: --testee (or --module) with --gateway <base_url> runs the',
    "SDK's run as usual, but the client cases that need nothing staged (valid, genuine responses, a",
    'fresh uploadUrl) run against that gateway, the SDK given its base URL and the merchant',
    'credentials of --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET; required). The kit',
    'sees none of that exchange: such a case passes when the SDK reports success and its result has',
    'the shape of 2.4, and fails with the reason the SDK gives. The client cases the kit must stage',
    "(tampered or unsigned responses, an expired uploadUrl) run against the kit's own gateway; each",
    "case's message says where it ran. The gateway role's cases are not run (run --gateway <base_url>",
    'without an SDK runs them).',
    '',
    "Merchant role: --merchant checks a merchant's notify and return endpoints, the kit playing",
    'the gateway (the merchant vectors: signed webhooks and return redirects, genuine and forged;',
    'spec 5.5, 5.6, 6). --notify-url and --return-url are the URLs as the merchant registered them',
    '(they are signed); --deliver-to and --return-deliver-to are where the calls go when that',
    'differs. The notify endpoint accepts with any 2xx (with --accept-body, only a 2xx with that',
    'body) and refuses with any other answer; the return endpoint, a page, accepts with a 2xx or',
    '3xx and refuses with a 4xx or the refusal page --return-refusal-body or',
    '--return-refusal-location names. A 5xx counts as a refusal, reported as an advisory (to a',
    'genuine call it fails: R16). --seed seeds the calls; they are sent one at a time in case',
    "order (--concurrency 1, the merchant role's default) unless --concurrency says otherwise.",
    'With no URL, the sample merchant (examples/sample-merchant) is started on 127.0.0.1 with',
    'demo credentials. pgv2kit certify runs the same cases and adds a verdict per requirement.',
  ].join('\n'),
  arguments: [
    {
      name: '[base_url]',
      description: 'with --gateway: the base URL of the gateway under test (with an SDK: of the one it runs against)',
    },
  ],
  options: runOptions,
  exitCodes: {
    0: 'some step ran and none failed (partial and skipped cases do not fail the run; failures as listed)',
    1: 'nonconformance: a case failed or errored, or a listed case passed; or no test ran',
    2: 'usage or configuration error: options, vectors folder, module, expected-failure file, a report folder in use',
    3:
      'the testee could not be started or never became ready, or was given up on ' +
      '(it could not be restarted, failed --give-up-after requests in a row or was restarted --max-restarts times); ' +
      'the gateway or merchant at the URLs given could not be reached (checked before any case); ' +
      '--deadline passed; the sample merchant could not be started. ' +
      'Reports are written in each case but the last, saying what ran and why the rest did not',
    130:
      'interrupted by Ctrl-C (SIGINT): the testee stopped, reports written of what ran, marked interrupted ' +
      '(a second Ctrl-C stops at once)',
    143: 'terminated (SIGTERM): as 130',
  },
  examples: [
    'pgv2kit run',
    'pgv2kit run --testee "python3 examples/python-adapter/pgv2kit_adapter.py"',
    'pgv2kit run --testee "node my-adapter.mjs" --only signature,authorization --expect-failures sdk-failures.yaml',
    'pgv2kit run --module ./my-subject.mjs --skip flag:UppercaseHex --list',
    'pgv2kit run --testee "node my-adapter.mjs" --properties 1000 --seed 42',
    'pgv2kit run --testee "node my-adapter.mjs" --gateway https://sandbox.pg.example --only client',
    'pgv2kit run --testee "node my-adapter.mjs" --replay property.lf.sign=42:3:0:1',
    'pgv2kit run --merchant --notify-url https://shop.example/pay/notify ' +
      '--deliver-to http://127.0.0.1:8080/pay/notify --return-url https://shop.example/pay/done ' +
      '--return-deliver-to http://127.0.0.1:8080/pay/done --seed 42',
  ],
  run: async (context) => (await import('./run.run.js')).runRun(context),
});
