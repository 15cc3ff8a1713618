/**
 * The HTML report (report.html): one self-contained page a person reads — inline
 * CSS, no scripts, no external resources.
 * @module
 */
import type { RunResult } from '../runner/result.js';
import { ABORT_INFO, VERDICT_INFO } from '../runner/result.js';
import { escapeHtml as h } from './escape.js';
import { pageHead, REPORT_CSS } from './style.js';
import { article, caseLink, causesSection, verdictBadge } from './_html-failures.js';
import { explanationHtml } from './explanation-html.js';
import {
  type CaseView,
  acceptableCases,
  buildModel,
  advisoryCases,
  choiceText,
  COLUMN,
  COLUMNS,
  failingCases,
  implementationLine,
  notRunOperations,
  partialGroups,
  seconds,
  skippedGroups,
  type GroupRow,
  type ReportModel,
  stoppedTitle,
} from './_model.js';
import { citePageHtml, citeRefsHtml, inKit } from '../docs/cite.js';
import { DOCS, failureRef, type DocRef } from '../docs/refs.js';

/**
 * Renders a run as one HTML page, in the order a person reads it: the verdict, why no test
 * ran (when none did), the operations that did not run and the unknown operation names
 * advertised, what was run; the likely causes, each with what its known mistake means and
 * how to fix it; the failures (failed, error, unexpected pass), each with its facts, every
 * step's expected against got side by side (or why it did not run) and the diagnosis — for
 * signature content, the two contents line by line (LF shown as `⏎`, CR as `\r`, other
 * controls escaped), differing lines highlighted and the first differing byte marked; then
 * the tables per operation (offered, cases, ran, passed, failed, error, not run), per area
 * and per spec section (folded); acceptable cases and the choice made, expected failures,
 * partial cases by the steps that did not run, skipped cases by reason, every case, and the
 * run's log. The docs are never linked (a report travels): what a page says is written in
 * the page, and the page named (src/docs/cite.ts).
 *
 * Everything is HTML-escaped; secrets are masked as in {@link toResultsJson}.
 * @param run - the run
 * @param secrets - the app secrets used in the run's vectors
 * @returns the HTML document
 * @example toHtml(run, [appSecret]).includes('</html>') // true
 */
export function toHtml(run: RunResult, secrets: readonly string[]): string {
  return htmlFromModel(buildModel(run, secrets), secrets);
}

/**
 * {@link toHtml} from a report model already built (the writer builds it once).
 * @param m - the run's model
 * @param secrets - the secrets (unused: the model is masked; a rendered page is never masked as text)
 * @returns the HTML document
 */
