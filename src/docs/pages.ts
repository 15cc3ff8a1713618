/**
 * What a shipped page says: a known mistake's page (docs/mistakes/<id>.md) or a failure
 * kind's (docs/failures/<kind>.md) as text — its title, what it means and how to fix it — so
 * that a report can say it where it is read, with no link to follow.
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT, type DocRef } from './refs.js';

/** A page's explanation, as plain text: Markdown links reduced to their text, `code` spans kept in backticks. */
export interface PageText {
  /** The title its first line gives (`# \`no-final-lf\`: <title>`). */
  readonly title: string;
  /** Its section "What it means". */
  readonly means: string;
  /** Its section "How to fix it". */
  readonly fix: string;
}

/**
 * The explanation a known mistake's or a failure kind's page gives.
 * @param ref - the page, from `mistakeRef` or `failureRef`; undefined gives undefined
 * @returns the title, what it means and how to fix it, or undefined when the page is not
 *   there or lacks one of them
 * @example
 * import { mistakeRef } from './refs.js';
 * pageText(mistakeRef('no-final-lf'))?.fix // 'Append an LF after every part, the body included: …'
 */
export function pageText(ref: DocRef | undefined): PageText | undefined {
  if (!ref || (ref.kind !== 'mistake' && ref.kind !== 'failure')) return undefined;
  if (TEXTS.has(ref.file)) return TEXTS.get(ref.file);
  let text: PageText | undefined;
  try {
    text = parsePage(readFileSync(join(PACKAGE_ROOT, ...ref.file.split('/')), 'utf8'));
  } catch {
    text = undefined;
  }
  TEXTS.set(ref.file, text);
  return text;
}

/**
 * Markdown inline text as plain text: a link `[text](target)` becomes its text; `code`
 * spans and everything else stay as they are.
 * @param markdown - one paragraph of a page
 * @returns the text
 * @example plainText('see [§5.1](../gateway-spec.md#51-signature-content)') // 'see §5.1'
 */
export function plainText(markdown: string): string {
  return markdown.replace(/\[([^\]]*)\]\([^)\s]*\)/g, '$1');
}

// --- internal ---

const TEXTS = new Map<string, PageText | undefined>();

/** The title line, then the paragraphs of each `## ` section; the closing line back to the index is no section's. */
function parsePage(text: string): PageText | undefined {
  const lines = text.split('\n');
  const title = /^# `[^`]+`: (.+)$/.exec(lines[0] ?? '')?.[1]?.trim();
  const sections = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of lines.slice(1)) {
    const heading = /^##\s+(.+?)\s*$/.exec(line);
    if (heading?.[1]) {
      current = [];
      sections.set(heading[1], current);
    } else if (current && !/^\[[^\]]*\]\([^)]*README\.md[^)]*\)$/.test(line.trim())) current.push(line);
  }
  const paragraph = (name: string): string =>
    plainText(
      (sections.get(name) ?? [])
        .join('\n')
        .split(/\n\s*\n/)
        .map((p) => p.trim().replace(/\s*\n\s*/g, ' '))
        .filter((p) => p !== '')
        .join(' '),
    );
  const means = paragraph('What it means');
  const fix = paragraph('How to fix it');
  return title && means && fix ? { title, means, fix } : undefined;
}
