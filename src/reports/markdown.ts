/**
 * The Markdown report (report.md): what an SDK team reads first, failures first.
 * @module
 */
import type { RunResult } from '../runner/result.js';
import { ABORT_INFO, VERDICT_INFO } from '../runner/result.js';
import { describeDifference } from './_content.js';
import {
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
  notRunReason,
  seconds,
  skippedGroups,
  type CaseView,
  type GroupRow,
  type OpView,
  type ReportModel,
  stoppedTitle,
} from './_model.js';
import { clipped, contentLines, diffLines, jsonText } from './_text.js';
import { visibleForbidden } from './escape.js';
import { redactorFor } from './redact.js';
import { shellLine } from '../shell-quote.js';
import { docsNamed, explained, inKit } from '../docs/cite.js';
import { DOCS, failureRef, mistakeRef, type DocRef } from '../docs/refs.js';

/**
 * Renders a run as Markdown (GitHub-flavoured), in the order a person reads it:
 * 1. the summary line, why no test ran (when none did), the operations that did not
 *    run, each operation name advertised that protocol v1 does not know, and a header
 *    (implementation, kit version, vector set hash, target, date, selection);
 * 2. the likely causes, each with what its known mistake means and how to fix it;
 * 3. the failures (root causes first): id, comment, file, spec, readings, flags; per
 *    step its message, the contents as a diff (first differing byte marked) or expected
 *    against got (or why the step did not run), and the diagnosis with its fix;
 * 4. a table per operation (offered, cases, ran, passed, failed, error, not run), one per
 *    area and one per spec section (passed, failed, error, partial, skipped, xfail, xpass);
 * 5. acceptable cases and what the implementation chose; expected failures with the
 *    listed reason; partial cases grouped by the steps that did not run; skipped
 *    cases grouped by reason; stale expected-failure entries.
 *
 * Docs are named as paths in the kit, their explanations written out (src/docs/cite.ts).
 *
 * Secrets are masked as in {@link toResultsJson}; free text is Markdown-escaped and
 * code in fences long enough for what they hold.
 * @param run - the run
 * @param secrets - the app secrets used in the run's vectors
 * @returns the Markdown text
 * @example toMarkdown(run, [appSecret])
 */
export function toMarkdown(run: RunResult, secrets: readonly string[]): string {
  return markdownFromModel(buildModel(run, secrets), secrets);
}

/**
 * {@link toMarkdown} from a report model already built (the writer builds it once).
 * @param m - the run's model
 * @param secrets - the secrets (unused: the model is masked; a rendered document is never masked as text)
 * @returns the Markdown text
 */
