/**
 * The part of report.html a person reads first: the likely causes, each with what its known
 * mistake means and how to fix it, and one article per failing case — its facts, each step's
 * expected against got (or why it did not run), the contents line by line, the diagnosis.
 * @module
 */
import type { Verdict } from '../runner/result.js';
import { VERDICT_INFO } from '../runner/result.js';
import { citePageHtml, citeRefsHtml } from '../docs/cite.js';
import { explanationHtml } from './explanation-html.js';
import { failureRef, mistakeRef } from '../docs/refs.js';
import { escapeHtml as h } from './escape.js';
import { contentTable, diffTable } from './_html-content.js';
import { notRunReason, type CaseView, type OpView, type ReportModel } from './_model.js';
import { clipped, jsonText } from './_text.js';

/**
 * The likely causes, most cases first: each with its count, what its known mistake means and
 * how to fix it (written out: the report is read where no docs/ folder is), and the cases it
 * explains (linked to their articles).
 * @param m - the model
 * @returns the section, or '' when nothing failed
 */
export function causesSection(m: ReportModel): string {
  if (m.causes.length === 0) return '';
  const byId = new Map(m.cases.map((c) => [c.id, c]));
  const items = m.causes.map((cause) => {
    const links = cause.cases.map((id) => {
      const c = byId.get(id);
      return c ? caseLink(c) : `<code>${h(id)}</code>`;
    });
    const notes = [
      ...(cause.refusals ? [`${cause.refusals} of them genuine messages refused, which it explains`] : []),
      ...(cause.consequences > 0
        ? [`${cause.rootCauses} in the scheme's operations, ${cause.consequences} in the roles`]
        : []),
    ];
    const where = notes.length > 0 ? ` <span class="ref">(${notes.join('; ')})</span>` : '';
    const page = cause.mistake ? mistakeRef(cause.mistake) : undefined;
    const plural = cause.count === 1 ? '' : 's';
    const mistake = cause.mistake ? ` <code>${h(cause.mistake)}</code>` : '';
    return (
      `<li><strong>${cause.count} case${plural}</strong>: ${citeRefsHtml(h(cause.title))}${mistake}${where}` +
      `${explanationHtml(page)}<details><summary>the case${plural}</summary>${links.join(', ')}</details></li>`
    );
  });
  return (
    '<section id="causes"><h2>Likely causes, most cases first</h2>' +
    `<ol class="causes">${items.join('')}</ol></section>`
  );
}

/**
 * One failing case: its facts, message, how to run it alone, its diagnosis (each mistake's
 * fix folded under it) and its steps.
 * @param c - a failing case
 * @returns the article
 */
