/**
 * A testee session over protocol v1: the implementation under test as a child
 * process, spoken to in JSON lines on stdin/stdout.
 *
 * Requests are written ahead (up to `window` in flight) and answers matched to them
 * in order. The per-case timeout runs for the oldest unanswered request only, from
 * the moment it becomes the oldest, so write-ahead never eats into a case's time. A
 * testee that exits, writes a line that is not JSON, answers with the wrong id or
 * does not answer in time fails that request with an error; the session kills it,
 * starts it again (a new `start`) and re-sends what was still in flight.
 * @module
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { isOperation, type Operation } from './operations.js';
import type { Answer, Implementation, Json, OperationInput } from './messages.js';
import { Fifo } from './_fifo.js';
import { clipQuoted } from '../scheme/text.js';
import { hasEnded, killGroup, releaseStdio, settleWithin, spawnReason, splitLines } from './process.js';
import {
  DEFAULT_GIVE_UP_AFTER,
  DEFAULT_MAX_RESTARTS,
  STDERR_TAIL_LINES,
  TesteeStartError,
  type TesteeStartKind,
} from './start-failure.js';
import { APP_SECRET_ENV } from '../env.js';

/** The most characters of the testee's stderr the run's log keeps (then a count and the last lines). */
export const STDERR_LOG_BYTES = 1024 * 1024;

/**
 * The kit's own secrets, never passed to a testee: the merchant secret the gateway and merchant
 * roles sign with. A testee gets its inputs (the vectors' secrets among them) in each request.
 */
export const KIT_SECRET_VARIABLES = [APP_SECRET_ENV] as const;

/**
 * The environment a testee starts with: the user's, minus the kit's own secrets.
 * @param env - the user's environment
 * @returns a copy without {@link KIT_SECRET_VARIABLES}
 * @example testeeEnvironment({ PATH: '/bin', PGV2_APP_SECRET: 's' }) // { PATH: '/bin' }
 */
export function testeeEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of KIT_SECRET_VARIABLES) delete copy[name];
  return copy;
}

/** How many answered ids a session remembers, to know a second answer for one of them. */
const ANSWERED_KEPT = 4096;

/** The most characters of one stderr line kept (a longer one is cut, marked "…"). */
export const STDERR_LINE_CHARS = 4096;

/** How to start and talk to a testee. */
export interface TesteeOptions {
  /** The command line, run by the shell. */
  readonly command: string;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Milliseconds a request may wait for its answer once it is the oldest. */
  readonly timeoutMs: number;
  /** Milliseconds the testee has to answer `start`. Default 10 s. */
  readonly startTimeoutMs?: number;
  /** Requests in flight at most. Default 64. */
  readonly window?: number;
  /** Receives the session's log: stderr lines and events (restarts, protocol problems). */
  readonly log?: (line: string) => void;
  /** Checks every line the testee writes; problems fail the request (see --validate-protocol). */
  readonly validate?: (message: unknown, context: LineContext) => readonly string[];
  /**
   * Requests in a row the testee may fail (a crash, a hang, a line that is not its answer) before
   * the session gives up on it: the requests after fail at once with why, and {@link TesteeSession.failure}
   * says it. Default {@link DEFAULT_GIVE_UP_AFTER}.
   */
  readonly giveUpAfter?: number;
  /**
   * Restarts in all the session may make (a testee that crashes on every other case is restarted
   * each time, never failing in a row): past it, the session gives up as for {@link giveUpAfter}.
   * Default {@link DEFAULT_MAX_RESTARTS}.
   */
  readonly maxRestarts?: number;
}

/** What a line from the testee is expected to be. */
export type LineContext =
  { readonly expecting: 'ready' } | { readonly expecting: 'answer'; readonly id: string; readonly op: Operation };

/** The testee's answer to `start`. */
export interface Hello {
  readonly implementation: Implementation;
  readonly operations: readonly Operation[];
  /** Operation names the testee advertised that protocol v1 does not know (ignored). */
  readonly unknownOperations: readonly string[];
}

export {
  DEFAULT_GIVE_UP_AFTER,
  DEFAULT_MAX_RESTARTS,
  STDERR_TAIL_LINES,
  TesteeStartError,
  describeEnd,
  formatStartFailure,
  type TesteeStartFailure,
  type TesteeStartKind,
} from './start-failure.js';

