/**
 * A first-in first-out queue whose `shift` is O(1). `Array#shift` copies the whole
 * array once it is large (V8 moves every element), which made a session with many
 * queued calls quadratic.
 * @module
 */

/** A FIFO: push at the back, shift from the front, look at the first few. */
export class Fifo<T> implements Iterable<T> {
  private items: (T | undefined)[] = [];
  private first = 0;

  /** How many items are queued. */
  get length(): number {
    return this.items.length - this.first;
  }

  /**
   * The item `index` places from the front.
   * @param index - 0 for the front
   * @returns the item, or undefined past the end
   */
  at(index: number): T | undefined {
    return this.items[this.first + index];
  }

  /**
   * Adds an item at the back.
   * @param item - the item
   */
  push(item: T): void {
    this.items.push(item);
  }

  /**
   * Removes the front item.
   * @returns the item, or undefined when empty
   */
  shift(): T | undefined {
    if (this.first >= this.items.length) return undefined;
    const item = this.items[this.first];
    this.items[this.first++] = undefined;
    // Drop the consumed slots now and then: amortised O(1), the array never grows without bound.
    if (this.first >= 1024 && this.first * 2 >= this.items.length) {
      this.items = this.items.slice(this.first);
      this.first = 0;
    }
    return item;
  }

  /**
   * Removes every item.
   * @returns the items, front first
   */
  drain(): T[] {
    const out = this.items.slice(this.first) as T[];
    this.items = [];
    this.first = 0;
    return out;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = this.first; i < this.items.length; i++) yield this.items[i] as T;
  }
}
