/**
 * The pipelined engine: the inputs fast-check's own run would try, judged many at a time,
 * the first failure shrunk by fast-check (one call at a time), replayable from its path.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPipelined } from '../../src/properties/engine.js';

describe('checkPipelined', () => {
  it('judges the inputs of fast-check’s own run, in its order, many at a time', async () => {
    const arb = fc.record({
      n: fc.nat(1_000_000),
      s: fc.string({ maxLength: 8 }),
      b: fc.uint8Array({ maxLength: 16 }),
    });
    const theirs: unknown[] = [];
    fc.check(
      fc.property(arb, (v) => (theirs.push(v), true)),
      { seed: 9, numRuns: 150 },
    );
    const mine: unknown[] = [];
    let inFlight = 0;
    let most = 0;
    const r = await checkPipelined(
      arb,
      async (v) => {
        mine.push(v);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
        return undefined;
      },
      { seed: 9, runs: 150, window: 32 },
    );
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
    const r = await checkPipelined(
      fc.integer({ min: 0, max: 9 }),
      async (n) => (++calls, n === 7 ? 'seven' : undefined),
      { seed: 1, runs: 500, window: 10 },
    );
    expect(r.failure).toMatchObject({ input: 7, reason: 'seven' });
    expect(r.runs).toBeLessThan(500);
    expect(calls).toBeLessThan(100);
  });

  it('stops trying new inputs when the time is up, and says so', async () => {
    const r = await checkPipelined(
      fc.nat(),
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return undefined;
      },
      { seed: 2, runs: 10_000, window: 4, timeMs: 60 },
    );
    expect(r.interrupted).toBe(true);
    expect(r.runs).toBeLessThan(10_000);
    expect(r.failure).toBeUndefined();
  });

  it('a million inputs within a time limit: judges as many as the time allows, never all drawn first', async () => {
    const r = await checkPipelined(fc.record({ s: fc.string(), n: fc.nat() }), async () => undefined, {
      seed: 5,
      runs: 1_000_000,
      timeMs: 300,
    });
    expect(r.interrupted).toBe(true);
    expect(r.runs).toBeGreaterThan(500);
    expect(r.runs).toBeLessThan(1_000_000);
  });

  it('keeps the window full: a slow input holds one slot, the others go on', async () => {
    let inFlight = 0;
    let most = 0;
    let startedWhileSlow = 0;
    let slowPending = false;
    const r = await checkPipelined(
      fc.nat(),
      async () => {
        const slow = !slowPending && inFlight === 0; // the very first input is slow
        if (slowPending) startedWhileSlow++;
        most = Math.max(most, ++inFlight);
        if (slow) slowPending = true;
        await new Promise((resolve) => setTimeout(resolve, slow ? 80 : 1));
        if (slow) slowPending = false;
        inFlight--;
        return undefined;
      },
      { seed: 4, runs: 400, window: 8 },
    );
    expect(r).toEqual({ seed: 4, runs: 400, interrupted: false });
    expect(most).toBe(8);
    // batches would wait for the slow one: at most 7 others could start while it lasted
    expect(startedWhileSlow).toBeGreaterThan(20);
  });

  it('the first failure is the earliest input that fails, whatever order the verdicts come back in', async () => {
    const arb = fc.integer({ min: 0, max: 99 });
    const values: number[] = [];
    fc.check(
      fc.property(arb, (v) => (values.push(v), true)),
      { seed: 6, numRuns: 300 },
    );
    const failsAt = (v: number): boolean => v % 10 === 3;
    const first = values.findIndex(failsAt);
    const second = values.findIndex((v, i) => i > first && failsAt(v));
    expect(first).toBeGreaterThanOrEqual(0);
    expect(second).toBeGreaterThan(first);
    let i = 0;
    const r = await checkPipelined(
      arb,
      async (v) => {
        const index = i++;
        // the earlier failure answers last: later inputs' verdicts arrive first
        await new Promise((resolve) => setTimeout(resolve, index === first ? 30 : 1));
        return failsAt(v) ? `${v} ends in 3` : undefined;
      },
      { seed: 6, runs: 300, window: 64 },
    );
    expect(r.runs).toBe(first + 1);
    expect(r.failure?.input).toBe(3); // shrunk from the first failure
  });

  it('goes to the failing run by its path: the inputs before it are not judged again', async () => {
    const arb = fc.nat(1_000_000);
    const values: number[] = [];
    fc.check(
      fc.property(arb, (v) => (values.push(v), true)),
      { seed: 8, numRuns: 600 },
    );
    const target = values[500] ?? -1;
    expect(values.indexOf(target)).toBe(500);
    let calls = 0;
    const r = await checkPipelined(arb, async (n) => (++calls, n === target ? 'the one' : undefined), {
      seed: 8,
      runs: 600,
      window: 16,
    });
    expect(r.failure).toMatchObject({ input: target, reason: 'the one' });
    expect(r.runs).toBe(501);
    // 501 judged while drawing, up to 15 more in flight, then the shrink candidates (none fails) —
    // not the 500 before it once more
    expect(calls).toBeGreaterThan(500);
    expect(calls).toBeLessThan(501 + 15 + 200);
  });
});