export function markdownFromModel(m: ReportModel, secrets: readonly string[]): string {
  const out: string[] = [];
  out.push(`# ${md(m.kit.name)} conformance report: ${md(m.subject)}`, '');
  out.push(`**${md(m.summary)}**`, '');
  if (m.aborted) out.push(...abortedBox(m.aborted));
  if (m.stopped)
    out.push(
      `> **${stoppedTitle(m.stopped.kind)}: ${md(m.stopped.reason)}.** ` +
        `${m.stopped.notRun} selected case${m.stopped.notRun === 1 ? '' : 's'} did not run: ` +
        'this report covers only what ran.',
      '',
    );
  if (m.noTestRan !== undefined)
    out.push(
      `> **${md(m.noTestRan)}**: this run checked nothing.${m.aborted ? '' : fixLine(failureRef('no-test-ran'))}`,
      '',
    );
  const others = failureRef('other-targets');
  if (m.otherTargets) out.push(`> ${md(m.otherTargets.message)}${others ? ` (${md(inKit(others))})` : ''}.`, '');
  const notRun = notRunOperations(m);
  if (notRun.length > 0) {
    const ops = notRun.map((o) => {
      const why = o.offered ? 'answered unsupported' : 'not offered';
      return `${code(o.op)} (${why}, ${o.notRun} step${o.notRun === 1 ? '' : 's'})`;
    });
    out.push(`> **Not run**: ${ops.join(', ')}. Cases with such a step are partial or skipped, never passed.`, '');
  }
  for (const u of m.unknownOperations) out.push(`> **Warning**: ${md(u.message)}`, '');
  out.push('| | |', '|---|---|');
  out.push(`| Implementation | ${cell(implementationLine(m))} |`);
  out.push(`| Kit | ${cell(`${m.kit.name} ${m.kit.version}`)} |`);
  out.push(`| Vector set | ${cellCode(m.vectorSetHash)} |`);
  out.push(`| Target | ${cell(m.target.kind)}: ${cellCode(m.target.description)} |`);
  out.push(`| Run | ${cell(m.runName)} |`);
  out.push(`| Date | ${cell(`${m.startedAt} → ${m.finishedAt} (${seconds(m.durationMs)} s)`)} |`);
  out.push(`| Selection | ${selection(m)} |`);
  const docs =
    `${DOCS.index} in the kit's folder (node_modules/pgv2kit when installed): spec sections are in ${DOCS.spec}, ` +
    `R-numbers in ${DOCS.readings}, known mistakes in ${DOCS.mistakes}/<id>.md, ` +
    `statuses and problems in ${DOCS.failures}/<kind>.md`;
  out.push(`| Docs | ${cell(docs)} |`, '');
  if (m.causes.length > 0) out.push('## Likely causes, most cases first', '', ...causeItems(m.causes), '');

  const failing = failingCases(m);
  out.push(`## Failures (${failing.length})`, '');
  if (failing.length === 0) out.push('None.', '');
  for (const c of failing) out.push(...failure(c));

  out.push('## By operation', '', ...operationTable(m), '');
  out.push('## By kind', '', ...table('kind', m.byKind), '');
  out.push('## By spec section', '', ...table('section', m.bySection), '');

  const acceptable = acceptableCases(m);
  out.push(`## Acceptable cases: what the implementation chose (${acceptable.length})`, '');
  if (acceptable.length > 0) {
    out.push('| case | chose | message |', '|---|---|---|');
    for (const c of acceptable) out.push(`| ${cellCode(c.id)} | ${cell(choiceText(c))} | ${cell(c.message)} |`);
  } else out.push('None.');
  out.push('');

  const advised = advisoryCases(m);
  if (advised.length > 0) {
    out.push(
      `## Advisories: passed, but worth saying (${advised.length})`,
      '',
      '| case | advisory | message |',
      '|---|---|---|',
    );
    for (const c of advised) out.push(`| ${cellCode(c.id)} | ${cell(c.advisory ?? '')} | ${cell(c.message)} |`);
    out.push('');
  }

  const xfail = m.cases.filter((c) => c.verdict === 'expected-failure');
  out.push(`## Expected failures (${xfail.length})`, '');
  if (xfail.length > 0) {
    out.push('| case | listed reason | message |', '|---|---|---|');
    for (const c of xfail) out.push(`| ${cellCode(c.id)} | ${cell(c.listedReason ?? '')} | ${cell(c.message)} |`);
  } else out.push('None.');
  out.push('');

  const partial = partialGroups(m);
  out.push(`## Partial (${m.totals.partial})`, '');
  if (partial.length === 0) out.push('None.', '');
  for (const g of partial)
    out.push(
      `### Not run: ${g.notRun.map(code).join(', ')} (${g.cases.length})`,
      '',
      g.cases.map((c) => code(c.id)).join(', '),
      '',
    );

  const skipped = skippedGroups(m);
  out.push(`## Skipped (${m.totals.skipped})`, '');
  if (skipped.length === 0) out.push('None.', '');
  for (const g of skipped)
    out.push(`### ${md(g.reason)} (${g.cases.length})`, '', g.cases.map((c) => code(c.id)).join(', '), '');

  if (m.staleListEntries.length > 0) {
    out.push(
      `## Stale expected-failure entries (${m.staleListEntries.length})`,
      '',
      'Listed, but not in this run:',
      '',
    );
    for (const id of m.staleListEntries) out.push(`- ${code(id)}`);
    out.push('');
  }
  out.push(`The run's log (${m.log.length} line${m.log.length === 1 ? '' : 's'}) is in \`run.log\`.`, '');
  // every text came masked from the model: the Markdown is never rewritten after it is written (issue 25, item 1)
  void secrets;
  return out.join('\n');
}

