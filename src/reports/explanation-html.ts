/**
 * A known mistake's or a failure kind's explanation written out in HTML where it is read
 * (report.html, certification.html): what it means, how to fix it, and the page named as text
 * — no link, see src/docs/cite.ts.
 * @module
 */
import { citeRefsHtml, explained } from '../docs/cite.js';
import type { DocRef } from '../docs/refs.js';
import { escapeHtml as h } from './escape.js';

/**
 * What a page explains, written out: what it means, how to fix it, and the page named as text.
 * @param ref - a known mistake's or a failure kind's page
 * @param only - `fix` for how to fix it alone (where the box already says what happened)
 * @returns the HTML, or '' when there is no such page
 * @example
 * import { mistakeRef } from '../docs/refs.js';
 * explanationHtml(mistakeRef('no-final-lf')) // '<div class="explained"><p><strong>What it means</strong>: …'
 */
export function explanationHtml(ref: DocRef | undefined, only?: 'fix'): string {
  const e = explained(ref);
  if (!e) return '';
  const means = only === 'fix' ? '' : `<p><strong>What it means</strong>: ${withCode(e.means)}</p>`;
  return (
    `<div class="explained">${means}<p><strong>How to fix it</strong>: ${withCode(e.fix)}</p>` +
    `<p class="ref">${h(e.page)}</p></div>`
  );
}

/**
 * Text whose `code` spans (a page's explanation) become `<code>`, everything escaped, the
 * readings and sections it cites marked as citations.
 * @param text - plain text with `code` spans in backticks
 * @returns the HTML
 * @example withCode('append an `LF`') // 'append an <code>LF</code>'
 */
export function withCode(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) => (i % 2 === 1 ? `<code>${h(part.slice(1, -1))}</code>` : citeRefsHtml(h(part))))
    .join('');
}
