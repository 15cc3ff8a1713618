/**
 * What `pgv2kit fuzz` does, loaded only when the command runs (fuzz.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { randomInt } from 'node:crypto';
import { seeDocs } from '../../docs/cite.js';
import { fuzzHttp, signedUrlOf, type WireCounts } from '../../fuzz/http.js';
import { shellQuote } from '../../shell-quote.js';
import { FUZZ_WINDOW, fuzzParser, parseReplay, showEscaped, type FuzzResult } from '../../fuzz/run.js';
import { saveFinding } from '../../fuzz/save.js';
import type { HeaderAnswers } from '../../scheme/header-answers.js';
import { TesteeStartError } from '../../protocol/testee.js';
import { createReferenceSubject } from '../../subjects/reference.js';
import { describeImplementation, type Subject } from '../../subjects/subject.js';
import { createTesteeSubject, type TesteeSubject } from '../../subjects/testee-subject.js';
import { resolvePath } from '../_files.js';
import { printStartFailure, startFailure } from '../_start-failure.js';
import { requireReachable, TargetUnreachableError } from '../_reach.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { jsonOutput } from '../_json-output.js';
import { loadableTarget, madeLine, problemsText, vectorFileTarget } from '../_vector-target.js';
import type { fuzzOptions } from './fuzz.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { vectorLimitsOf } from '../vector-limit-options.js';
import type { VectorLimits } from '../../vectors/limits.js';

/**
 * Runs `pgv2kit fuzz`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runFuzz({ values, io: given }: CommandContext<typeof fuzzOptions>): Promise<number> {
  // --json: one summary line on stdout, every other line on stderr
  const { io, emit } = jsonOutput(values.json === true, given);
  const replay = values.replay !== undefined ? parseReplay(values.replay) : undefined;
  if (values.replay !== undefined && !replay)
    throw new UsageError('--replay takes <seed>:<path>, as a finding prints it (e.g. 42:3:0:1)');
  // the option rules (one target, --notify-url and --accept-body with --merchant-notify, …), URLs and numbers are
  // fuzz.ts's table, applied by the parser
  const seed = replay?.seed ?? values.seed ?? randomInt(2 ** 31 - 1);
  const timeMs = values.time;
  const runs = values.runs ?? (timeMs !== undefined ? 1_000_000_000 : 1000);
  // a plain default: the parser applies it
  const timeoutMs = values.timeout!;
  const limits = vectorLimitsOf(values, io.env);
  const http =
    values.gateway !== undefined
      ? { kind: 'gateway' as const, url: values.gateway }
      : values['merchant-notify'] !== undefined
        ? { kind: 'merchant' as const, url: values['merchant-notify'] }
        : undefined;
  const notifyUrl = values['notify-url'];
  const acceptBody = values['accept-body'];
  if (http) {
    const appId = values['app-id'] ?? io.env[APP_ID_ENV];
    const appSecret = values.secret ?? io.env[APP_SECRET_ENV];
    if (!appId || !appSecret)
      throw new UsageError(
        'fuzzing over HTTP needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)',
      );
    try {
      // a target that is down is one line, not a "finding" (no answer is no parse)
      await requireReachable(
        [{ what: http.kind === 'gateway' ? 'the gateway' : "the merchant's notify endpoint", url: http.url }],
        timeoutMs,
      );
    } catch (e) {
      if (!(e instanceof TargetUnreachableError)) throw e;
      io.stderr(`pgv2kit fuzz: ${e.message}\n`);
      emit({ seed, exitCode: EXIT.failure, error: e.message, runs: 0, finding: null });
      return EXIT.failure;
    }
    io.stdout(
      `fuzzing the Authorization parsing of ${http.url} (${http.kind}): ` +
        `seed ${seed}, ${runs >= 1_000_000_000 ? 'no run limit' : `${runs} headers generated at most`}\n`,
    );
    const target = {
      ...http,
      ...(notifyUrl !== undefined ? { notifyUrl } : {}),
      ...(acceptBody !== undefined ? { acceptBody } : {}),
    };
    const signedUrl = signedUrlOf(target);
    // R10: say which URL part 4 signs, and how to sign another
    if (http.kind === 'merchant')
      io.stdout(
        notifyUrl === undefined
          ? `webhooks signed over ${signedUrl} (part 4), the URL they are sent to: ` +
              'a merchant registered at another notifyUrl verifies against that one (R10); give it with --notify-url\n'
          : `webhooks signed over ${signedUrl} (part 4: the notifyUrl as registered, --notify-url, R10), ` +
              `sent to ${http.url}\n`,
      );
    const result = await fuzzHttp({
      ...target,
      appId,
      appSecret,
      seed,
      runs,
      timeoutMs,
      ...(timeMs !== undefined ? { timeMs } : {}),
      ...(replay ? { path: replay.path } : {}),
    });
    const advised = result.advisories;
    // R16: 5xx answers counted as refusals are said, never a finding
    if (advised.serverErrors > 0)
      io.stdout(
        `advisory: ${advised.serverErrors} request(s) ${advised.message ?? ''}, ` +
          `e.g. header ${showEscaped(advised.example ?? '')}\n`,
      );
    // a header HTTP lets a server refuse (a control character), refused by closing the connection: said, not a finding
    if (advised.closedExample !== undefined)
      io.stdout(
        `note: ${advised.closedWithoutAnswer} raw-socket request(s) answered by closing the connection ` +
          `(counted as refusals), e.g. header ${showEscaped(advised.closedExample.header)}: ` +
          `${advised.closedExample.message}\n`,
      );
    // a genuine header refused by a merchant whose webhooks were signed over the URL they went to: perhaps it
    // registered another (R10)
    const hint =
      http.kind === 'merchant' && notifyUrl === undefined
        ? 'signed over the URL it was sent to: ' +
          'if the merchant registered another notifyUrl, give it with --notify-url (R10)'
        : undefined;
    const wire = {
      signedUrl,
      sentTo: http.kind === 'gateway' ? signedUrl : http.url,
      ...(hint !== undefined ? { hint } : {}),
    };
    return report(
      result,
      {
        target:
          ` --${http.kind === 'gateway' ? 'gateway' : 'merchant-notify'} ${shellQuote(http.url)}` +
          `${notifyUrl !== undefined ? ` --notify-url ${shellQuote(notifyUrl)}` : ''}` +
          `${acceptBody !== undefined ? ` --accept-body ${shellQuote(acceptBody)}` : ''}`,
        wire,
        counts: result.wire,
      },
      io,
      (s) =>
        emit(
          {
            ...s,
            advisories: { serverErrors: advised.serverErrors, closedWithoutAnswer: advised.closedWithoutAnswer },
          },
          [appSecret],
        ),
    );
  }

  // the --save file, checked before fuzzing: in the authorization/ folder of a vectors folder (made when missing)
  const saveTo =
    values.save !== undefined
      ? loadableTarget(
          vectorFileTarget(resolvePath(io.cwd, values.save), ['authorization'], '--save'),
          '--save',
          limits,
        ).file
      : undefined;
  let subject: Subject;
  let testee: TesteeSubject | undefined;
  try {
    if (values.testee !== undefined) {
      testee = await createTesteeSubject({
        command: values.testee,
        cwd: io.cwd,
        env: io.env,
        timeoutMs,
        startTimeoutMs: timeoutMs,
        window: FUZZ_WINDOW,
        log: () => undefined,
      });
      subject = testee;
    } else {
      subject = createReferenceSubject();
    }
  } catch (e) {
    if (e instanceof TesteeStartError) {
      const failure = startFailure(e, values.testee ?? '');
      printStartFailure(io, 'fuzz', failure);
      emit({
        seed,
        exitCode: EXIT.failure,
        error: `the testee could not start: ${failure.reason}`,
        runs: 0,
        finding: null,
      });
      return EXIT.failure;
    }
    throw e;
  }
  // Ctrl-C / SIGTERM while fuzzing: the testee's whole process group goes with the kit (it runs in
  // a group of its own, which the terminal's signal does not reach), the seed is printed, exit 130 / 143
  const onSignal = (signal: NodeJS.Signals): void => {
    const exitCode = signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
    io.stderr(`pgv2kit fuzz: ${signal}: stopped (seed ${seed}; no finding so far)\n`);
    // --json: its one document says so too (issue 25, item 5)
    emit({ seed, exitCode, interrupted: `interrupted by ${signal}`, finding: null });
    testee?.abort();
    process.exit(exitCode);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    if (!subject.operations.includes('authorization.parse')) {
      io.stderr(`pgv2kit fuzz: ${subject.implementation.name} does not offer authorization.parse: nothing to fuzz\n`);
      return EXIT.usage;
    }
    const name = describeImplementation(subject.implementation);
    io.stdout(
      replay
        ? `replaying ${replay.seed}:${replay.path} against ${name}\n`
        : `fuzzing authorization.parse of ${name}: seed ${seed}, ` +
            `${runs >= 1_000_000_000 ? 'no run limit' : `${runs} runs`}` +
            `${timeMs !== undefined ? `, ${timeMs / 1000} s` : ''}\n`,
    );
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
    return report(
      result,
      {
        ...(values.testee !== undefined ? { target: ` --testee ${shellQuote(values.testee)}` } : {}),
        ...(saveTo !== undefined ? { save: saveTo } : {}),
        limits,
      },
      io,
      emit,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await testee?.close();
  }
}

// --- internal ---

function report(
  result: FuzzResult,
  values: {
    target?: string;
    save?: string;
    limits?: VectorLimits;
    wire?: { signedUrl: string; sentTo: string; hint?: string };
    /** Over HTTP: what became of the headers generated (only those sent were tried). */
    counts?: WireCounts;
  },
  io: { stdout: (s: string) => void; stderr: (s: string) => void; cwd: string },
  emit: (summary: object) => void,
): number {
  const f = result.finding;
  const c = values.counts;
  // over HTTP "tried" counts the headers that reached the server, never one that could not be sent
  const tried = c?.sent ?? result.runs;
  const counted = c ? countsJson(c, f ? 1 : 0) : {};
  if (!f) {
    io.stdout(
      `no finding: ${tried} headers tried${c ? countsWords(c) : ''}` +
        `${result.interrupted ? ' (stopped by --time)' : ''}, seed ${result.seed}\n`,
    );
    emit({
      seed: result.seed,
      exitCode: EXIT.ok,
      runs: tried,
      ...counted,
      stoppedByTime: result.interrupted,
      finding: null,
    });
    return EXIT.ok;
  }
  const target = values.target ?? '';
  const replay = `pgv2kit fuzz${target} --replay ${f.replay}`;
  io.stdout(
    [
      `FINDING after ${tried} headers${c ? countsWords(c) : ''} (${f.shrinks} shrinks):`,
      // over HTTP: the request as it went (the URL part 4 signed, where it was sent, the header sent)
      ...(values.wire ? [`  signed:  POST ${values.wire.signedUrl} (part 4)`, `  sent to: ${values.wire.sentTo}`] : []),
      `  header:  ${showEscaped(f.header)}${values.wire ? ' (sent)' : ''}`,
      `  reason:  ${f.reason}`,
      ...(values.wire?.hint !== undefined && f.reason.includes('must be accepted')
        ? [`  hint:    ${values.wire.hint}`]
        : []),
      `  R8:      ${f.oracle.verdict} (${describeAnswers(f.oracle.answers)}; ${seeDocs('R8', io.cwd)})`,
      `  replay:  ${replay}`,
      '',
    ].join('\n'),
  );
  let saved: { id: string; file: string } | null = null;
  if (values.save !== undefined) {
    try {
      const s = saveFinding(f, values.save, new Date(), values.limits);
      saved = { id: s.id, file: s.file };
      io.stdout(madeLine(s.made));
      io.stdout(`saved as ${s.id} in ${s.file}${s.created ? ' (new file)' : ''}\n`);
    } catch (e) {
      io.stderr(`pgv2kit fuzz: the finding could not be saved (nothing was): ${problemsText(e)}\n`);
    }
  }
  emit({
    seed: result.seed,
    exitCode: EXIT.nonconformance,
    runs: tried,
    ...counted,
    stoppedByTime: result.interrupted,
    finding: {
      header: f.header,
      ...(values.wire ? { signedUrl: values.wire.signedUrl, sentTo: values.wire.sentTo } : {}),
      reason: f.reason,
      verdict: f.oracle.verdict,
      shrinks: f.shrinks,
      replay: f.replay,
      replayCommand: replay,
      saved,
    },
  });
  return EXIT.nonconformance;
}

/** The counts after "N headers tried": by which path they went, and those generated but not sendable. */
function countsWords(c: WireCounts): string {
  const by = Object.entries(c.notSendableBy)
    .map(([why, n]) => `${n} ${why}`)
    .join(', ');
  return (
    ` (sent: ${c.client} by the HTTP client, ${c.raw} over a raw socket)` +
    `${c.notSendable > 0 ? `; ${c.notSendable} generated but not sendable, never counted as tried: ${by}` : ''}`
  );
}

function countsJson(c: WireCounts, findings: number): object {
  return {
    generated: c.generated,
    sent: { total: c.sent, client: c.client, raw: c.raw },
    notSendable: { total: c.notSendable, by: c.notSendableBy },
    findings,
  };
}

function describeAnswers(a: HeaderAnswers): string {
  const accepted =
    a.accepted.length === 0
      ? 'no reading accepts it'
      : `${a.accepted.length} accepted answer${a.accepted.length === 1 ? '' : 's'} allowed`;
  return `${accepted}${a.refusable ? ', refusing allowed' : ', refusing not allowed'}`;
}