/**
 * The likely causes as a numbered list: count, title, where the cases are, and what the known mistake means and how
 * to fix it, its page named.
 */
function causeItems(causes: ReportModel['causes']): string[] {
  return causes.flatMap((c, i) => {
    const e = explained(c.mistake ? mistakeRef(c.mistake) : undefined);
    const notes = [
      ...(c.refusals ? [`${c.refusals} of them genuine messages refused, which it explains`] : []),
      ...(c.consequences > 0 ? [`${c.rootCauses} in the scheme's operations, ${c.consequences} in the roles`] : []),
    ];
    const where = notes.length > 0 ? ` (${notes.join('; ')})` : '';
    const mistake = c.mistake ? ` — ${code(c.mistake)}` : '';
    const head = `${i + 1}. **${c.count} case${c.count === 1 ? '' : 's'}**: ${md(c.title)}${mistake}${where}`;
    return e
      ? [
          head,
          `   - what it means: ${withCode(e.means)}`,
          `   - how to fix it: ${withCode(e.fix)}`,
          `   - ${md(e.page)}`,
        ]
      : [head];
  });
}

/** Failing cases a job summary lists before it points at the full report. */
export const STEP_SUMMARY_FAILURES = 20;

/**
 * A short Markdown summary of a run for a CI job page (`$GITHUB_STEP_SUMMARY`): the subject, the
 * summary line, why it stopped or did not run, the likely causes, the table by area and the first
 * failures, each with its diagnosis; the full report is named, not inlined. Secrets masked.
 * @param m - the run's model
 * @param secrets - texts to mask
 * @param reportsDir - where the run's reports were written, if they were
 * @returns Markdown, ending in a blank line
 * @example
 * import { buildModel } from './_model.js';
 * stepSummaryFromModel(buildModel(run, []), [appSecret])
 */
export function stepSummaryFromModel(m: ReportModel, secrets: readonly string[], reportsDir?: string): string {
  const out: string[] = [`### ${md(m.kit.name)}: ${md(m.subject)}`, '', `**${md(m.summary)}**`, ''];
  if (m.aborted) out.push(`> **${ABORT_INFO[m.aborted.kind].title}**: ${md(m.aborted.message)}.`, '');
  if (m.stopped)
    out.push(
      `> **${stoppedTitle(m.stopped.kind)}: ${md(m.stopped.reason)}.** ` +
        `${m.stopped.notRun} selected case${m.stopped.notRun === 1 ? '' : 's'} did not run.`,
      '',
    );
  if (m.noTestRan !== undefined && !m.aborted) out.push(`> **${md(m.noTestRan)}**: this run checked nothing.`, '');
  if (m.causes.length > 0) out.push('Likely causes, most cases first:', '', ...causeItems(m.causes), '');
  if (m.cases.length > 0) out.push(...table('kind', m.byKind), '');
  const failing = failingCases(m);
  for (const c of failing.slice(0, STEP_SUMMARY_FAILURES)) {
    const d = c.diagnosis[0];
    out.push(`- ${code(c.id)} (${VERDICT_INFO[c.verdict].title}): ${md(c.message)}${d ? ` — ${md(d.message)}` : ''}`);
  }
  if (failing.length > STEP_SUMMARY_FAILURES) out.push(`- … and ${failing.length - STEP_SUMMARY_FAILURES} more`);
  if (failing.length > 0) out.push('');
  if (reportsDir !== undefined)
    out.push(
      `Reports: ${code(redactorFor(secrets).text(reportsDir))} (report.html, report.md, junit.xml, results.json).`,
      '',
    );
  // every other text came masked from the model: the Markdown is never rewritten after it is written
  return out.join('\n');
}

