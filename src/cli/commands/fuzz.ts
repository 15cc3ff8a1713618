/**
 * `pgv2kit fuzz`: fuzzes an implementation's Authorization header parser
 * (`authorization.parse`, spec §5.3, reading R8) with mutated headers judged by the
 * reference, and shrinks what it finds to a minimal header, replayable and savable as
 * a vector.
 * @module
 */
import { randomInt } from 'node:crypto';
import { seeDocs } from '../../docs/refs.js';
import { fuzzHttp } from '../../fuzz/http.js';
import { FUZZ_WINDOW, fuzzParser, parseReplay, showEscaped, type FuzzResult } from '../../fuzz/run.js';
import { saveFinding } from '../../fuzz/save.js';
import type { HeaderAnswers } from '../../scheme/header-answers.js';
import { TesteeStartError } from '../../protocol/testee.js';
import { createReferenceSubject } from '../../subjects/reference.js';
import type { Subject } from '../../subjects/subject.js';
import { createTesteeSubject, type TesteeSubject } from '../../subjects/testee-subject.js';
import { resolvePath } from '../_files.js';
import { printStartFailure, startFailure } from '../_start-failure.js';
import { integerOption, secondsOption } from '../_numbers.js';
import { UsageError, defineCommand } from '../command.js';
import { EXIT } from '../exit-codes.js';

export const fuzzCommand = defineCommand({
  name: 'fuzz',
  summary: "Fuzz an implementation's Authorization header parser against reading R8 and shrink what breaks it",
  usage: 'pgv2kit fuzz [--testee "<command>" | --gateway <url> | --merchant-notify <url>] [--seed <n>] [--runs <n>] [--time <s>] [--replay <seed:path>] [--save <file>]',
  description: [
    'Sends authorization.parse headers to the implementation: valid headers in every item',
    'order with realistic values, and mutated ones (items dropped, duplicated or emptied,',
    'commas and "=" injected, white space, control characters, non-ASCII, very long',
    'values, other schemes, case changes). Reading R8 decides (docs/readings.md): every answer',
    'its strict parser and its defensible variants give (white space kept, removed or refused',
    'at each place, by every common trim; unknown items ignored or refused; the scheme with or',
    'without case) passes; any other answer is a finding.',
    'A failure is shrunk to a minimal header and printed with its replay seed and path.',
    'Without --testee the built-in reference is fuzzed in process.',
    '',
    '--save writes the finding as an authorization.parse vector, id authorization.fuzz-<n>',
    '(a new file, or appended to an existing one; existing cases are kept).',
  ].join('\n'),
  options: {
    testee: { type: 'string', valueName: '<command>', description: 'Start this command and fuzz it over protocol v1' },
    gateway: { type: 'string', valueName: '<url>', description: 'Fuzz a gateway: signed credentials requests to <url> with fuzzed Authorization headers' },
    'merchant-notify': { type: 'string', valueName: '<url>', description: "Fuzz a merchant's notify endpoint: signed webhooks to <url> with fuzzed Authorization headers" },
    'app-id': { type: 'string', valueName: '<id>', description: 'With --gateway or --merchant-notify: the merchant appId', env: 'PGV2_APP_ID' },
    secret: { type: 'string', valueName: '<secret>', description: 'With --gateway or --merchant-notify: the merchant secret', env: 'PGV2_APP_SECRET', secret: true },
    seed: { type: 'string', valueName: '<n>', description: 'The random seed (default: random, printed)' },
    runs: { type: 'string', valueName: '<n>', description: 'Headers to try (default 1000; with --time alone: until the time is up)' },
    time: { type: 'string', valueName: '<seconds>', description: 'Stop after this many seconds' },
    replay: { type: 'string', valueName: '<seed:path>', description: 'Replay one finding from its seed and path' },
    save: { type: 'string', valueName: '<file>', description: 'Write the finding as a vector to this file (created or appended to)' },
    timeout: { type: 'string', valueName: '<seconds>', description: 'Per-header timeout for a testee, and for its answer to start (default 5)' },
  },
  exitCodes: {
    0: 'no finding: every header was handled as R8 requires',
    1: 'a finding: a header the implementation handles against R8 (printed, and saved with --save)',
    2: 'usage error',
    3: 'the testee could not be started',
  },
  examples: [
    'pgv2kit fuzz --testee "python3 examples/python-adapter/pgv2kit_adapter.py"',
    'pgv2kit fuzz --testee "node my-adapter.mjs" --runs 10000 --time 60 --save vectors/authorization/fuzz.yaml',
    'pgv2kit fuzz --testee "node my-adapter.mjs" --replay 1234:5:0:0',
  ],
  async run({ values, io }) {
    const replay = values.replay !== undefined ? parseReplay(values.replay) : undefined;
    if (values.replay !== undefined && !replay) throw new UsageError('--replay takes <seed>:<path>, as a finding prints it (e.g. 42:3:0:1)');
    if (replay && values.seed !== undefined) throw new UsageError('give --seed or --replay, not both (the replay carries its seed)');
    const seed = replay?.seed ?? (values.seed !== undefined ? integerOption(values.seed, 'seed', false) : randomInt(2 ** 31 - 1));
    const timeMs = values.time !== undefined ? secondsOption(values.time, 'time', 1) : undefined;
    const runs = values.runs !== undefined ? integerOption(values.runs, 'runs', true) : timeMs !== undefined ? 1_000_000_000 : 1000;
    const timeoutMs = secondsOption(values.timeout, 'timeout', 5);
    if (values.testee !== undefined && values.testee.trim() === '') throw new UsageError('--testee needs a command');
    const http = values.gateway !== undefined ? { kind: 'gateway' as const, url: values.gateway } : values['merchant-notify'] !== undefined ? { kind: 'merchant' as const, url: values['merchant-notify'] } : undefined;
    if ([values.testee, values.gateway, values['merchant-notify']].filter((v) => v !== undefined).length > 1) throw new UsageError('give one of --testee, --gateway and --merchant-notify');
    if (http) {
      if (!/^https?:\/\/[^/]/.test(http.url)) throw new UsageError(`the URL must be http(s)://…, not ${JSON.stringify(http.url)}`);
      const appId = values['app-id'] ?? io.env['PGV2_APP_ID'];
      const appSecret = values.secret ?? io.env['PGV2_APP_SECRET'];
      if (!appId || !appSecret) throw new UsageError('fuzzing over HTTP needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)');
      if (values.save !== undefined) throw new UsageError('--save writes authorization.parse vectors: use it with --testee or the reference');
      io.stdout(`fuzzing the Authorization parsing of ${http.url} (${http.kind}): seed ${seed}, ${runs >= 1_000_000_000 ? 'no run limit' : `${runs} requests`}\n`);
      const result = await fuzzHttp({ ...http, appId, appSecret, seed, runs, timeoutMs, ...(timeMs !== undefined ? { timeMs } : {}), ...(replay ? { path: replay.path } : {}) });
      return report(result, { target: ` --${http.kind === 'gateway' ? 'gateway' : 'merchant-notify'} ${http.url}` }, io);
    }

    let subject: Subject;
    let testee: TesteeSubject | undefined;
    try {
      if (values.testee !== undefined) {
        testee = await createTesteeSubject({ command: values.testee, cwd: io.cwd, env: io.env, timeoutMs, startTimeoutMs: timeoutMs, window: FUZZ_WINDOW, log: () => undefined });
        subject = testee;
      } else {
        subject = createReferenceSubject();
      }
    } catch (e) {
      if (e instanceof TesteeStartError) {
        printStartFailure(io, 'fuzz', startFailure(e, values.testee ?? ''));
        return EXIT.failure;
      }
      throw e;
    }
    try {
      if (!subject.operations.includes('authorization.parse')) {
        io.stderr(`pgv2kit fuzz: ${subject.implementation.name} does not offer authorization.parse: nothing to fuzz\n`);
        return EXIT.usage;
      }
      const name = `${subject.implementation.name} ${subject.implementation.version}`;
      io.stdout(replay ? `replaying ${replay.seed}:${replay.path} against ${name}\n` : `fuzzing authorization.parse of ${name}: seed ${seed}, ${runs >= 1_000_000_000 ? 'no run limit' : `${runs} runs`}${timeMs !== undefined ? `, ${timeMs / 1000} s` : ''}\n`);
      const every = Math.max(100, Math.min(Math.floor(runs / 10), 10_000));
      let next = every;
      const result = await fuzzParser(subject, {
        seed,
        runs,
        ...(timeMs !== undefined ? { timeMs } : {}),
        ...(replay ? { path: replay.path } : {}),
        onRun: (n) => {
          if (n < next) return;
          io.stdout(`  ${n} headers handled as R8 requires\n`);
          next = (Math.floor(n / every) + 1) * every;
        },
      });
      return report(result, { ...(values.testee !== undefined ? { target: ` --testee ${JSON.stringify(values.testee)}` } : {}), ...(values.save !== undefined ? { save: values.save } : {}) }, io);
    } finally {
      await testee?.close();
    }
  },
});

