/**
 * Duplicate member names in JSON text (RFC 8259 §4: names SHOULD be unique; parsers differ on
 * which value wins). `JSON.parse` keeps the last silently: a payment created for
 * `"amount":"999999.00"` after `"amount":"1.00"` that another parser on the way read as 1.00. The
 * reference gateway refuses such a body, naming the member.
 * @module
 */

/** A member name that appears twice in one object. */
export interface DuplicateMember {
  readonly name: string;
  /** JSON pointer of the object that holds it (`""` for the top level). */
  readonly pointer: string;
}

type Frame =
  { kind: 'object'; keys: Set<string>; expectKey: boolean; lastKey: string } | { kind: 'array'; index: number };

/**
 * The first member name that appears twice in one object of a JSON text.
 * @param text - JSON text that `JSON.parse` accepts (its syntax is not checked again)
 * @returns the member and where, or undefined when every object's names are unique
 * @example duplicateMember('{"a":1,"a":2}') // { name: 'a', pointer: '' }
 */
export function duplicateMember(text: string): DuplicateMember | undefined {
  const stack: Frame[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const top = stack[stack.length - 1];
    if (ch === '"') {
      const end = stringEnd(text, i);
      if (top?.kind === 'object' && top.expectKey) {
        const name = JSON.parse(text.slice(i, end + 1)) as string;
        if (top.keys.has(name)) return { name, pointer: pointerOf(stack) };
        top.keys.add(name);
        top.lastKey = name;
        top.expectKey = false;
      }
      i = end;
    } else if (ch === '{') stack.push({ kind: 'object', keys: new Set(), expectKey: true, lastKey: '' });
    else if (ch === '[') stack.push({ kind: 'array', index: 0 });
    else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',' && top) {
      if (top.kind === 'object') top.expectKey = true;
      else top.index += 1;
    }
  }
  return undefined;
}

// --- internal ---

/** The index of the quote that closes the string starting at `start`. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length - 1;
}

/** The JSON pointer of the innermost object: each enclosing container's current member or index. */
function pointerOf(stack: readonly Frame[]): string {
  return stack
    .slice(0, -1)
    .map((f) => `/${f.kind === 'object' ? f.lastKey.replace(/~/g, '~0').replace(/\//g, '~1') : String(f.index)}`)
    .join('');
}