export function htmlFromModel(m: ReportModel, secrets: readonly string[]): string {
  const failing = failingCases(m);
  const acceptable = acceptableCases(m);
  const xfail = m.cases.filter((c) => c.verdict === 'expected-failure');
  const skipped = skippedGroups(m);
  const partial = partialGroups(m);
  const notRun = notRunOperations(m);
  const title = `${m.kit.name} report: ${m.subject}`;
  const notRunOps = notRun.map((o) => {
    const why = o.offered ? 'answered unsupported' : 'not offered';
    return `<code>${h(o.op)}</code> (${why}, ${o.notRun} step${o.notRun === 1 ? '' : 's'})`;
  });
  const docsNote =
    `the docs: ${inKit({ kind: 'failure', label: 'docs', file: DOCS.index })} ` +
    '(node_modules/pgv2kit when installed): the spec, the readings, every known mistake and failure kind';
  const body = [
    '<header>',
    `<h1>${h(title)}</h1>`,
    `<p class="summary ${m.conformant ? (m.totals.partial > 0 ? 'partial' : 'ok') : 'bad'}">${h(m.summary)}</p>`,
    m.aborted ? abortedBox(m.aborted) : '',
    m.stopped
      ? `<p class="notice bad"><strong>${stoppedTitle(m.stopped.kind)}: ${h(m.stopped.reason)}.</strong> ` +
        `${m.stopped.notRun} selected case${m.stopped.notRun === 1 ? '' : 's'} did not run: ` +
        'this report covers only what ran.</p>'
      : '',
    // a run that ended before any case has its fix in the box above: the no-test-ran fix (the handshake, the
    // selection) is not its
    m.noTestRan !== undefined
      ? `<div class="notice bad"><p><strong>${h(m.noTestRan)}</strong>: this run checked nothing.</p>` +
        `${m.aborted ? '' : explanationHtml(failureRef('no-test-ran'), 'fix')}</div>`
      : '',
    m.otherTargets
      ? `<p class="notice">${h(m.otherTargets.message)}. ` +
        `<span class="ref">${pageCite(failureRef('other-targets'))}</span></p>`
      : '',
    notRun.length > 0
      ? `<p class="notice warn"><strong>Not run</strong>: ${notRunOps.join(', ')}. ` +
        'Cases with such a step are partial or skipped, never passed.</p>'
      : '',
    ...m.unknownOperations.map((u) => `<p class="notice warn"><strong>Warning</strong>: ${h(u.message)}</p>`),
    meta(m),
    '</header>',
    '<nav>',
    [
      ...(m.causes.length > 0 ? [['causes', `Likely causes (${m.causes.length})`]] : []),
      ['failures', `Failures (${failing.length})`],
      ['operations', 'By operation'],
      ['kinds', 'By kind'],
      ['sections', 'By spec section'],
      ['acceptable', `Acceptable (${acceptable.length})`],
      ['xfail', `Expected failures (${xfail.length})`],
      ['partial', `Partial (${m.totals.partial})`],
      ['skipped', `Skipped (${m.totals.skipped})`],
      ['all', 'All cases'],
      ['log', 'Log'],
    ]
      .map(([id, text]) => `<a href="#${id}">${h(text ?? '')}</a>`)
      .join(' · '),
    '</nav>',
    causesSection(m),
    `<section id="failures"><h2>Failures (${failing.length})</h2>`,
    failing.length === 0 ? '<p>None.</p>' : failing.map(article).join('\n'),
    '</section>',
    `<section id="operations"><h2>By operation</h2>${operationTable(m)}</section>`,
    `<section id="kinds"><h2>By kind</h2>${table('kind', m.byKind)}</section>`,
    '<section id="sections"><h2>By spec section</h2><details>' +
      `<summary>Show the ${m.bySection.length} section${m.bySection.length === 1 ? '' : 's'}</summary>` +
      `${table('section', m.bySection)}</details></section>`,
    `<section id="acceptable"><h2>Acceptable cases: what the implementation chose (${acceptable.length})</h2>`,
    rows(
      ['case', 'chose', 'message'],
      acceptable.map((c) => [caseLink(c), h(choiceText(c)), h(c.message)]),
    ),
    '</section>',
    ...advisorySection(advisoryCases(m)),
    `<section id="xfail"><h2>Expected failures (${xfail.length})</h2>`,
    rows(
      ['case', 'listed reason', 'message'],
      xfail.map((c) => [caseLink(c), h(c.listedReason ?? ''), h(c.message)]),
    ),
    '</section>',
    `<section id="partial"><h2>Partial (${m.totals.partial})</h2>`,
    partial.length === 0
      ? '<p>None.</p>'
      : partial
          .map(
            (g) =>
              `<h3>Not run: ${g.notRun.map((op) => `<code>${h(op)}</code>`).join(', ')} (${g.cases.length})</h3>` +
              `<p>${g.cases.map((c) => `<code>${h(c.id)}</code>`).join(', ')}</p>`,
          )
          .join('\n'),
    '</section>',
    `<section id="skipped"><h2>Skipped (${m.totals.skipped})</h2>`,
    skipped.length === 0
      ? '<p>None.</p>'
      : skipped
          .map(
            (g) =>
              `<h3>${h(g.reason)} (${g.cases.length})</h3>` +
              `<p>${g.cases.map((c) => `<code>${h(c.id)}</code>`).join(', ')}</p>`,
          )
          .join('\n'),
    '</section>',
    m.staleListEntries.length > 0
      ? `<section id="stale"><h2>Stale expected-failure entries (${m.staleListEntries.length})</h2>` +
        '<p>Listed, but not in this run:</p>' +
        `<ul>${m.staleListEntries.map((id) => `<li><code>${h(id)}</code></li>`).join('')}</ul></section>`
      : '',
    `<section id="all"><h2>All cases (${m.cases.length})</h2><details><summary>Show every case</summary>`,
    rows(
      ['case', 'kind', 'result', 'verdict', 'message', 'ms'],
      m.cases.map((c) => [
        caseLink(c),
        h(c.kind),
        h(c.result),
        verdictBadge(c.verdict),
        h(c.message),
        String(c.durationMs),
      ]),
    ),
    '</details></section>',
    `<section id="log"><h2>Log (${m.log.length} line${m.log.length === 1 ? '' : 's'})</h2>`,
    m.log.length === 0
      ? '<p>Empty.</p>'
      : `<details><summary>Show the log</summary><pre class="log">${m.log.map(h).join('\n')}</pre></details>`,
    '</section>',
    `<footer>${h(`${m.kit.name} ${m.kit.version} · vector set ${m.vectorSetHash}`)} · ${h(docsNote)}</footer>`,
  ];
  const page = [...pageHead(h(title), REPORT_CSS), '<body>', ...body.filter((l) => l !== ''), '</body>', '</html>', ''];
  // every text came masked from the model (buildModel): a rendered page is never rewritten, so a secret that is
  // markup cannot turn the page's own tags into live ones (issue 25, item 1)
  void secrets;
  return page.join('\n');
}

