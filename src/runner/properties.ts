/**
 * Runs the properties against a subject through the pipelined engine: each property is one
 * case of the run (id `property.<family>.<name>`), passed, failed with its shrunk
 * counterexample and diagnosis, or skipped when the target does not offer its operations.
 * @module
 */
import type { OpOutcome, Status } from '../checks/outcome.js';
import type { CaseResult, Diagnosis, OpResult, PropertyRecord } from './result.js';
import type { Subject } from '../subjects/subject.js';
import { checkPipelined } from '../properties/engine.js';
import { DEFAULT_PROPERTY_RUNS } from '../properties/defaults.js';
import { PROPERTIES, type PropertyDef, type PropertyFailure } from '../properties/catalogue.js';

/** Options of {@link runProperties}. */
export interface PropertyOptions {
  /** The seed of every property (default: random, reported). */
  readonly seed?: number;
  /** Inputs per property (default 100). */
  readonly runs?: number;
  /** Replay one counterexample: the property's id and fast-check's path. */
  readonly replay?: { readonly id: string; readonly path: string };
  /** Only these properties (ids); default all. */
  readonly only?: (id: string) => boolean;
}

export { DEFAULT_PROPERTY_RUNS } from '../properties/defaults.js';

/**
 * Runs every property against a subject.
 * @param subject - the implementation under test
 * @param options - {@link PropertyOptions}
 * @returns one case per property, in catalogue order
 * @example const cases = await runProperties(createReferenceSubject(), { seed: 1, runs: 5 });
 */
export async function runProperties(subject: Subject, options: PropertyOptions = {}): Promise<CaseResult[]> {
  const seed = options.seed ?? Math.floor(Math.random() * 0x7fffffff);
  // all at once: each keeps its window of inputs in flight, so the testee always has work while
  // one property draws, waits on a two-step judgement or shrinks (results in catalogue order)
  const chosen = PROPERTIES.filter(
    (x) => (options.only ? options.only(x.id) : true) && (!options.replay || options.replay.id === x.id),
  );
  return Promise.all(chosen.map((p) => runOne(p, subject, seed, options)));
}

// --- internal ---

async function runOne(
  p: PropertyDef<unknown>,
  subject: Subject,
  seed: number,
  options: PropertyOptions,
): Promise<CaseResult> {
  const base = {
    id: p.id,
    kind: 'property' as const,
    file: 'properties (built in)',
    comment: p.comment,
    spec: p.spec,
    readings: p.readings,
    flags: ['Property'],
    result: 'valid' as const,
  };
  const missing = p.operations.filter((op) => !subject.operations.includes(op));
  if (missing.length > 0) {
    const ops: OpResult[] = p.operations.map((op) => ({
      op,
      status: 'skip',
      expected: null,
      got: null,
      message: `the implementation does not offer ${op}`,
      durationMs: 0,
    }));
    return {
      ...base,
      status: 'skip',
      ops,
      message: `not run: ${missing.join(', ')} not offered`,
      verdict: 'skipped',
      durationMs: 0,
    };
  }
  const t0 = performance.now();
  let n = 0;
  const runs = options.runs ?? DEFAULT_PROPERTY_RUNS;
  const result = await checkPipelined(
    p.arbitrary,
    async (input) => (await p.judge(input, subject, `${p.id}-${++n}`))?.reason,
    {
      seed,
      runs,
      ...(options.replay ? { path: options.replay.path } : {}),
    },
  );
  const durationMs = Math.round((performance.now() - t0) * 1000) / 1000;
  const record: PropertyRecord = { seed: result.seed, runs: result.runs };
  if (!result.failure) {
    const ops: OpResult[] = p.operations.map((op) => ({
      op,
      status: 'pass',
      expected: null,
      got: null,
      message: `${result.runs} inputs, seed ${result.seed}`,
      durationMs: 0,
    }));
    return {
      ...base,
      status: 'pass',
      ops,
      message: `held for ${result.runs} inputs (seed ${result.seed})`,
      verdict: 'passed',
      durationMs,
      property: record,
    };
  }
  const f = result.failure;
  const detail: PropertyFailure = (await p.judge(f.input, subject, `${p.id}-counterexample`)) ?? {
    op: p.operations[0] ?? 'signature.sign',
    reason: f.reason,
    expected: null,
    got: null,
  };
  const status: Status = detail.reason.startsWith('the implementation failed') ? 'error' : 'fail';
  const ops: OpResult[] = p.operations.map((op): OpResult => {
    if (op !== detail.op) return { op, status: 'pass', expected: null, got: null, message: 'ran', durationMs: 0 };
    const outcome: OpOutcome = { op, status, expected: detail.expected, got: detail.got, message: detail.reason };
    const diagnosis = detail.diagnose?.() ?? [];
    return { ...outcome, durationMs: 0, ...(diagnosis.length ? { diagnosis: diagnosis as Diagnosis[] } : {}) };
  });
  const counterexample = p.show(f.input);
  const asVector = p.asVector?.(f.input, detail);
  const replay = `${p.id}=${f.replay}`;
  return {
    ...base,
    status,
    ops,
    message:
      `${detail.op}: ${detail.reason} — counterexample after ${result.runs} inputs, ${f.shrinks} shrinks; ` +
      `replay with --replay ${replay}`,
    verdict: status === 'error' ? 'error' : 'failed',
    durationMs,
    property: { ...record, replay: f.replay, shrinks: f.shrinks, counterexample, ...(asVector ? { asVector } : {}) },
  };
}