/**
 * Escapes text for Markdown inline text, in any context — a paragraph, a list item, a heading, a quote, a table
 * cell: one line (line breaks become spaces), every character inline Markdown reads escaped, and what would start a
 * block where the text starts a line (a list's `-`, `+` or `1.`, a thematic break or a setext underline, leading
 * spaces or a tab that would make code) made plain text.
 * @param text - any text
 * @returns the escaped text
 * @example md('a*b_c') // 'a\\*b\\_c'
 * @example md('1. n') // '1\\. n'
 * @example md('    x') // '&#32;   x'
 */
export function md(text: string): string {
  return inline(text).replace(BLOCK_START, (m: string, space: string | undefined) =>
    space !== undefined ? `&#${space.charCodeAt(0)};` : `${m.slice(0, -1)}\\${m.slice(-1)}`,
  );
}

/**
 * Text as one Markdown code span for prose, a list item or a heading (a reproduce line, a curl line, an id): line
 * breaks as spaces, the fence longer than any run of backticks in it, and nothing else changed — what a reader copies
 * from the rendered span is the text. Not for a table cell (there `|` ends the cell: {@link cellCode}).
 * @param text - any text
 * @returns the code span
 * @example code('a | b') // '`a | b`'
 * @example code('a`b') // '``a`b``'
 */
export function code(text: string): string {
  return span(visibleForbidden(text).replace(LINE_BREAK, ' '));
}

/**
 * Text as one Markdown code span in a table cell: as {@link code}, and `|` escaped (GFM reads `\\|` in a cell as
 * `|`, even in a code span).
 * @param text - any text
 * @returns the code span
 * @example cellCode('a|b') // '`a\\|b`'
 */
export function cellCode(text: string): string {
  return span(visibleForbidden(text).replace(LINE_BREAK, ' ').replace(/\|/g, '\\|'));
}

// --- internal ---

/** What a Markdown renderer may take for a line break: LF, CR, CRLF; U+2028, U+2029 (U+0085 is made visible). */
const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/g;

/** Text escaped for inline Markdown, on one line: what {@link md} does but at the start of a line. */
function inline(text: string): string {
  return visibleForbidden(text)
    .replace(LINE_BREAK, ' ')
    .replace(/[\\`*_[\]<>|~&#!]/g, (ch) => `\\${ch}`);
}

/**
 * What starts a block at the start of a line, once inline characters are escaped: a space or a tab (code, or a list
 * item's continuation), a bullet `-` or `+` (followed by a space, a tab or nothing), a thematic break or a setext
 * underline (`---`, `=`), an ordered list's `1.` or `1)` (followed by a space, a tab or nothing). (`*`, `_`, `#`,
 * `>`, `<`, `|`, `~` and the backtick are escaped wherever they are.)
 */
const BLOCK_START = /^([ \t])|^=|^-(?=[ \t-]|$)|^\+(?=[ \t]|$)|^\d{1,9}[.)](?=[ \t]|$)/;

/**
 * A run that ended before any case: a quoted box at the top, with the command (or URL), how it ended and, for a
 * testee, its stderr's last lines.
 */
function abortedBox(a: NonNullable<ReportModel['aborted']>): string[] {
  const info = ABORT_INFO[a.kind];
  const lines = [
    `**${info.title}**: ${md(a.message)}. No case ran.${fixLine(failureRef(a.kind))}`,
    '',
    `- ${info.commandLabel}: ${code(a.command)}`,
    `- ended: ${md(a.ended)}`,
  ];
  // a testee's last stderr lines; a target not reached has none to show
  if (a.kind === 'testee-start') {
    if (a.stderrTail.length === 0) lines.push('- stderr: nothing');
    else
      lines.push(
        `- stderr, last ${a.stderrTail.length} line${a.stderrTail.length === 1 ? '' : 's'}:`,
        '',
        ...fenced(a.stderrTail, 'text'),
      );
  }
  return [...lines.map((l) => (l === '' ? '>' : `> ${l}`)), ''];
}

