/**
 * YAML text of a vectors folder to data, as untrusted input: before anything is built the
 * parsed token tree (the yaml package's CST, produced without recursion) is walked for
 * collections nested past the depth limit and strings past the string limit, so the
 * composer — which recurses, and on thousands of levels overflows the stack or worse — never
 * sees them; aliases expand only to the alias limit. A refusal names the line.
 * @module
 */
import type { Document } from 'yaml';
import { yaml } from '../deps.js';
import { formatBytes } from '../bytes.js';
import type { VectorLimits } from './limits.js';

/** What parsing gave: the data, or why not (refused: over a limit; else: not valid YAML). */
export type ParsedYaml =
  | { readonly ok: true; readonly data: unknown }
  | {
      readonly ok: false;
      readonly refused: boolean;
      readonly message: string;
      readonly line?: number;
      readonly column?: number;
    };

/**
 * Parses one YAML document within the limits.
 * @param text - the file's text
 * @param limits - depth, string and alias limits
 * @returns the data, or the problem with its line
 * @example
 * import { DEFAULT_VECTOR_LIMITS } from './limits.js';
 * parseVectorYaml('a: [1]', DEFAULT_VECTOR_LIMITS) // { ok: true, data: { a: [1] } }
 */
export function parseVectorYaml(text: string, limits: VectorLimits): ParsedYaml {
  const { Composer, LineCounter, Parser } = yaml();
  const lines = new LineCounter();
  const tokens = [...new Parser(lines.addNewLine).parse(text)];
  const at = (offset: number): { line: number; column: number } => {
    const pos = lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  const over = overLimit(tokens, limits);
  if (over) return { ok: false, refused: true, message: over.message, ...at(over.offset) };

  let doc: Document.Parsed | undefined;
  let more = false;
  for (const d of new Composer({ uniqueKeys: true }).compose(tokens, true, text.length)) {
    if (doc === undefined) doc = d;
    else more = true;
  }
  if (doc === undefined) return { ok: true, data: null };
  const error = doc.errors[0];
  if (error)
    return { ok: false, refused: false, message: error.message.split('\n')[0] ?? error.code, ...at(error.pos[0]) };
  if (more) return { ok: false, refused: false, message: 'holds more than one YAML document' };
  try {
    return { ok: true, data: doc.toJS({ maxAliasCount: limits.aliases }) };
  } catch (e) {
    // the yaml package's own guard throws a ReferenceError for an alias expanding past the count
    if (e instanceof ReferenceError)
      return { ok: false, refused: true, message: `its aliases expand past the limit of ${limits.aliases} expansions` };
    return { ok: false, refused: false, message: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * What a parse that failed says of the file, after its name.
 * @param problem - the failed parse
 * @returns e.g. `is refused (line 3, column 8): nests collections more than 64 deep`, `is not valid YAML (line 2,
 * column 1): …`
 * @example
 * import { DEFAULT_VECTOR_LIMITS } from './limits.js';
 * describeYamlProblem(parseVectorYaml('a: [', DEFAULT_VECTOR_LIMITS)) // 'is not valid YAML…'
 */
export function describeYamlProblem(problem: Extract<ParsedYaml, { ok: false }>): string {
  const where =
    problem.line !== undefined
      ? ` (line ${problem.line}${problem.column !== undefined ? `, column ${problem.column}` : ''})`
      : '';
  return `${problem.refused ? 'is refused' : 'is not valid YAML'}${where}: ${problem.message}`;
}

// --- internal ---

const COLLECTIONS = new Set(['block-map', 'block-seq', 'flow-collection']);
const SCALARS = new Set(['scalar', 'single-quoted-scalar', 'double-quoted-scalar', 'block-scalar']);

/** The first place the tokens cross the depth or string limit, walked with a stack of its own. */
function overLimit(tokens: readonly object[], limits: VectorLimits): { message: string; offset: number } | undefined {
  const stack: Array<{ node: unknown; depth: number }> = tokens.map((node) => ({ node, depth: 0 }));
  while (stack.length > 0) {
    const { node, depth: above } = stack.pop() as { node: unknown; depth: number };
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, depth: above });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const token = node as { type?: unknown; offset?: unknown; source?: unknown };
    const offset = typeof token.offset === 'number' ? token.offset : 0;
    const depth = COLLECTIONS.has(String(token.type)) ? above + 1 : above;
    if (depth > limits.depth) return { message: `nests collections more than ${limits.depth} deep`, offset };
    if (
      SCALARS.has(String(token.type)) &&
      typeof token.source === 'string' &&
      token.source.length > limits.stringBytes / 4
    ) {
      const bytes = Buffer.byteLength(token.source);
      if (bytes > limits.stringBytes)
        return {
          message:
            `holds a string of ${formatBytes(bytes)}, over the limit of ` +
            `${formatBytes(limits.stringBytes)} per string (--max-vector-string)`,
          offset,
        };
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'source' && value !== null && typeof value === 'object') stack.push({ node: value, depth });
    }
  }
  return undefined;
}
