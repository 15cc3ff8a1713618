/**
 * The pipelined property engine shared by the properties and `fuzz`: the inputs fast-check
 * would try are drawn up front (the same values, from the same seed), judged many at a time
 * — over protocol v1 they are written ahead, as vector runs are — and only when one fails
 * does fast-check replay the run, reusing every verdict already known, and shrink the failing
 * input one call at a time.
 * @module
 */
import fc from 'fast-check';

/** Options of {@link checkPipelined}. */
export interface EngineOptions {
  /** The fast-check seed (default: random). */
  readonly seed?: number;
  /** Inputs to try at most. */
  readonly runs: number;
  /** Replay one counterexample: fast-check's path (with the seed it was found with). */
  readonly path?: string;
  /** Inputs judged at once (default 64). */
  readonly window?: number;
  /** Stop trying new inputs after this many milliseconds (shrinking included). */
  readonly timeMs?: number;
  /** Called after each window, with the number of inputs judged so far. */
  readonly onProgress?: (judged: number) => void;
}

/** The outcome of {@link checkPipelined}. */
export interface EngineResult<T> {
  readonly seed: number;
  /** Inputs judged before the failure (or in all). */
  readonly runs: number;
  /** The time limit stopped the run. */
  readonly interrupted: boolean;
  /** The first failing input, shrunk, with why it fails. */
  readonly failure?: {
    readonly input: T;
    readonly reason: string;
    readonly path: string;
    readonly replay: string;
    readonly shrinks: number;
  };
}

/**
 * Checks that `judge` finds nothing wrong with any input of `arbitrary`.
 * @param arbitrary - the inputs
 * @param judge - says what is wrong with one input (undefined: nothing); may run many at once
 * @param options - {@link EngineOptions}
 * @returns the run, with the shrunk failure when an input fails
 * @example
 * const r = await checkPipelined(fc.nat(), async (n) => (n < 1000 ? undefined : 'too big'), {
 *   seed: 1,
 *   runs: 100,
 * });
 */
export async function checkPipelined<T>(
  arbitrary: fc.Arbitrary<T>,
  judge: (input: T) => Promise<string | undefined>,
  options: EngineOptions,
): Promise<EngineResult<T>> {
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const deadline = options.timeMs !== undefined ? Date.now() + options.timeMs : Infinity;
  const window = Math.max(1, options.window ?? 64);
  let passed = 0; // inputs judged before the first failure (all passed)
  let failing: { readonly fingerprint: string; readonly reason: string } | undefined;
  let interrupted = false;
  // A replay (a path) goes straight to fast-check: it tries the one input the path names.
  if (options.path === undefined) {
    const drawer = drawInBlocks(arbitrary, seed, options.runs, Math.max(window, 1024), deadline);
    const judged = await judgeInOrder(drawer, judge, window, options.runs, deadline, options.onProgress);
    passed = judged.passed;
    interrupted = judged.interrupted;
    if (judged.failing) failing = { fingerprint: fingerprint(judged.failing.input), reason: judged.failing.reason };
    if (failing === undefined) return { seed, runs: passed, interrupted };
  }
  // fast-check goes straight to the failing run (its path is the run's index), whose verdict is
  // known, and shrinks it judging live; a replay (a path given) tries the one input it names.
  let first = true;
  let lastReason: string | undefined;
  const known = failing;
  const replay = fc.asyncProperty(arbitrary, async (v) => {
    const reason = first && known && known.fingerprint === fingerprint(v) ? known.reason : await judge(v);
    first = false;
    if (reason !== undefined) lastReason = reason;
    return reason === undefined;
  });
  const remaining = deadline === Infinity ? undefined : Math.max(1, deadline - Date.now());
  const result = await fc.check(replay, {
    seed,
    path: options.path ?? String(passed),
    ...(remaining !== undefined ? { interruptAfterTimeLimit: remaining } : {}),
  });
  const runs = options.path === undefined ? passed + 1 : result.numRuns;
  if (!result.failed || result.counterexample === null)
    return { seed, runs, interrupted: interrupted || result.interrupted };
  const [input] = result.counterexample;
  const again = await judge(input);
  const reason =
    again ??
    lastReason ??
    (result.errorInstance instanceof Error
      ? `the check threw: ${result.errorInstance.message}`
      : 'failed during the run, passes when run again (flaky)');
  const path = result.counterexamplePath ?? '';
  return {
    seed,
    runs,
    interrupted: interrupted || result.interrupted,
    failure: { input, reason, path, replay: `${seed}:${path}`, shrinks: result.numShrinks },
  };
}