/** Text for a table cell: inline Markdown escaped (a cell holds no block). */
function cell(text: string): string {
  return inline(text);
}

/**
 * A page's text for Markdown prose: `code` spans kept as code, the rest escaped.
 * @param text - plain text with `code` spans in backticks
 * @returns the Markdown
 * @example withCode('append an `LF` *now*') // 'append an `LF` \\*now\\*'
 */
export function withCode(text: string): string {
  return (
    text
      .split(/(`[^`]+`)/)
      // only the first part can start a line
      .map((part, i) => (i % 2 === 1 ? code(part.slice(1, -1)) : i === 0 ? md(part) : inline(part)))
      .join('')
  );
}

/** How to fix what a failure kind's page explains, after a sentence that said what happened; '' without such a page. */
function fixLine(ref: DocRef | undefined): string {
  const e = explained(ref);
  return e ? ` How to fix it: ${withCode(e.fix)} (${md(e.page)})` : '';
}

/**
 * A code span around flat text: the fence one backtick longer than the longest run inside; padded with a space on
 * each side when the text starts or ends with a backtick or a space (CommonMark strips one from each side then).
 */
function span(flat: string): string {
  const longest = Math.max(0, ...(flat.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  const pad = /^[ `]|[ `]$/.test(flat) && /[^ ]/.test(flat) ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * Lines as a fenced code block: each line cut again at every line break a Markdown renderer sees (CR, bare or not, and
 * U+2028/U+2029 too), so no text line can close the fence or leave a quote it is in; the fence longer than any run of
 * backticks inside.
 */
function fenced(lines: readonly string[], lang = ''): string[] {
  const text = lines.flatMap((l) => visibleForbidden(l).split(LINE_BREAK));
  const longest = Math.max(2, ...text.flatMap((l) => l.match(/`+/g) ?? []).map((r) => r.length));
  const fence = '`'.repeat(longest + 1);
  return [`${fence}${lang}`, ...text, fence];
}

function selection(m: ReportModel): string {
  const only = m.selection.only.length > 0 ? `only ${m.selection.only.map(cellCode).join(', ')}` : '';
  const skip = m.selection.skip.length > 0 ? `skip ${m.selection.skip.map(cellCode).join(', ')}` : '';
  return [only, skip].filter(Boolean).join('; ') || 'all cases';
}

function operationTable(m: ReportModel): string[] {
  if (m.operations.length === 0) return ['No operations.'];
  const n = (x: number): string => (x > 0 ? String(x) : '·');
  return [
    '| operation | offered | cases | ran | passed | failed | error | not run |',
    '|---|---|--:|--:|--:|--:|--:|--:|',
    ...m.operations.map(
      (o) =>
        `| ${cellCode(o.op)} | ${o.offered ? 'yes' : '**no**'} | ${o.cases} | ${n(o.ran)} | ${n(o.passed)} | ` +
        `${n(o.failed)} | ${n(o.error)} | ${o.notRun > 0 ? `**${o.notRun}**` : '·'} |`,
    ),
  ];
}

function table(first: string, rows: readonly GroupRow[]): string[] {
  const verdicts = COLUMNS;
  const head = `| ${first} | cases | ${verdicts.map((v) => COLUMN[v]).join(' | ')} |`;
  const sep = `|---|--:|${verdicts.map(() => '--:').join('|')}|`;
  if (rows.length === 0) return ['No cases.'];
  return [
    head,
    sep,
    ...rows.map(
      (r) =>
        `| ${cell(r.name)} | ${r.total} | ` +
        `${verdicts.map((v) => (r.counts[v] > 0 ? String(r.counts[v]) : '·')).join(' | ')} |`,
    ),
  ];
}

