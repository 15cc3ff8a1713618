/**
 * The pipelined engine: the inputs fast-check's own run would try, judged many at a time,
 * the first failure shrunk by fast-check (one call at a time), replayable from its path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPipelined } from '../../src/properties/engine.js';

describe('checkPipelined', () => {
  it('judges the inputs of fast-check’s own run, in its order, many at a time', async () => {
    const arb = fc.record({ n: fc.nat(1_000_000), s: fc.string({ maxLength: 8 }), b: fc.uint8Array({ maxLength: 16 }) });
    const theirs: unknown[] = [];
    fc.check(fc.property(arb, (v) => (theirs.push(v), true)), { seed: 9, numRuns: 150 });
    const mine: unknown[] = [];
    let inFlight = 0;
    let most = 0;
    const r = await checkPipelined(arb, async (v) => {
      mine.push(v);
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      return undefined;
    }, { seed: 9, runs: 150, window: 32 });
    expect(r).toEqual({ seed: 9, runs: 150, interrupted: false });
    expect(mine).toEqual(theirs);
    expect(most).toBe(32);
  });

  it('shrinks the first failure one call at a time and replays it from its path', async () => {
    const judge = async (n: number): Promise<string | undefined> => (n >= 1000 ? `${n} is too big` : undefined);
    const r = await checkPipelined(fc.nat(1_000_000), judge, { seed: 3, runs: 100 });
    expect(r.failure?.input).toBe(1000);
    expect(r.failure?.reason).toBe('1000 is too big');
    expect(r.failure?.replay).toBe(`3:${r.failure?.path}`);
    expect(r.failure?.shrinks).toBeGreaterThan(0);
    const again = await checkPipelined(fc.nat(1_000_000), judge, { seed: 3, runs: 100, path: r.failure?.path ?? '' });
    expect(again.failure?.input).toBe(1000);
  });

  it('judges a failing input again to say why, and counts only the inputs before it', async () => {
    let calls = 0;
    const r = await checkPipelined(fc.integer({ min: 0, max: 9 }), async (n) => (++calls, n === 7 ? 'seven' : undefined), { seed: 1, runs: 500, window: 10 });
    expect(r.failure).toMatchObject({ input: 7, reason: 'seven' });
    expect(r.runs).toBeLessThan(500);
    expect(calls).toBeLessThan(100);
  });

  it('stops trying new inputs when the time is up, and says so', async () => {
    const r = await checkPipelined(fc.nat(), async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return undefined;
    }, { seed: 2, runs: 10_000, window: 4, timeMs: 60 });
    expect(r.interrupted).toBe(true);
    expect(r.runs).toBeLessThan(10_000);
    expect(r.failure).toBeUndefined();
  });

  it('a million inputs within a time limit: judges as many as the time allows, never all drawn first', async () => {
    const r = await checkPipelined(fc.record({ s: fc.string(), n: fc.nat() }), async () => undefined, { seed: 5, runs: 1_000_000, timeMs: 300 });
    expect(r.interrupted).toBe(true);
    expect(r.runs).toBeGreaterThan(500);
    expect(r.runs).toBeLessThan(1_000_000);
  });
});
