/**
 * HTML for signature contents: one content as numbered lines, two side by side with
 * the differing lines highlighted and the first differing byte marked.
 * @module
 */
import {
  describeDifference,
  partName,
  type ContentDiff,
  type ContentLine,
  type ContentView,
  type Token,
} from './_content.js';
import { escapeHtml } from './escape.js';

/**
 * Two contents side by side: line number, part, expected, got; differing rows have
 * class `differs`, the first differing byte is in `<mark class="first">`.
 * @param diff - the comparison
 * @returns an HTML fragment
 */
export function diffTable(diff: ContentDiff): string {
  const rows = diff.rows.map((row) => {
    const cls = row.differs ? ' class="differs"' : '';
    return (
      `<tr${cls}><td class="n">${row.number}</td><td class="part">${escapeHtml(row.part)}</td>` +
      `<td class="line">${line(row.expected, row.expectedMark)}</td>` +
      `<td class="line">${line(row.got, row.gotMark)}</td></tr>`
    );
  });
  return [
    `<p class="where">${escapeHtml(describeDifference(diff))}</p>`,
    '<table class="content diff"><thead><tr><th>#</th><th>part</th><th>expected</th><th>got</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

/**
 * One content as numbered lines.
 * @param view - the content
 * @param title - what it is (`expected content`, `content got`)
 * @returns an HTML fragment
 */
export function contentTable(view: ContentView, title: string): string {
  const rows = view.lines.map(
    (l) =>
      `<tr><td class="n">${l.number}</td><td class="part">${escapeHtml(partName(l.number))}</td>` +
      `<td class="line">${line(l, undefined)}</td></tr>`,
  );
  if (rows.length === 0)
    rows.push('<tr><td class="n"></td><td class="part"></td><td class="line"><em>(empty)</em></td></tr>');
  return [
    '<table class="content"><thead><tr><th>#</th><th>part</th>' +
      `<th>${escapeHtml(title)} (${view.length} bytes)</th></tr></thead><tbody>`,
    ...rows,
    '</tbody></table>',
  ].join('\n');
}

// --- internal ---

function line(l: ContentLine | undefined, mark: number | 'end' | undefined): string {
  const end =
    mark === 'end' ? '<mark class="first end" title="first difference: the content ends here">‹end›</mark>' : '';
  if (!l) return `<span class="missing">(no line)</span>${end}`;
  return `<code>${l.tokens.map((t, i) => token(t, i === mark)).join('')}${end}</code>`;
}

function token(t: Token, first: boolean): string {
  const text = escapeHtml(t.text);
  const html = t.kind === 'text' ? text : `<span class="${t.kind}">${text}</span>`;
  return first ? `<mark class="first" title="first differing byte: ${t.start}">${html}</mark>` : html;
}