// --- internal ---

function report(result: FuzzResult, values: { target?: string; save?: string }, io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string }): number {
  const f = result.finding;
  if (!f) {
    io.stdout(`no finding: ${result.runs} headers tried${result.interrupted ? ' (stopped by --time)' : ''}, seed ${result.seed}\n`);
    return EXIT.ok;
  }
  const target = values.target ?? '';
  io.stdout(
    [
      `FINDING after ${result.runs} headers (${f.shrinks} shrinks):`,
      `  header:  ${showEscaped(f.header)}`,
      `  reason:  ${f.reason}`,
      `  R8:      ${f.oracle.verdict} (${describeAnswers(f.oracle.answers)}; ${seeDocs('R8', io.cwd)})`,
      `  replay:  pgv2kit fuzz${target} --replay ${f.replay}`,
      '',
    ].join('\n'),
  );
  if (values.save !== undefined) {
    try {
      const saved = saveFinding(f, resolvePath(io.cwd, values.save));
      io.stdout(`saved as ${saved.id} in ${saved.file}${saved.created ? ' (new file)' : ''}\n`);
    } catch (e) {
      io.stderr(`pgv2kit fuzz: the finding could not be saved: ${(e as Error).message}\n`);
    }
  }
  return EXIT.nonconformance;
}



function describeAnswers(a: HeaderAnswers): string {
  const accepted = a.accepted.length === 0 ? 'no reading accepts it' : `${a.accepted.length} accepted answer${a.accepted.length === 1 ? '' : 's'} allowed`;
  return `${accepted}${a.refusable ? ', refusing allowed' : ', refusing not allowed'}`;
}
