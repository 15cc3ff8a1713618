/**
 * `pgv2kit run`: the main job. Runs every vector against an implementation — a testee
 * over protocol v1 (`--testee`), a module in process (`--module`), or the built-in
 * reference — and writes JUnit XML, results.json, report.md and report.html.
 * @module
 */
import { DEFAULT_PROPERTY_RUNS } from '../../properties/defaults.js';
import { defineCommand, type OptionSpecs } from '../command.js';
import { merchantOptions } from '../merchant-options.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { vectorLimitOptions } from '../vector-limit-options.js';
import { deadlineOption } from '../_numbers.js';
import { DEFAULT_GIVE_UP_AFTER } from '../../protocol/start-failure.js';

/** The options of `pgv2kit run`. */
export const runOptions = {
  testee: { type: 'string', valueName: '<command>', description: 'Start this command and run it over protocol v1' },
  module: { type: 'string', valueName: '<path>', description: 'Load this module in process (exports subject, createSubject() or operations)' },
  gateway: { type: 'boolean', description: 'Gateway role: check the gateway at [base_url] (default: the reference gateway, in process)' },
  merchant: { type: 'boolean', description: 'Merchant role: check the merchant at --notify-url and --return-url (default: the sample merchant, started on 127.0.0.1)' },
  ...merchantOptions,
  'app-id': { type: 'string', valueName: '<id>', description: 'Gateway and merchant roles: the merchant appId', env: APP_ID_ENV },
  secret: { type: 'string', valueName: '<secret>', description: 'Gateway and merchant roles: the merchant secret', env: APP_SECRET_ENV, secret: true },
  vectors: { type: 'string', valueName: '<dir>', description: "The vectors folder (default: the kit's own)" },
  only: { type: 'string', valueName: '<patterns>', description: 'Run only cases matching these patterns (area, flag or id glob; comma-separated)' },
  skip: { type: 'string', valueName: '<patterns>', description: 'Skip cases matching these patterns' },
  list: { type: 'boolean', description: 'Print the cases that would run, and exit' },
  timeout: { type: 'string', valueName: '<seconds>', description: 'Per-case timeout for a testee (default 5)' },
  'give-up-after': { type: 'string', valueName: '<k>', description: `Stop restarting a testee that failed this many requests in a row (crash, hang, bad line): the run exits 3 (default ${DEFAULT_GIVE_UP_AFTER})` },
  concurrency: { type: 'string', valueName: '<n>', description: 'Cases in flight at once (default 32)' },
  bail: { type: 'boolean', description: 'Stop at the first case that fails or errors (as --max-failures 1)' },
  'max-failures': { type: 'string', valueName: '<n>', description: 'Stop once this many cases failed or errored; the cases after are not run (the reports say so)' },
  'expect-failures': { type: 'string', valueName: '<file>', description: 'YAML list of {id, reason}: listed failures do not fail the run; listed passes do' },
  'update-expect-failures': { type: 'boolean', description: 'Rewrite the --expect-failures file to list exactly the cases that fail now' },
  'validate-protocol': { type: 'boolean', description: 'Check every line the testee writes against the protocol v1 schema' },
  'report-dir': { type: 'string', valueName: '<dir>', description: 'Write the reports here (default: reports/<run name>)' },
  'run-name': { type: 'string', valueName: '<name>', description: 'Name of the run (default: <implementation>-<date>-<time>)' },
  'no-reports': { type: 'boolean', description: 'Write no reports' },
  properties: { type: 'string', valueName: '<runs>', description: `Inputs per property (default ${DEFAULT_PROPERTY_RUNS}); the properties run after the vectors`, env: 'PGV2KIT_PROPERTIES' },
  'no-properties': { type: 'boolean', description: 'Run the vectors only' },
  seed: { type: 'string', valueName: '<n>', description: 'The properties\' seed, or with --merchant the calls\' (default: random, printed and reported)', env: 'PGV2KIT_SEED' },
  replay: { type: 'string', valueName: '<id>=<seed>:<path>', description: 'Replay one property counterexample, as a failure prints it' },
  save: { type: 'string', valueName: '<file>', description: 'Write the properties\' counterexamples as vector cases to this file (in the signature/, authorization/, request/, response/ or webhook/ folder of a vectors folder; appended when it exists)' },
  ...deadlineOption,
  ...vectorLimitOptions,
} as const satisfies OptionSpecs;