// --- internal ---

/** A page named as text in the kit, its title saying what it means (see src/docs/cite.ts); '' without the page. */
function pageCite(ref: DocRef | undefined): string {
  return ref ? citePageHtml(ref, h(inKit(ref))) : '';
}

/**
 * A run that ended before any case: a red box at the top, with the command (or URL), how it ended and, for a
 * testee, its stderr's last lines.
 */
function abortedBox(a: NonNullable<ReportModel['aborted']>): string {
  const info = ABORT_INFO[a.kind];
  const stderr =
    a.kind !== 'testee-start'
      ? ''
      : a.stderrTail.length === 0
        ? '<p>stderr: nothing</p>'
        : `<p>stderr, last ${a.stderrTail.length} line${a.stderrTail.length === 1 ? '' : 's'}:</p>` +
          `<pre>${a.stderrTail.map(h).join('\n')}</pre>`;
  return (
    `<section class="aborted" id="aborted"><h2>${info.title}</h2><p>${h(a.message)}. No case ran.</p>` +
    `${explanationHtml(failureRef(a.kind), 'fix')}` +
    `<dl class="meta"><dt>${info.commandLabel}</dt><dd><code>${h(a.command)}</code></dd>` +
    `<dt>ended</dt><dd>${h(a.ended)}</dd></dl>${stderr}</section>`
  );
}

