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
  readonly failure?: { readonly input: T; readonly reason: string; readonly path: string; readonly replay: string; readonly shrinks: number };
}

/**
 * Checks that `judge` finds nothing wrong with any input of `arbitrary`.
 * @param arbitrary - the inputs
 * @param judge - says what is wrong with one input (undefined: nothing); may run many at once
 * @param options - {@link EngineOptions}
 * @returns the run, with the shrunk failure when an input fails
 * @example const r = await checkPipelined(fc.nat(), async (n) => (n < 1000 ? undefined : 'too big'), { seed: 1, runs: 100 });
 */
export async function checkPipelined<T>(arbitrary: fc.Arbitrary<T>, judge: (input: T) => Promise<string | undefined>, options: EngineOptions): Promise<EngineResult<T>> {
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  const deadline = options.timeMs !== undefined ? Date.now() + options.timeMs : Infinity;
  // A replay (a path) goes straight to fast-check: it tries the one input the path names.
  const known: Array<string | undefined> = [];
  const sampled: string[] = [];
  let interrupted = false;
  if (options.path === undefined) {
    // the inputs fast-check's own run would try, in its order (fc.sample biases them otherwise)
    const inputs: T[] = [];
    fc.check(
      fc.property(arbitrary, (v) => {
        inputs.push(v);
        return true;
      }),
      { seed, numRuns: options.runs },
    );
    const window = Math.max(1, options.window ?? 64);
    for (let i = 0; i < inputs.length; i += window) {
      if (Date.now() > deadline) {
        interrupted = true;
        break;
      }
      const batch = inputs.slice(i, i + window);
      const verdicts = await Promise.all(batch.map((v) => judge(v)));
      sampled.push(...batch.map(fingerprint));
      known.push(...verdicts);
      options.onProgress?.(known.length);
      if (verdicts.some((v) => v !== undefined)) break;
    }
    const first = known.findIndex((v) => v !== undefined);
    if (first < 0) return { seed, runs: known.length, interrupted };
  }
  // Replay with fast-check: the inputs judged already answer from `known`; shrinking judges live.
  let call = 0;
  let lastReason: string | undefined;
  const replay = fc.asyncProperty(arbitrary, async (v) => {
    const i = call++;
    // the same input fast-check drew up front (a value it reuses, else judged again)
    const reason = i < known.length && sampled[i] === fingerprint(v) ? known[i] : await judge(v);
    if (reason !== undefined) lastReason = reason;
    return reason === undefined;
  });
  const remaining = deadline === Infinity ? undefined : Math.max(1, deadline - Date.now());
  const result = await fc.check(replay, {
    seed,
    numRuns: options.path === undefined ? known.length : options.runs,
    ...(options.path !== undefined ? { path: options.path } : {}),
    ...(remaining !== undefined ? { interruptAfterTimeLimit: remaining } : {}),
  });
  if (!result.failed || result.counterexample === null) return { seed, runs: result.numRuns, interrupted: interrupted || result.interrupted };
  const [input] = result.counterexample;
  const again = await judge(input);
  const reason = again ?? lastReason ?? (result.errorInstance instanceof Error ? `the check threw: ${result.errorInstance.message}` : 'failed during the run, passes when run again (flaky)');
  const path = result.counterexamplePath ?? '';
  return { seed, runs: result.numRuns, interrupted: interrupted || result.interrupted, failure: { input, reason, path, replay: `${seed}:${path}`, shrinks: result.numShrinks } };
}

// --- internal ---

/** A value as text, byte arrays included, to recognise the inputs drawn up front. */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `bytes:${Buffer.from(v).toString('base64')}` : typeof v === 'bigint' ? `bigint:${v}` : v)) ?? String(value);
}