export const runCommand = defineCommand({
  name: 'run',
  summary: 'Run every vector against an implementation (a testee, a module, or the reference) and write reports',
  usage: 'pgv2kit run [--testee "<command>" | --module <path> | --gateway [<base_url>] | --merchant [--notify-url <url> --return-url <url>]] [options]',
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
    'Selection: --only and --skip take comma-separated patterns: an area (signature), a flag',
    '(FinalLfMissing) or an id glob (signature.url-*); prefixes area:, flag:, id: force the',
    'reading. Reports go to reports/<run name>/ (or --report-dir): junit.xml, results.json,',
    'report.md, report.html, run.log — secrets masked.',
    '',
    'Properties: after the vectors, fast-check properties run against the same target',
    '(property.<family>.<name>: LF handling, the sign, lower-case hex, header item order,',
    'format/parse round trip, exact verification of requests, responses and webhooks,',
    'verifying what it signed) over inputs no',
    'vector holds — bodies to 64 KiB around buffer boundaries, bytes that are not UTF-8 —',
    'judged by the reference and the readings. --properties <runs> (default 100), --seed,',
    '--no-properties; a failure prints its shrunk counterexample and --replay <id>=<seed>:<path>;',
    '--save <file> writes counterexamples as vector cases.',
    '',
    'Gateway role: --gateway <base_url> checks a gateway server, the kit playing the merchant',
    '(the gateway vectors: signed requests correct and changed after signing, uploads with one',
    'rule of 4.2 broken), with the merchant credentials of --app-id and --secret (or',
    'PGV2_APP_ID and PGV2_APP_SECRET). --gateway with no URL checks the reference gateway,',
    'started in process.',
    '',
    'Merchant role: --merchant checks a merchant\'s notify and return endpoints, the kit playing',
    'the gateway (the merchant vectors: signed webhooks and return redirects, genuine and forged;',
    'spec 5.5, 5.6, 6). --notify-url and --return-url are the URLs as the merchant registered them',
    '(they are signed); --deliver-to and --return-deliver-to are where the calls go when that',
    'differs. Accepted means any 2xx, or with --accept-body a 2xx with that body; a forged call must',
    'be refused with a non-2xx answer below 500. --seed seeds the calls; they are sent one at a',
    'time in case order unless --concurrency says otherwise. With no URL, the sample merchant',
    '(examples/sample-merchant) is started on 127.0.0.1 with demo credentials. pgv2kit certify',
    'runs the same cases and adds a verdict per requirement.',
  ].join('\n'),
  arguments: [{ name: '[base_url]', description: 'with --gateway: the base URL of the gateway under test' }],
  options: runOptions,
  exitCodes: {
    0: 'some step ran and none failed (partial and skipped cases do not fail the run; failures as listed)',
    1: 'nonconformance: a case failed or errored, or a listed case passed; or no test ran',
    2: 'usage or configuration error: options, vectors folder, module, expected-failure file',
    3: 'the testee could not be started, never became ready, could not be restarted, or failed --give-up-after requests in a row; the sample merchant could not be started; the gateway or merchant at the URLs given could not be reached (one line, before any case); --deadline passed (reports written of what ran)',
    130: 'interrupted by Ctrl-C (SIGINT): the testee stopped, reports written of what ran, marked interrupted (a second Ctrl-C stops at once)',
    143: 'terminated (SIGTERM): as 130',
  },
  examples: [
    'pgv2kit run',
    'pgv2kit run --testee "python3 examples/python-adapter/pgv2kit_adapter.py"',
    'pgv2kit run --testee "node my-adapter.mjs" --only signature,authorization --expect-failures sdk-failures.yaml',
    'pgv2kit run --module ./my-subject.mjs --skip flag:UppercaseHex --list',
    'pgv2kit run --testee "node my-adapter.mjs" --properties 1000 --seed 42',
    'pgv2kit run --testee "node my-adapter.mjs" --replay property.lf.sign=42:3:0:1',
    'pgv2kit run --merchant --notify-url https://shop.example/pay/notify --deliver-to http://127.0.0.1:8080/pay/notify --return-url https://shop.example/pay/done --return-deliver-to http://127.0.0.1:8080/pay/done --seed 42',
  ],
  run: async (context) => (await import('./run.run.js')).runRun(context),
});
