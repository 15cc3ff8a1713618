/**
 * JSON read in source order. `JSON.parse` puts integer-like keys ("0", "17") first in
 * ascending order, whatever order the text gives them; formFields must be forwarded in
 * the order received (R14), names nobody has seen before included (R15), so the client
 * reads responses with this parser instead: objects become `Map`s, which keep the text's
 * order for every key. Strict RFC 8259 grammar; a key repeated in one object is refused
 * (which of the two was meant cannot be known).
 * @module
 */

/** A JSON value read in source order: objects are Maps in the text's key order. */
export type OrderedJson = null | boolean | number | string | OrderedJson[] | OrderedObject;

/** A JSON object, keys in the order of the text. */
export type OrderedObject = Map<string, OrderedJson>;

/**
 * Parses JSON text, keeping every object's key order.
 * @param text - the JSON text
 * @returns the value
 * @throws {SyntaxError} when the text is not JSON, nests deeper than 256 levels, or repeats a key in one object
 * @example [...(parseOrderedJson('{"b":1,"0":2}') as Map<string, unknown>).keys()] // ['b', '0']
 */
export function parseOrderedJson(text: string): OrderedJson {
  const reader = new Reader(text);
  reader.space();
  const value = reader.value(0);
  reader.space();
  if (reader.at < text.length) throw reader.fail('text after the value');
  return value;
}

/**
 * Whether a value is a JSON object.
 * @param value - a parsed value
 * @returns true for an object
 * @example isOrderedObject(parseOrderedJson('{}')) // true
 */
export function isOrderedObject(value: OrderedJson | undefined): value is OrderedObject {
  return value instanceof Map;
}

// --- internal ---

const MAX_DEPTH = 256;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const SPACE = /[ \t\n\r]*/y;

class Reader {
  at = 0;
  constructor(private readonly text: string) {}

  space(): void {
    SPACE.lastIndex = this.at;
    SPACE.exec(this.text);
    this.at = SPACE.lastIndex;
  }

  value(depth: number): OrderedJson {
    if (depth > MAX_DEPTH) throw this.fail(`nesting deeper than ${MAX_DEPTH}`);
    const c = this.text[this.at];
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (c === '"') return this.string();
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = this.at;
    const n = NUMBER.exec(this.text);
    if (n) {
      this.at = NUMBER.lastIndex;
      return Number(n[0]);
    }
    throw this.fail(c === undefined ? 'the text ends where a value should be' : `unexpected ${JSON.stringify(c)}`);
  }

  string(): string {
    STRING.lastIndex = this.at;
    const m = STRING.exec(this.text);
    if (!m) throw this.fail('malformed string');
    this.at = STRING.lastIndex;
    return JSON.parse(m[0]) as string;
  }

  object(depth: number): OrderedObject {
    const map: OrderedObject = new Map();
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return map;
    }
    for (;;) {
      if (this.text[this.at] !== '"') throw this.fail('expected a key');
      const keyAt = this.at;
      const key = this.string();
      if (map.has(key)) {
        this.at = keyAt;
        throw this.fail(`key ${JSON.stringify(key)} appears twice in one object`);
      }
      this.space();
      this.expect(':');
      this.space();
      map.set(key, this.value(depth + 1));
      this.space();
      if (this.text[this.at] === '}') {
        this.at++;
        return map;
      }
      this.expect(',');
      this.space();
    }
  }

  array(depth: number): OrderedJson[] {
    const list: OrderedJson[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return list;
    }
    for (;;) {
      list.push(this.value(depth + 1));
      this.space();
      if (this.text[this.at] === ']') {
        this.at++;
        return list;
      }
      this.expect(',');
      this.space();
    }
  }

  expect(c: string): void {
    if (this.text[this.at] !== c) throw this.fail(`expected ${JSON.stringify(c)}`);
    this.at++;
  }

  fail(what: string): SyntaxError {
    return new SyntaxError(`not JSON: ${what} at offset ${this.at}`);
  }
}

const LITERALS: ReadonlyArray<readonly [string, OrderedJson]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];
