/**
 * Exchanges handed on in the order they arrived (issue 26: results.json's `exchanges` "in arrival order"), one at a
 * time, whatever order they end in: a proxy takes a number for each request as it arrives ({@link InOrder.take}),
 * says when that request's exchange is whole ({@link InOrder.done}), and the callback hears of each in number order,
 * never two at once. Used by both proxies (./proxy.ts, ./merchant-proxy.ts).
 * @module
 */

/** Items queued for the callback below which it gives the event loop a turn before each. */
const YIELD_BELOW = 64;

/**
 * Items handed to a callback in the order of their numbers.
 * @example
 * const seen: string[] = [];
 * const order = new InOrder<string>((s) => void seen.push(s));
 * const [a, b] = [order.take(), order.take()];
 * order.done(b, 'second'); // held: the first is not done
 * order.done(a, 'first');
 * await order.drained();
 * seen // ['first', 'second']
 */
export class InOrder<T> {
  #next = 1;
  #taken = 0;
  readonly #ready = new Map<number, { readonly item: T | undefined }>();
  #chain: Promise<void> = Promise.resolve();
  #error: { readonly error: unknown } | undefined;
  #idle: (() => void) | undefined;
  /** Items queued for the callback and not yet handed on. */
  #waiting = 0;

  /**
   * @param deliver - called with each item, in number order, the next only once the last has settled
   * @param onError - told of an error `deliver` throws or rejects with (default: kept, and {@link InOrder.rethrow}
   *   throws the first)
   */
  constructor(
    private readonly deliver: (item: T) => void | Promise<void>,
    private readonly onError?: (error: unknown) => void,
  ) {}

  /**
   * The next number: take one for each request as it arrives, and say {@link InOrder.done} for each.
   * @returns 1, 2, 3 …
   */
  take(): number {
    return ++this.#taken;
  }

  /**
   * Says that a number's item is whole; it is handed on once every smaller number's was.
   * @param n - a number {@link InOrder.take} gave (a number done twice keeps the first)
   * @param item - the item, or undefined when there is nothing to hand on for it (the numbers after it go on)
   */
  done(n: number, item: T | undefined): void {
    if (n < this.#next || this.#ready.has(n)) return;
    this.#ready.set(n, { item });
    for (let ready = this.#ready.get(this.#next); ready !== undefined; ready = this.#ready.get(this.#next)) {
      this.#ready.delete(this.#next);
      this.#next += 1;
      const { item: one } = ready;
      if (one === undefined) continue;
      this.#waiting += 1;
      this.#chain = this.#chain.then(async () => {
        // the event loop's turn first: items handed on back to back in microtasks kept a proxy from reading and
        // answering its requests meanwhile (32 in a burst: 5 ms added to each answer, bench/proxy-throughput.ts) —
        // while few wait: past YIELD_BELOW the callback has the loop to itself until it catches up, which slows
        // what makes items (a proxy's forwarding) to its pace, so that those waiting, and memory, stay bounded
        if (this.#waiting < YIELD_BELOW) await new Promise((resolve) => setImmediate(resolve));
        try {
          await this.deliver(one);
        } catch (e) {
          if (this.onError) this.onError(e);
          else this.#error ??= { error: e };
        } finally {
          this.#waiting -= 1;
        }
      });
    }
    if (this.#next > this.#taken) void this.#chain.then(() => this.#idle?.());
  }

  /**
   * Resolves once every number taken was done and its item handed on.
   * @returns a promise of nothing
   */
  drained(): Promise<void> {
    if (this.#next > this.#taken) return this.#chain;
    return new Promise((resolve) => {
      this.#idle = () => {
        if (this.#next > this.#taken) resolve();
      };
    });
  }

  /**
   * Throws the first error the callback gave, when no onError was given.
   * @throws {unknown} that error
   */
  rethrow(): void {
    if (this.#error) throw this.#error.error;
  }
}