function meta(m: ReportModel): string {
  const sel = [
    m.selection.only.length > 0 ? `only ${m.selection.only.join(', ')}` : '',
    m.selection.skip.length > 0 ? `skip ${m.selection.skip.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const items: Array<[string, string]> = [
    ['Implementation', h(implementationLine(m))],
    ['Kit', h(`${m.kit.name} ${m.kit.version}`)],
    ['Vector set', `<code>${h(m.vectorSetHash)}</code>`],
    ['Target', `${h(m.target.kind)}: <code>${h(m.target.description)}</code>`],
    ['Run', h(m.runName)],
    ['Date', h(`${m.startedAt} → ${m.finishedAt} (${seconds(m.durationMs)} s)`)],
    ['Selection', h(sel || 'all cases')],
  ];
  return `<dl class="meta">${items.map(([k, v]) => `<dt>${h(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function operationTable(m: ReportModel): string {
  if (m.operations.length === 0) return '<p>No operations.</p>';
  const num = (n: number, bad = false): string =>
    `<td class="${n === 0 ? 'num zero' : bad ? 'num v-failed' : 'num'}">${n}</td>`;
  const columns = ['operation', 'offered', 'cases', 'ran', 'passed', 'failed', 'error', 'not run'];
  const head = `<tr>${columns.map((c) => `<th>${h(c)}</th>`).join('')}</tr>`;
  const body = m.operations.map(
    (o) =>
      `<tr><td><code>${h(o.op)}</code></td>` +
      `<td${o.offered ? '' : ' class="v-partial"'}>${o.offered ? 'yes' : 'no'}</td>` +
      `${num(o.cases)}${num(o.ran)}${num(o.passed)}${num(o.failed, true)}${num(o.error, true)}` +
      `<td class="${o.notRun === 0 ? 'num zero' : 'num v-partial'}">${o.notRun}</td></tr>`,
  );
  return (
    `<div class="scroll"><table class="counts"><thead>${head}</thead>` + `<tbody>${body.join('')}</tbody></table></div>`
  );
}

function table(first: string, groups: readonly GroupRow[]): string {
  const verdicts = COLUMNS;
  if (groups.length === 0) return '<p>No cases.</p>';
  const headCells = verdicts.map((v) => `<th title="${h(VERDICT_INFO[v].description)}">${h(COLUMN[v])}</th>`);
  const head = `<tr><th>${h(first)}</th><th>cases</th>${headCells.join('')}</tr>`;
  const body = groups.map((g) => {
    const cells = verdicts.map((v) => {
      const n = g.counts[v];
      const cls = n === 0 ? 'num zero' : VERDICT_INFO[v].failsRun ? 'num v-failed' : 'num';
      return `<td class="${cls}">${n}</td>`;
    });
    const name = first === 'section' ? citeRefsHtml(h(g.name), true) : h(g.name);
    return `<tr><td>${name}</td><td class="num">${g.total}</td>${cells.join('')}</tr>`;
  });
  return (
    `<div class="scroll"><table class="counts"><thead>${head}</thead>` + `<tbody>${body.join('')}</tbody></table></div>`
  );
}

/** Cases that passed with an advisory (R16: a 5xx counted as a refusal); nothing when none did. */
function advisorySection(cases: readonly CaseView[]): string[] {
  if (cases.length === 0) return [];
  return [
    `<section id="advisories"><h2>Advisories: passed, but worth saying (${cases.length})</h2>`,
    rows(
      ['case', 'advisory', 'message'],
      cases.map((c) => [caseLink(c), h(c.advisory ?? ''), h(c.message)]),
    ),
    '</section>',
  ];
}

/**
 * A table in its scroll box; the columns of free text (a message, a reason) wrap anywhere, so that a long value in
 * one never widens the table.
 */
function rows(head: readonly string[], cells: ReadonlyArray<readonly string[]>): string {
  if (cells.length === 0) return '<p>None.</p>';
  const td = head.map((c) => (LONG_COLUMNS.has(c) ? '<td class="long">' : '<td>'));
  const headRow = `<tr>${head.map((c) => `<th>${h(c)}</th>`).join('')}</tr>`;
  const bodyRows = cells.map((r) => `<tr>${r.map((c, i) => `${td[i] ?? '<td>'}${c}</td>`).join('')}</tr>`);
  return `<div class="scroll"><table><thead>${headRow}</thead><tbody>${bodyRows.join('')}</tbody></table></div>`;
}

const LONG_COLUMNS = new Set(['message', 'listed reason', 'advisory']);