/** A request waiting for its answer. */
interface Pending {
  readonly id: string;
  readonly op: Operation;
  readonly line: string;
  readonly resolve: (answer: Answer) => void;
  sent: boolean;
}

/**
 * Starts a testee and performs the handshake.
 * @param options - {@link TesteeOptions}
 * @returns the session, ready for calls
 * @throws {TesteeStartError} when the process cannot start, exits, or answers `start` wrongly or not in time
 * @example
 * const t = await startTestee({
 *   command: 'python3 examples/python-adapter/pgv2kit_adapter.py',
 *   timeoutMs: 5000,
 * });
 */
export async function startTestee(options: TesteeOptions): Promise<TesteeSession> {
  const session = new TesteeSession(options);
  session.hello = await session.spawnAndGreet();
  return session;
}

/** A running testee. Use {@link startTestee}. */
export class TesteeSession {
  hello!: Hello;
  /** Times the testee was started again after a failure. */
  restarts = 0;
  /**
   * Lines that broke the protocol without being any request's answer (a second answer for a
   * request already answered): never charged to a case; the run reports them.
   */
  readonly protocolProblems: string[] = [];
  /** Ids answered lately (the last {@link ANSWERED_KEPT}), to tell a second answer from a wrong one. */
  private readonly answered = new Set<string>();
  private proc: ChildProcessWithoutNullStreams | undefined;
  private readonly queue = new Fifo<Pending>();
  private pumpQueued = false;
  private timer: NodeJS.Timeout | undefined;
  private dead: string | undefined;

  /**
   * Why the session gave up on the testee (it could not be restarted, failed --give-up-after requests in a row or was
   * restarted --max-restarts times), or undefined while it works.
   */
  get failure(): string | undefined {
    return this.dead;
  }
  private closing = false;
  /** Characters of the testee's stderr put in the run's log so far (see logStderr). */
  private stderrLogged = 0;
  private readonly stderrDropped = { lines: 0, chars: 0, last: [] as string[] };
  private onLine: ((line: string) => void) | undefined;
  private onExit: ((why: string) => void) | undefined;
  private restarting: Promise<void> | undefined;
  /** Requests failed in a row (reset by an answer). */
  private failedInARow = 0;

  constructor(private readonly options: TesteeOptions) {}

  /**
   * Runs one operation.
   * @param id - the case id (protocol `id`)
   * @param op - the operation
   * @param input - its input
   * @returns the testee's answer, or `failed` when it broke
   */
  call(id: string, op: Operation, input: OperationInput): Promise<Answer> {
    if (this.dead) return Promise.resolve({ failed: { reason: this.dead, notRun: true } });
    // a closed session takes no request: it would wait for ever
    if (this.closing) return Promise.resolve({ failed: { reason: 'the session was closed' } });
    return new Promise((resolve) => {
      const line = `${JSON.stringify({ cmd: 'run', id, op, input })}\n`;
      this.queue.push({ id, op, line, resolve, sent: false });
      this.schedulePump();
    });
  }

  /**
   * One stderr line into the run's log, while the testee's stderr in the log is under
   * {@link STDERR_LOG_BYTES}; past it, lines are counted and only the last few kept, for
   * {@link close} to log with what was dropped (a testee that writes 1 GiB to stderr costs the run
   * a bounded log, never the whole of it).
   */
  private logStderr(line: string): void {
    this.stderrLogged += line.length + 1;
    if (this.stderrLogged <= STDERR_LOG_BYTES) return this.log(`testee stderr: ${line}`);
    this.stderrDropped.lines += 1;
    this.stderrDropped.chars += line.length + 1;
    this.stderrDropped.last.push(line);
    if (this.stderrDropped.last.length > STDERR_TAIL_LINES) this.stderrDropped.last.shift();
  }

  /** Kills the testee's whole process group at once, without a word to it (a second Ctrl-C). */
  kill(): void {
    this.closing = true;
    if (this.proc) killGroup(this.proc, true);
  }

