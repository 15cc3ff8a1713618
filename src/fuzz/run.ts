/**
 * Fuzzes an implementation's Authorization parser (`authorization.parse`, spec §5.3,
 * reading R8) with fast-check: mutated headers, judged by the reference ({@link oracle}),
 * shrunk to a minimal counterexample that can be replayed from its seed and path.
 * @module
 */
import { judgeHeader, parserAnswer } from '../scheme/header-answers.js';
import type { Subject } from '../subjects/subject.js';
import { checkPipelined } from '../properties/engine.js';
import { fuzzHeaderArb, fuzzHeaderText, type FuzzHeader } from './arbitraries.js';
import { oracle, type OracleVerdict } from './oracle.js';
import { quotedAscii } from '../scheme/text.js';

/** Options of {@link fuzzParser}. */
export interface FuzzOptions {
  /** The fast-check seed (default: random). */
  readonly seed?: number;
  /** Headers to try at most (default 1000). */
  readonly runs?: number;
  /** Stop trying new headers after this many milliseconds (shrinking included). */
  readonly timeMs?: number;
  /** Replay one counterexample: fast-check's path (with the seed it was found with). */
  readonly path?: string;
  /** Called after each header tried, with the number tried so far. */
  readonly onRun?: (runs: number) => void;
  /**
   * Headers in flight at once (default twice {@link FUZZ_WINDOW}, so that a full session window always has more waiting
   * behind it; shrinking goes one at a time).
   */
  readonly window?: number;
}

/**
 * Headers `fuzz` keeps in flight, and the testee session's write-ahead window it asks for:
 * with 64, the kit and a fast testee take turns (each waits while the other works through a
 * batch); with 256 both work at once.
 */
export const FUZZ_WINDOW = 128;

/** A header the implementation handles against R8. */
export interface FuzzFinding {
  /** The minimal header found. */
  readonly header: string;
  /** Why it fails, e.g. `must be accepted (R8) but was refused: …`. */
  readonly reason: string;
  /**
   * The header as the implementation received it, when that differs (HTTP drops SP/HTAB around a field value, RFC 9110
   * §5.5).
   */
  readonly received?: string;
  /** What R8 requires of it (of the header as received). */
  readonly oracle: OracleVerdict;
  readonly seed: number;
  /** fast-check's counterexample path. */
  readonly path: string;
  /** `<seed>:<path>`, for `--replay`. */
  readonly replay: string;
  readonly shrinks: number;
}

/** The outcome of {@link fuzzParser}. */
export interface FuzzResult {
  readonly seed: number;
  /** Headers tried before the finding (or in all). */
  readonly runs: number;
  /** The time limit stopped the run. */
  readonly interrupted: boolean;
  readonly finding?: FuzzFinding;
}

/**
 * Checks one header against a subject.
 * @param subject - the implementation (offers authorization.parse)
 * @param header - the header value
 * @param id - the protocol case id
 * @returns why the answer breaks R8, or undefined when it is fine
 */
export function checkHeader(subject: Subject, header: string, id: string): Promise<string | undefined> {
  // no async wrapper: a fuzz run judges tens of thousands of headers a second, each a few promise hops
  return subject.call('authorization.parse', { header }, id).then((answer) => {
    if ('failed' in answer) return `the implementation failed (crash, hang or protocol error): ${answer.failed.reason}`;
    if ('unsupported' in answer) return `authorization.parse answered unsupported: ${answer.unsupported.reason}`;
    if (!('rejected' in answer) && !('result' in answer)) return 'the answer is none of result, rejected, unsupported';
    const judged = judgeHeader(header, parserAnswer(answer));
    return judged.ok ? undefined : judged.reason;
  });
}

/**
 * Fuzzes `authorization.parse` of a subject.
 * @param subject - the implementation under test
 * @param options - {@link FuzzOptions}
 * @returns the run, with the shrunk finding when a header breaks R8
 * @example const r = await fuzzParser(createReferenceSubject(), { seed: 1, runs: 50 }); r.finding // undefined
 */
export async function fuzzParser(subject: Subject, options: FuzzOptions = {}): Promise<FuzzResult> {
  let n = 0;
  const judge = (h: FuzzHeader): Promise<string | undefined> => checkHeader(subject, fuzzHeaderText(h), `fuzz-${++n}`);
  return fuzzWith(
    async (h) => {
      const header = fuzzHeaderText(h);
      return { header, judged: header, reason: await judge(h) };
    },
    options,
    1000,
    judge,
  );
}

/**
 * The loop every fuzzer shares: a fast-check property over fuzzed headers, the shrunk
 * counterexample checked once more, and the finding with its seed and path.
 * @param check - sends one header and says what was wrong (reason undefined: as R8 requires);
 *   `judged` is the header as the oracle judges it
 * @param options - seed, path (replay), runs, time, progress
 * @param defaultRuns - runs when none are given
 * @param judge - the reason alone (default: check's), what the run asks of every header; check
 *   gives the finding's detail
 * @returns the run, with the finding when a header breaks R8
 * @example fuzzWith(async (h) => ({ header: fuzzHeaderText(h), judged: fuzzHeaderText(h), reason: undefined }), {}, 10)
 */
export async function fuzzWith(
  check: (
    h: FuzzHeader,
  ) => Promise<{ readonly header: string; readonly judged: string; readonly reason: string | undefined }>,
  options: FuzzOptions,
  defaultRuns: number,
  judge: (h: FuzzHeader) => Promise<string | undefined> = async (h) => (await check(h)).reason,
): Promise<FuzzResult> {
  // the pipelined engine: many headers in flight (written ahead over protocol v1), one at a time only while shrinking
  const result = await checkPipelined(fuzzHeaderArb, judge, {
    runs: options.runs ?? defaultRuns,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.path !== undefined ? { path: options.path } : {}),
    ...(options.timeMs !== undefined ? { timeMs: options.timeMs } : {}),
    ...(options.onRun ? { onProgress: options.onRun } : {}),
    window: options.window ?? 2 * FUZZ_WINDOW,
  });
  const base = { seed: result.seed, runs: result.runs, interrupted: result.interrupted };
  const f = result.failure;
  if (!f) return base;
  const again = await check(f.input);
  return {
    ...base,
    finding: {
      header: again.header,
      ...(again.judged !== again.header ? { received: again.judged } : {}),
      reason: again.reason ?? f.reason,
      oracle: oracle(again.judged),
      seed: result.seed,
      path: f.path,
      replay: f.replay,
      shrinks: f.shrinks,
    },
  };
}

/**
 * Parses a `--replay` value.
 * @param text - `<seed>:<path>`, e.g. `42:3:0:1`
 * @returns the seed and path, or undefined when malformed
 * @example parseReplay('42:3:0') // { seed: 42, path: '3:0' }
 */
export function parseReplay(text: string): { seed: number; path: string } | undefined {
  const m = /^(-?\d+):(\d+(?::\d+)*)$/.exec(text.trim());
  if (!m) return undefined;
  const seed = Number(m[1]);
  return Number.isSafeInteger(seed) ? { seed, path: m[2] ?? '' } : undefined;
}

/**
 * Shows a header with every character outside printable ASCII escaped (JSON style, plus \u for non-ASCII).
 * @param text - the header
 * @returns the quoted, escaped text
 * @example showEscaped('a\tb') // '"a\\tb"'
 */
export function showEscaped(text: string): string {
  return quotedAscii(text);
}
