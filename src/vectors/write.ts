/**
 * Writes vector files: YAML with every signature content and multipart body shown
 * with visible LFs (see {@link visibleScalar}). Used by authoring tools and by
 * `pgv2kit generate`; the loader reads what it writes byte for byte.
 * @module
 */
import { Document, Scalar, visit } from 'yaml';
import { hasInvisible, visibleScalar } from './visible-text.js';

/**
 * Serialises a vector file object to YAML text.
 * @param file - the vector file (kind, title, cases …)
 * @returns YAML text ending in one LF
 * @example stringifyVectorFile({ kind: 'signature', title: 't', cases: [] })
 */
export function stringifyVectorFile(file: object): string {
  const doc = new Document(file);
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
  let out = doc.toString({ lineWidth: 0, minContentWidth: 0, doubleQuotedMinMultiLineLength: 1e9 });
  for (const [token, text] of marked) {
    const at = out.indexOf(token);
    const lineStart = out.lastIndexOf('\n', at) + 1;
    const indent = `${/^ */.exec(out.slice(lineStart))?.[0] ?? ''}  `;
    out = out.slice(0, at) + visibleScalar(text, indent) + out.slice(at + token.length);
  }
  return out;
}
