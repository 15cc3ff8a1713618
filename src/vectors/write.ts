/**
 * Writes vector files: YAML with every signature content and multipart body shown
 * with visible LFs (see {@link visibleScalar}). Used by authoring tools and by
 * `pgv2kit generate`; the loader reads what it writes byte for byte.
 * @module
 */
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { yaml } from '../deps.js';
import { hasInvisible, visibleScalar } from './visible-text.js';

/**
 * Serialises a vector file object to YAML text.
 * @param file - the vector file (kind, title, cases …)
 * @returns YAML text ending in one LF
 * @example stringifyVectorFile({ kind: 'signature', title: 't', cases: [] })
 */
export function stringifyVectorFile(file: object): string {
  // no anchors and aliases for objects used twice (a provenance shared by the cases of one run):
  // a vector file is read by every language's YAML parser, and the loader limits aliases
  const { Document, Scalar, visit } = yaml();
  const doc = new Document(file, { aliasDuplicateObjects: false });
  const marked = new Map<string, string>();
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string') return;
      const text = node.value;
      if (/[\n\r]/.test(text) || hasInvisible(text)) {
        const token = `__VISIBLE_${marked.size}__`;
        marked.set(token, text);
        node.value = token;
        node.type = Scalar.PLAIN;
      } else if (text !== text.trim()) {
        node.type = Scalar.QUOTE_DOUBLE;
      }
    },
  });
  const out = doc.toString({ lineWidth: 0, minContentWidth: 0, doubleQuotedMinMultiLineLength: 1e9 });
  // one pass over the text (ten thousand cases are ten thousand tokens)
  return out.replace(/__VISIBLE_\d+__/g, (token, at: number) => {
    const text = marked.get(token);
    if (text === undefined) return token;
    const lineStart = out.lastIndexOf('\n', at) + 1;
    const indent = `${/^ */.exec(out.slice(lineStart, at))?.[0] ?? ''}  `;
    return visibleScalar(text, indent);
  });
}

/** What {@link appendCases} did, and how to take it back. */
export interface Appended {
  /** True when the file was created, false when the cases were appended to it. */
  readonly created: boolean;
  /** Restores the file as it was (removes it when it was created). */
  undo(): void;
}

/**
 * Writes cases into a vector file without touching what is there: a new file (created
 * exclusively, with `kind`, `title` and `description`), or the cases' YAML appended after an
 * existing file's own text, byte for byte as it was.
 * @param file - the vector file
 * @param header - kind, title and description of a new file
 * @param cases - the cases, schema-valid
 * @returns whether the file was created, and how to undo the write
 * @example const { undo } = appendCases(`${tmp}/mine.yaml`, { kind: 'signature', title: 't' }, []); undo();
 */
export function appendCases(
  file: string,
  header: { readonly kind: string; readonly title: string; readonly description?: string },
  cases: readonly object[],
): Appended {
  const generated = stringifyVectorFile({ ...header, cases });
  if (!existsSync(file)) {
    writeFileSync(file, generated, { flag: 'wx' });
    return { created: true, undo: () => unlinkSync(file) };
  }
  const before = readFileSync(file, 'utf8');
  const block = generated.slice(generated.indexOf('\ncases:\n') + '\ncases:\n'.length);
  writeFileSync(file, before + (before.endsWith('\n') ? '' : '\n') + block);
  return { created: false, undo: () => writeFileSync(file, before) };
}