  /**
   * Sends `stop`, waits briefly for the testee to exit, then kills it. Settles in at most a few seconds, whatever the
   * testee does.
   */
  async close(): Promise<void> {
    this.closing = true;
    this.clearTimer();
    for (const p of this.queue.drain()) p.resolve({ failed: { reason: 'the session was closed' } });
    const proc = this.proc;
    if (!proc) return;
    if (!hasEnded(proc)) {
      try {
        proc.stdin.end(`${JSON.stringify({ cmd: 'stop' })}\n`);
      } catch {
        /* already gone */
      }
      if (!(await settleWithin(proc, ['exit', 'error'], () => hasEnded(proc), 2000))) {
        killGroup(proc);
        await settleWithin(proc, ['exit', 'error'], () => hasEnded(proc), 2000);
      }
    }
    // its last stderr lines still go to the log, unless something it left holds the pipe
    await settleWithin(proc.stderr, ['close'], () => proc.stderr.closed || proc.stderr.destroyed, 500);
    // and whatever it left behind in its process group goes with it (a child still running, issue 12)
    killGroup(proc, true);
    releaseStdio(proc);
    const dropped = this.stderrDropped;
    if (dropped.lines > 0) {
      this.log(
        `testee stderr: ${dropped.lines} more lines (${dropped.chars} characters) ` +
          `not kept in this log: it keeps the first ${STDERR_LOG_BYTES} characters ` +
          `of the testee's stderr; the last ${dropped.last.length} lines follow`,
      );
      for (const line of dropped.last) this.log(`testee stderr: ${line}`);
    }
  }

  // --- internal ---