export function article(c: CaseView): string {
  const code = (x: string): string => `<code>${h(x)}</code>`;
  const list = (a: readonly string[]): string => (a.length > 0 ? a.map(code).join(', ') : '—');
  const refs = (a: readonly string[]): string =>
    a.length > 0 ? a.map((x) => `<code>${citeRefsHtml(h(x), true)}</code>`).join(', ') : '—';
  const out = [
    `<article class="case" id="${h(anchor(c))}">`,
    `<h3>${citePageHtml(failureRef(c.verdict), verdictBadge(c.verdict))} <code>${h(c.id)}</code></h3>`,
    `<p class="comment">${h(c.comment)}</p>`,
    `<p class="facts">file <code>${h(c.file)}</code> · result <strong>${h(c.result)}</strong>` +
      ` · spec ${refs(c.spec)} · readings ${refs(c.readings)} · flags ${list(c.flags)}</p>`,
    `<p class="message">${citeRefsHtml(h(c.message))}</p>`,
  ];
  if (c.property?.replay !== undefined) {
    out.push(
      `<p class="facts">property: seed ${c.property.seed}, ${c.property.runs} inputs, ` +
        `${c.property.shrinks ?? 0} shrinks; replay <code>--replay ${h(c.id)}=${h(c.property.replay)}</code></p>`,
    );
    const shrunk = JSON.stringify(c.property.counterexample ?? null, null, 2).slice(0, 4000);
    out.push(`<details open><summary>Counterexample (shrunk)</summary><pre>${h(shrunk)}</pre></details>`);
  }
  out.push(`<p class="facts">reproduce: <code>${h(c.reproduce)}</code></p>`);
  if (c.curl)
    out.push(
      `<details><summary>the request again, with curl</summary><pre>${h(c.curl)}</pre>` +
        '<p class="ref">A gateway may refuse it now for its timestamp, or for its nonce, used once.</p></details>',
    );
  if (c.verdict === 'unexpected-pass')
    out.push(
      `<p>Listed as an expected failure${c.listedReason ? ` (${h(c.listedReason)})` : ''} but passed: ` +
        'update the list (<code>--update-expect-failures</code>).</p>',
    );
  if (c.diagnosis.length > 0) {
    out.push('<div class="diagnosis"><h4>Diagnosis</h4><ul>');
    for (const d of c.diagnosis) {
      const fix = explanationHtml(mistakeRef(d.mistake));
      const fixDetails = fix ? `<details><summary>what it means, how to fix it</summary>${fix}</details>` : '';
      out.push(
        `<li><code>${h(d.mistake)}</code>: ${citeRefsHtml(h(d.message))} ` +
          `<span class="ref">(${citeRefsHtml(h(d.ref), true)})</span>${fixDetails}</li>`,
      );
    }
    out.push('</ul></div>');
  }
  for (const o of c.ops) out.push(op(o));
  out.push('</article>');
  return out.join('\n');
}

/**
 * A verdict as a coloured badge.
 * @param v - the verdict
 * @returns the HTML
 */
export function verdictBadge(v: Verdict): string {
  return `<span class="verdict v-${v}">${h(VERDICT_INFO[v].title)}</span>`;
}

/**
 * A case's id, linked to its article when it has one (a failing case).
 * @param c - the case
 * @returns the HTML
 */
export function caseLink(c: CaseView): string {
  const failing = VERDICT_INFO[c.verdict].failsRun;
  return failing ? `<a href="#${h(anchor(c))}"><code>${h(c.id)}</code></a>` : `<code>${h(c.id)}</code>`;
}

// --- internal ---

function anchor(c: CaseView): string {
  return `case-${c.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}

/**
 * A step: its status and message, then what it was sent, expected against got and the contents — or, for a step
 * that did not run, why.
 */
function op(o: OpView): string {
  const notRun = notRunReason(o);
  if (notRun !== undefined)
    return `<div class="op"><h4><code>${h(o.op)}</code> <span class="s-skip">${h(notRun)}</span></h4></div>`;
  const out = [
    `<div class="op"><h4><code>${h(o.op)}</code> <span class="s-${o.status}">${h(o.status)}</span>: ` +
      `${citeRefsHtml(h(o.message))} <span class="ref">(${o.durationMs} ms)</span></h4>`,
  ];
  if (o.input !== undefined)
    out.push(`<details open><summary>sent</summary><pre>${h(clipped(jsonText(o.input)))}</pre></details>`);
  const sbs =
    `<div class="sbs"><div><h5>expected</h5><pre>${h(jsonText(o.expected))}</pre></div>` +
    `<div><h5>got</h5><pre>${h(jsonText(o.got))}</pre></div></div>`;
  if (o.content?.diff) {
    out.push(diffTable(o.content.diff), `<details><summary>expected and got as JSON</summary>${sbs}</details>`);
  } else {
    if (o.content?.expected || o.content?.got) {
      out.push('<div class="sbs">');
      out.push(`<div>${o.content.expected ? contentTable(o.content.expected, 'expected content') : ''}</div>`);
      out.push(`<div>${o.content.got ? contentTable(o.content.got, 'content got') : ''}</div>`);
      out.push('</div>');
    }
    out.push(sbs);
  }
  out.push('</div>');
  return out.join('\n');
}
