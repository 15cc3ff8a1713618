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
  const window = Math.max(1, options.window ?? 64);
  let passed = 0; // inputs judged before the first failure (all passed)
  let failing: { readonly fingerprint: string; readonly reason: string } | undefined;
  let interrupted = false;
  // A replay (a path) goes straight to fast-check: it tries the one input the path names.
  if (options.path === undefined) {
    // inputs are drawn in blocks (a fast-check path starts a block at its run; skipping to it costs
    // a little per run skipped, so blocks grow) and judged `window` at a time
    let block = Math.max(window, 1024);
    while (passed < options.runs && failing === undefined && !interrupted) {
      const inputs = record(arbitrary, seed, passed, Math.min(block, options.runs - passed), deadline);
      block = Math.min(block * 4, 65_536);
      for (let i = 0; i < inputs.length && failing === undefined; i += window) {
        if (Date.now() > deadline) {
          interrupted = true;
          break;
        }
        const batch = inputs.slice(i, i + window);
        const verdicts = await Promise.all(batch.map((v) => judge(v)));
        const at = verdicts.findIndex((v) => v !== undefined);
        if (at < 0) passed += batch.length;
        else {
          passed += at;
          failing = { fingerprint: fingerprint(batch[at]), reason: verdicts[at] ?? '' };
        }
        options.onProgress?.(passed);
      }
      if (inputs.length === 0 || Date.now() > deadline) interrupted = interrupted || passed < options.runs;
    }
    if (failing === undefined) return { seed, runs: passed, interrupted };
  }
  // Replay with fast-check: the inputs judged already answer as they did; shrinking judges live.
  let call = 0;
  let lastReason: string | undefined;
  const known = failing;
  const replay = fc.asyncProperty(arbitrary, async (v) => {
    const i = call++;
    let reason: string | undefined;
    if (options.path === undefined && i < passed) reason = undefined;
    else if (options.path === undefined && i === passed && known && known.fingerprint === fingerprint(v)) reason = known.reason;
    else reason = await judge(v);
    if (reason !== undefined) lastReason = reason;
    return reason === undefined;
  });
  const remaining = deadline === Infinity ? undefined : Math.max(1, deadline - Date.now());
  const result = await fc.check(replay, {
    seed,
    numRuns: options.path === undefined ? passed + 1 : options.runs,
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

/** The `count` inputs fast-check's run with this seed tries from run `from` on (its own generation, bias included), fewer when the deadline comes. */
function record<T>(arbitrary: fc.Arbitrary<T>, seed: number, from: number, count: number, deadline: number): T[] {
  const inputs: T[] = [];
  const left = deadline - Date.now();
  if (left <= 0) return inputs;
  fc.check(
    fc.property(arbitrary, (v) => {
      inputs.push(v);
      return true;
    }),
    { seed, numRuns: count, ...(from > 0 ? { path: String(from) } : {}), ...(Number.isFinite(left) ? { interruptAfterTimeLimit: Math.max(1, Math.floor(left)) } : {}) },
  );
  return inputs;
}

/** A value as text, byte arrays included, to recognise the inputs drawn up front. */
function fingerprint(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof Uint8Array ? `bytes:${Buffer.from(v).toString('base64')}` : typeof v === 'bigint' ? `bigint:${v}` : v)) ?? String(value);
}