  /**
   * @internal Spawns the process and answers the handshake; used at start and restart.
   * Every wait here settles on the child's answer, its exit, a spawn error or a timer
   * that keeps the event loop alive until it fires: none can be left pending.
   */
  async spawnAndGreet(): Promise<Hello> {
    const { command, cwd, env, startTimeoutMs = 10_000 } = this.options;
    const stderrTail: string[] = [];
    let spawnError: Error | undefined;
    let proc: ChildProcessWithoutNullStreams;
    try {
      proc = spawn(command, {
        shell: true,
        cwd,
        env: testeeEnvironment(env ?? process.env),
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (e) {
      const reason = `the testee could not be started: ${(e as Error).message}`;
      throw new TesteeStartError(reason, {
        kind: 'spawn',
        reason,
        command,
        exitCode: null,
        signal: null,
        killedByKit: false,
        stderrTail,
      });
    }
    this.proc = proc;
    splitLines(
      proc.stderr,
      (line) => {
        stderrTail.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
        if (stderrTail.length > STDERR_TAIL_LINES) stderrTail.shift();
        this.logStderr(line);
      },
      STDERR_LINE_CHARS,
    );
    splitLines(proc.stdout, (line) => {
      if (this.proc === proc) this.onLine?.(line);
    });
    proc.stdin.on('error', () => {
      /* EPIPE when the testee died: the exit handler reports it */
    });
    const exitReason = new Promise<string>((resolve) => {
      // `on`, not `once`: a later error (a failed kill) must not go unhandled
      proc.on('error', (e) => {
        spawnError ??= e;
        resolve(`the testee could not be started: ${e.message}`);
      });
      proc.once('exit', (code, signal) =>
        resolve(signal ? `the testee was killed by ${signal}` : `the testee exited with code ${code}`),
      );
    });
    let greeted = false;
    void exitReason.then(async (why) => {
      // before the handshake is through, an exit is the handshake's failure, not a case's
      if (!greeted || this.proc !== proc) return;
      // the answers it wrote before it exited may still be in the pipe: read them first, so that
      // only the request still waiting afterwards is failed (not the one whose answer was on its way);
      // bounded: a child it left behind may hold the pipe open
      await settleWithin(proc.stdout, ['end', 'close'], () => proc.stdout.readableEnded || proc.stdout.destroyed, 1000);
      if (this.proc === proc) this.onExit?.(why);
    });

    const firstLine = new Promise<string>((resolve) => {
      this.onLine = resolve;
    });
    proc.stdin.write(`${JSON.stringify({ cmd: 'start', protocol: 1 })}\n`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), startTimeoutMs);
    });
    const first = await Promise.race([firstLine, exitReason.then((why) => ({ exit: why })), timeout]);
    clearTimeout(timer);
    const fail = async (kind: TesteeStartKind, why: string): Promise<never> => {
      if (this.proc === proc) this.proc = undefined;
      const killedByKit = !hasEnded(proc) && spawnError === undefined;
      // the whole group: a shell's children too, and anything left holding the pipes
      killGroup(proc, true);
      await settleWithin(proc, ['exit', 'error'], () => hasEnded(proc) || spawnError !== undefined, 1000);
      // the exit can be seen before the last stderr lines are read: give them a moment
      await settleWithin(proc.stderr, ['close'], () => proc.stderr.closed || proc.stderr.destroyed, 500);
      releaseStdio(proc);
      const tail = stderrTail.length ? `; its stderr ended with: ${stderrTail.join(' | ')}` : '';
      throw new TesteeStartError(`${why}${tail}`, {
        kind: spawnError ? 'spawn' : kind,
        reason: why,
        command,
        // after a spawn error Node sets exitCode to the negative errno: the process never ran
        exitCode: spawnError ? null : proc.exitCode,
        signal: spawnError ? null : proc.signalCode,
        killedByKit,
        stderrTail: [...stderrTail],
      });
    };
    if (first === 'timeout') return fail('timeout', `the testee did not answer start within ${startTimeoutMs} ms`);
    if (typeof first === 'object')
      return fail('exit', spawnError ? spawnReason(spawnError, cwd) : `${first.exit} before it was ready`);
    const hello = readHello(first, this.options.validate);
    if ('refused' in hello) return fail(hello.refused, hello.why);
    this.onLine = (line) => this.answer(line);
    this.onExit = (why) => this.broken(`${why} before answering`);
    greeted = true;
    return hello;
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  /** Pumps once the current calls and answers are all in: their requests go out in one write. */
  private schedulePump(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  /** Writes queued requests up to the window, in one write, and arms the head's timer. */
  private pump(): void {
    if (this.restarting || this.dead || !this.proc) return;
    const window = this.options.window ?? 64;
    let lines = '';
    for (let i = 0; i < Math.min(window, this.queue.length); i++) {
      const p = this.queue.at(i);
      if (p && !p.sent) {
        p.sent = true;
        lines += p.line;
      }
    }
    if (lines) this.proc.stdin.write(lines);
    if (this.queue.length > 0 && !this.timer) {
      const head = this.queue.at(0);
      this.timer = setTimeout(() => {
        this.timer = undefined;
        if (this.queue.at(0) === head) this.broken(`no answer within ${this.options.timeoutMs} ms`);
      }, this.options.timeoutMs);
    }
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Handles one answer line. */
  private answer(line: string): void {
    const head = this.queue.at(0);
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      message = undefined;
    }
    const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
    if (typeof id === 'string' && id !== head?.id && this.answered.has(id)) {
      // a second answer for a request already answered: the protocol broken, no case to blame
      const problem = `a second answer for ${JSON.stringify(id)}, which was answered already: ${clipQuoted(line, 120)}`;
      this.protocolProblems.push(problem);
      this.log(`protocol: ${problem} (ignored; no case is charged with it)`);
      return;
    }
    if (!head) {
      this.log(`protocol: a line when no request was waiting: ${clipQuoted(line, 120)}`);
      this.restart();
      return;
    }
    if (message === undefined) {
      this.broken(`the answer is not JSON: ${clipQuoted(line, 120)}`);
      return;
    }
    if (id !== head.id) {
      this.broken(`the answer has id ${JSON.stringify(id)}, expected ${JSON.stringify(head.id)}`);
      return;
    }
    this.queue.shift();
    this.clearTimer();
    this.failedInARow = 0;
    this.answered.add(head.id);
    if (this.answered.size > ANSWERED_KEPT) this.answered.delete(this.answered.values().next().value as string);
    const problems = this.options.validate?.(message, { expecting: 'answer', id: head.id, op: head.op }) ?? [];
    head.resolve(
      problems.length > 0
        ? { failed: { reason: `protocol: ${problems.join('; ')}` } }
        : toAnswer(message as Record<string, Json>),
    );
    this.schedulePump();
  }

  /** The head request failed because the testee broke: fail it, restart, go on. */
  private broken(why: string): void {
    if (this.closing) return;
    this.clearTimer();
    const head = this.queue.shift();
    this.log(`testee failed${head ? ` on ${head.id} (${head.op})` : ''}: ${why}`);
    head?.resolve({ failed: { reason: why } });
    const limit = this.options.giveUpAfter ?? DEFAULT_GIVE_UP_AFTER;
    if (head && ++this.failedInARow >= limit)
      return this.giveUp(
        `the testee failed on ${this.failedInARow} requests in a row, the last: ${why}; it is not restarted again`,
      );
    this.restart();
  }

  /**
   * Ends the session for good: the testee's group killed, every request waiting (and every later one) failed with why.
   */
  private giveUp(why: string): void {
    this.dead = why;
    this.log(why);
    const old = this.proc;
    this.proc = undefined;
    if (old) killGroup(old, true);
    for (const p of this.queue.drain()) p.resolve({ failed: { reason: why, notRun: true } });
  }

  private restart(): void {
    if (this.restarting || this.closing || this.dead) return;
    const most = this.options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
    if (this.restarts >= most)
      return this.giveUp(
        `the testee was restarted ${this.restarts} time${this.restarts === 1 ? '' : 's'} ` +
          `(--max-restarts ${most}); it is not restarted again`,
      );
    const old = this.proc;
    this.proc = undefined;
    if (old) killGroup(old);
    for (const p of this.queue) p.sent = false;
    this.restarts++;
    this.log(`restarting the testee (restart ${this.restarts})`);
    this.restarting = this.spawnAndGreet()
      .then((hello) => {
        this.hello = hello;
      })
      .catch((e: unknown) => this.giveUp(`the testee could not be restarted: ${(e as Error).message}`))
      .finally(() => {
        this.restarting = undefined;
        this.pump();
      });
  }
}

/** An answer to start that is not a ready hello: the testee said it is not ready, or answered outside the protocol. */
interface HelloRefused {
  readonly refused: Extract<TesteeStartKind, 'not-ready' | 'protocol'>;
  readonly why: string;
}

function readHello(line: string, validate: TesteeOptions['validate']): Hello | HelloRefused {
  const protocol = (why: string): HelloRefused => ({ refused: 'protocol', why });
  let m: unknown;
  try {
    m = JSON.parse(line);
  } catch {
    return protocol(`the answer to start is not JSON: ${clipQuoted(line, 120)}`);
  }
  const problems = validate?.(m, { expecting: 'ready' }) ?? [];
  if (problems.length > 0) return protocol(`protocol: the answer to start: ${problems.join('; ')}`);
  const msg = m as {
    ready?: unknown;
    reason?: unknown;
    protocol?: unknown;
    implementation?: Record<string, unknown>;
    operations?: unknown;
  };
  if (msg.ready === false)
    return {
      refused: 'not-ready',
      why: `the testee is not ready: ${typeof msg.reason === 'string' ? msg.reason : 'no reason given'}`,
    };
  if (msg.ready !== true) return protocol(`the answer to start has no "ready": ${clipQuoted(line, 120)}`);
  if (msg.protocol !== 1) return protocol(`the testee speaks protocol ${JSON.stringify(msg.protocol)}, not 1`);
  const impl = msg.implementation ?? {};
  const text = (k: string): string => (typeof impl[k] === 'string' ? (impl[k] as string) : 'unknown');
  if (!Array.isArray(msg.operations) || !msg.operations.every((o) => typeof o === 'string'))
    return protocol('the answer to start has no list of operations');
  const names = msg.operations as string[];
  return {
    implementation: { name: text('name'), version: text('version'), language: text('language') },
    operations: names.filter(isOperation),
    unknownOperations: names.filter((n) => !isOperation(n)),
  };
}

function toAnswer(m: Record<string, Json>): Answer {
  const kinds = (['result', 'rejected', 'unsupported'] as const).filter((k) => k in m);
  if (kinds.length !== 1)
    return {
      failed: {
        reason:
          'the answer must have exactly one of result, rejected, unsupported ' +
          `(it has ${kinds.length === 0 ? 'none' : kinds.join(' and ')})`,
      },
    };
  const value = m[kinds[0] as string];
  if (kinds[0] === 'result') {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      return { failed: { reason: 'result is not an object' } };
    return { result: value };
  }
  const reason =
    typeof value === 'object' && value !== null && !Array.isArray(value) && typeof value['reason'] === 'string'
      ? value['reason']
      : 'no reason given';
  return kinds[0] === 'rejected' ? { rejected: { reason } } : { unsupported: { reason } };
}
