/**
 * InOrder (src/live/in-order.ts): items handed on in number order, one at a time, whatever order they are done in;
 * a number done with nothing lets the ones after it go on; an error of the callback is kept (or told) and the rest
 * are still handed on; drained() waits for every number taken.
 */
import { describe, expect, it } from 'vitest';
import { InOrder } from '../../src/live/in-order.js';

describe('InOrder', () => {
  it('hands items on in number order, one at a time, a number done with nothing skipped', async () => {
    const seen: string[] = [];
    let running = 0;
    const order = new InOrder<string>(async (s) => {
      running += 1;
      expect(running).toBe(1);
      await new Promise((r) => setTimeout(r, 1));
      seen.push(s);
      running -= 1;
    });
    const [a, b, c, d] = [order.take(), order.take(), order.take(), order.take()];
    order.done(d, 'd');
    order.done(b, 'b');
    order.done(c, undefined);
    order.done(b, 'b again'); // a number done twice keeps the first
    expect(seen).toEqual([]);
    order.done(a, 'a');
    await order.drained();
    expect(seen).toEqual(['a', 'b', 'd']);
  });

  it("a callback's error: kept for rethrow (the rest still handed on), or told to onError", async () => {
    const seen: number[] = [];
    const kept = new InOrder<number>((n) => {
      if (n === 1) throw new Error('disk full');
      seen.push(n);
    });
    kept.done(kept.take(), 1);
    kept.done(kept.take(), 2);
    await kept.drained();
    expect(seen).toEqual([2]);
    expect(() => kept.rethrow()).toThrow('disk full');
    const told: unknown[] = [];
    const reported = new InOrder<number>(
      () => Promise.reject(new Error('no space')),
      (e) => told.push(e),
    );
    reported.done(reported.take(), 1);
    await reported.drained();
    expect(told).toEqual([new Error('no space')]);
    expect(() => reported.rethrow()).not.toThrow();
  });

  it('drained() waits for a number taken and not yet done; with none taken it is settled', async () => {
    await new InOrder<number>(() => undefined).drained();
    const order = new InOrder<number>(() => undefined);
    const n = order.take();
    let drained = false;
    const waiting = order.drained().then(() => (drained = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(drained).toBe(false);
    order.done(n, 1);
    await waiting;
    expect(drained).toBe(true);
  });
});