// --- internal ---

/** What {@link judgeInOrder} found. */
interface Judged<T> {
  /** Inputs judged before the first failure (all passed), or in all. */
  readonly passed: number;
  readonly interrupted: boolean;
  readonly failing?: { readonly index: number; readonly input: T; readonly reason: string };
}

/**
 * Judges the drawn inputs with up to `window` in flight at every moment — a sliding window,
 * not batches: each verdict that comes back lets the next input go, so the testee always has
 * work while the engine draws and judges — and stops taking new inputs at the first failure,
 * at the deadline, or when the inputs run out. Inputs start in order, so once nothing is in
 * flight the failure with the lowest index is the first one, and every input before it passed.
 */
async function judgeInOrder<T>(
  drawer: Drawer<T>,
  judge: (input: T) => Promise<string | undefined>,
  window: number,
  runs: number,
  deadline: number,
  onProgress: ((judged: number) => void) | undefined,
): Promise<Judged<T>> {
  let block: T[] = [];
  let at = 0;
  let started = 0;
  let done = 0;
  let inFlight = 0;
  let exhausted = false;
  let interrupted = false;
  let failing: Judged<T>['failing'];
  let thrown: { readonly error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const settle = (): void => {
    inFlight -= 1;
    done += 1;
    if (done % window === 0) onProgress?.(done);
    wake?.();
    wake = undefined;
  };
  for (;;) {
    while (
      inFlight < window &&
      failing === undefined &&
      thrown === undefined &&
      !exhausted &&
      !interrupted &&
      started < runs
    ) {
      if (at >= block.length) {
        block = drawer.next();
        at = 0;
        exhausted = block.length === 0;
        continue;
      }
      if (Date.now() > deadline) {
        interrupted = true;
        break;
      }
      const input = block[at] as T;
      at += 1;
      const index = started;
      started += 1;
      inFlight += 1;
      judge(input).then(
        (reason) => {
          if (reason !== undefined && (failing === undefined || index < failing.index))
            failing = { index, input, reason };
          settle();
        },
        (error: unknown) => {
          thrown ??= { error };
          settle();
        },
      );
    }
    if (inFlight === 0) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
  }
  if (thrown) throw thrown.error;
  if (done % window !== 0) onProgress?.(done);
  if (failing) return { passed: failing.index, interrupted, failing };
  return { passed: started, interrupted: interrupted || (exhausted && started < runs) };
}

/** Hands out the inputs of a run in blocks; an empty block ends it. */
interface Drawer<T> {
  next(): T[];
}

/**
 * The inputs fast-check's own run would try, block by block: each block starts at its run
 * with a fast-check path; skipping to a run costs a little per run skipped, so blocks grow
 * fourfold, up to 65,536.
 */
function drawInBlocks<T>(
  arbitrary: fc.Arbitrary<T>,
  seed: number,
  runs: number,
  firstBlock: number,
  deadline: number,
): Drawer<T> {
  let at = 0;
  let block = firstBlock;
  return {
    next() {
      const inputs = record(arbitrary, seed, at, Math.min(block, runs - at), deadline);
      at += inputs.length;
      block = Math.min(block * 4, 65_536);
      return inputs;
    },
  };
}

/**
 * The `count` inputs fast-check's run with this seed tries from run `from` on (its own generation, bias included),
 * fewer when the deadline comes.
 */
function record<T>(arbitrary: fc.Arbitrary<T>, seed: number, from: number, count: number, deadline: number): T[] {
  const inputs: T[] = [];
  const left = deadline - Date.now();
  if (left <= 0 || count <= 0) return inputs;
  fc.check(
    fc.property(arbitrary, (v) => {
      inputs.push(v);
      return true;
    }),
    {
      seed,
      numRuns: count,
      ...(from > 0 ? { path: String(from) } : {}),
      ...(Number.isFinite(left) ? { interruptAfterTimeLimit: Math.max(1, Math.floor(left)) } : {}),
    },
  );
  return inputs;
}

/** A value as text, byte arrays included, to recognise the inputs drawn up front. */
function fingerprint(value: unknown): string {
  return (
    JSON.stringify(value, (_k, v: unknown) =>
      v instanceof Uint8Array
        ? `bytes:${Buffer.from(v).toString('base64')}`
        : typeof v === 'bigint'
          ? `bigint:${v}`
          : v,
    ) ?? String(value)
  );
}