function failure(c: CaseView): string[] {
  const list = (a: readonly string[]): string => (a.length > 0 ? a.map(code).join(', ') : '—');
  const out = [`### ${VERDICT_INFO[c.verdict].title}: ${code(c.id)}`, ''];
  out.push(md(c.comment), '');
  out.push(
    `- file: ${code(c.file)} · result: **${c.result}** · spec: ${list(c.spec)} · ` +
      `readings: ${list(c.readings)} · flags: ${list(c.flags)}`,
  );
  const cited = docsNamed([...c.spec.map((s) => `§${s}`), ...c.readings].join(', '));
  const status = failureRef(c.verdict);
  if (cited || status)
    out.push(
      `- docs, in the kit: ${[cited, status?.file]
        .filter(Boolean)
        .map((d) => code(d ?? ''))
        .join(', ')}`,
    );
  out.push(`- ${md(c.message)}`);
  if (c.property?.replay !== undefined) {
    out.push(
      `- property: seed ${c.property.seed}, ${c.property.runs} inputs, ${c.property.shrinks ?? 0} shrinks; ` +
        `replay: ${code(shellLine([{ raw: 'pgv2kit run …' }, '--replay', `${c.id}=${c.property.replay}`]))}`,
    );
    out.push(
      '',
      '  counterexample (shrunk):',
      '',
      '  ```json',
      ...JSON.stringify(c.property.counterexample ?? null, null, 2)
        .slice(0, 4000)
        .split('\n')
        .map((l) => `  ${l}`),
      '  ```',
    );
  }
  out.push(`- reproduce: ${code(c.reproduce)}`);
  if (c.curl) out.push(`- the request again (a gateway may refuse it now for its timestamp or nonce): ${code(c.curl)}`);
  if (c.verdict === 'unexpected-pass')
    out.push(
      `- listed as an expected failure${c.listedReason ? ` (${md(c.listedReason)})` : ''} but passed: ` +
        'update the list (`--update-expect-failures`)',
    );
  out.push('');
  for (const o of c.ops) out.push(...op(o));
  if (c.diagnosis.length > 0) {
    out.push('**Diagnosis**', '');
    for (const d of c.diagnosis) {
      const e = explained(mistakeRef(d.mistake));
      out.push(
        `- ${code(d.mistake)}: ${md(d.message)} (${md(d.ref)})` +
          `${e ? ` — how to fix it: ${withCode(e.fix)} (${md(e.page)})` : ''}`,
      );
    }
    out.push('');
  }
  return out;
}

function op(o: OpView): string[] {
  const notRun = notRunReason(o);
  if (notRun !== undefined) return [`**${code(o.op)}**: ${md(notRun)}`, ''];
  const out = [`**${code(o.op)}**: ${o.status}, ${md(o.message)} (${o.durationMs} ms)`, ''];
  if (o.input !== undefined) {
    out.push('Sent:', '', ...fenced(clipped(jsonText(o.input)).split('\n'), 'json'), '');
  }
  if (o.content?.diff) {
    out.push(
      `Content, \`-\` expected, \`+\` got: ${md(describeDifference(o.content.diff))}`,
      '',
      ...fenced(diffLines(o.content.diff), 'diff'),
      '',
    );
  } else {
    if (o.content?.expected) out.push('Expected content:', '', ...fenced(contentLines(o.content.expected)), '');
    if (o.content?.got) out.push('Content got:', '', ...fenced(contentLines(o.content.got)), '');
  }
  if (!o.content?.diff) {
    out.push('Expected:', '', ...fenced(jsonText(o.expected).split('\n'), 'json'), '');
    out.push('Got:', '', ...fenced(jsonText(o.got).split('\n'), 'json'), '');
  } else {
    out.push(`Got: ${code(JSON.stringify(o.got))}`, '');
  }
  return out;
}
