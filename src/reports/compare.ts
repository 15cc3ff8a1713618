/**
 * Several implementations side by side (`pgv2kit compare`), as Bowtie's page: one column per
 * implementation, rows for areas, operations and cases; the cases on which the implementations
 * differ first; each failure linked to its known mistake's page and to the case in that
 * implementation's own report; a badge per implementation (passed/total, coloured by verdict) a
 * README can embed. Built from results.json files only: every text in them is masked already, and nothing
 * else in them is trusted (issue 25, item 4): each file is checked against the published schema
 * (src/reports/results-v2.schema.json) and each run's verdict and totals are worked out again from its
 * cases ({@link recomputeRun}); where the file says otherwise, the comparison says so.
 * @module
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { citePageHtml } from '../docs/cite.js';
import { mistakeRef } from '../docs/refs.js';
import { describeImplementation } from '../subjects/subject.js';
import { RUN_KINDS, VERDICT_INFO, type Verdict } from '../runner/result.js';
import { escapeHtml as h, escapeXml } from './escape.js';
import { md } from './markdown.js';
import type { ResultsJson } from './results-json.js';
import { checkResultsJson } from './results-schema.js';
import { recomputeRun, withCaseVerdicts } from './results-verdict.js';
import { Pgv2kitError } from '../errors.js';
import { safeName } from '../safe-name.js';
import { readFolderFile } from '../vectors/files.js';
import { jsonSyntaxProblem } from '../file-errors.js';

/** One implementation's run, as read from its results.json. */
export interface CompareEntry {
  /** Unique among the entries: the implementation's name, with `#2`, `#3`… when names repeat. */
  readonly key: string;
  readonly results: ResultsJson;
  /** The results.json it came from. */
  readonly file: string;
  /**
   * What the file said of its cases that their steps do not (their verdicts are shown as the steps give them:
   * {@link withCaseVerdicts}); none when it agrees.
   */
  readonly caseDisagreements?: readonly string[];
}

/** Files a compare run reads that are not a run's results (exit 2). */
export class CompareInputError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_COMPARE_INPUT';
  /** A usage error (exit 2). */
  override readonly exit = 'usage';
  override readonly name = 'CompareInputError';
}

/** The verdict a badge shows, and its colour. */
export type BadgeVerdict = 'conformant' | 'partial' | 'not conformant' | 'nothing ran';

const BADGE_COLOURS: Record<BadgeVerdict, string> = {
  conformant: '#2e7d32',
  partial: '#b54708',
  'not conformant': '#c62828',
  'nothing ran': '#667085',
};

/** How many runs one comparison takes at most. */
export const MAX_COMPARE_RUNS = 1000;

/** How large a results.json compare reads at most: 64 MiB (a run of every case is a few MB). */
export const MAX_RESULTS_BYTES = 64 * 1024 * 1024;

/**
 * Reads the runs to compare: each path a results.json or a report folder holding one, at most
 * {@link MAX_COMPARE_RUNS} of them, each file at most {@link MAX_RESULTS_BYTES} and valid against the results.json
 * schema.
 * @param paths - absolute paths
 * @returns the entries, in the order given
 * @throws {CompareInputError} naming a path that holds no run's results, a file too large, or a field of a file
 * (its JSON pointer) that is not what the kit writes
 */
export function readCompareEntries(paths: readonly string[]): CompareEntry[] {
  if (paths.length > MAX_COMPARE_RUNS)
    throw new CompareInputError(`${paths.length} runs given: one comparison takes at most ${MAX_COMPARE_RUNS}`);
  const seen = new Map<string, number>();
  return paths.map((p) => {
    const results = readResults(p);
    const name = describeImplementation(results.value.implementation);
    const n = (seen.get(name) ?? 0) + 1;
    seen.set(name, n);
    // each case's verdict as its steps give it, never as the file says (issue 25, item 4)
    const checked = withCaseVerdicts(results.value);
    return {
      key: n === 1 ? name : `${name} #${n}`,
      results: checked.results,
      file: results.file,
      ...(checked.disagreements.length > 0 ? { caseDisagreements: checked.disagreements } : {}),
    };
  });
}

/** One run's results.json: found, bounded, parsed and checked against the schema. */
function readResults(p: string): { readonly file: string; readonly value: ResultsJson } {
  let file = p;
  try {
    if (statSync(p).isDirectory()) file = join(p, 'results.json');
  } catch {
    throw new CompareInputError(`${p} does not exist`);
  }
  // bounded: a FIFO or a device is refused unread, a file over the cap by its size or once the read crosses it
  const read = readFolderFile(file, MAX_RESULTS_BYTES, 'a results.json compare reads');
  if (!read.ok) throw new CompareInputError(read.missing ? `${file} does not exist` : `${file} ${read.message}`);
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString('utf8'));
  } catch (e) {
    throw new CompareInputError(`${file} cannot be read as JSON: ${jsonSyntaxProblem(e)}`);
  }
  const problems = checkResultsJson(value);
  if (problems.length > 0)
    throw new CompareInputError(
      `${file} is not the results.json of a pgv2kit run (results-v2.schema.json): ${problems.join('; ')}`,
    );
  return { file, value: value as ResultsJson };
}

/**
 * What a reader of the comparison must know: a file whose own verdict or totals its cases contradict
 * (shown as its cases say), and runs not alike enough for their case counts to compare (another vector
 * set, another selection: --only, --skip; the cases they share still compare). Said on the page, in the
 * Markdown and by the command.
 * @param entries - the runs
 * @returns the warnings (none when every file agrees with its cases and every run used the same vector set and
 * selection)
 */
export function compareWarnings(entries: readonly CompareEntry[]): string[] {
  // a file whose own verdict or totals its cases contradict: the comparison shows what the cases say
  const out = entries.flatMap((e) => {
    const disagreements = [...(e.caseDisagreements ?? []), ...recomputeRun(e.results).disagreements];
    return disagreements.length === 0
      ? []
      : [`${e.file} (${e.key}) says ${disagreements.join('; ')}: shown here as its cases say`];
  });
  const hashes = new Set(entries.map((e) => e.results.vectorSetHash));
  if (hashes.size > 1) {
    const sets = entries.map((e) => `${e.key}: ${e.results.vectorSetHash.slice(0, 12)}`).join(', ');
    out.push(`the runs used ${hashes.size} different vector sets (${sets}): compare the cases they share`);
  }
  const selections = new Set(entries.map((e) => JSON.stringify(e.results.selection ?? null)));
  if (selections.size > 1) {
    const selected = entries.map((e) => `${e.key}: ${describeSelection(e.results.selection)}`).join('; ');
    out.push(`the runs selected different cases (${selected}): a case one run did not select is not a difference`);
  }
  return out;
}

function describeSelection(s: ResultsJson['selection'] | undefined): string {
  if (!s) return 'unknown';
  const parts = [
    s.only.length > 0 ? `--only ${s.only.join(',')}` : '',
    s.skip.length > 0 ? `--skip ${s.skip.join(',')}` : '',
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' ') : 'all cases';
}

/**
 * What a badge says of a run, as its cases say ({@link recomputeRun}; the file's own `conformant` and
 * `totals` are not trusted): conformant (some step ran, none failed, all fully), partial (conformant, some
 * cases partial), not conformant, or nothing ran (an aborted run, no test ran).
 * @param r - the run's results
 * @returns the verdict
 */
export function badgeVerdict(r: ResultsJson): BadgeVerdict {
  const run = recomputeRun(r);
  if (r.aborted || run.noTestRan !== undefined) return 'nothing ran';
  if (!run.conformant) return 'not conformant';
  return run.totals.partial > 0 ? 'partial' : 'conformant';
}

/**
 * An SVG badge as shields.io draws them: `pgv2kit | 418/418 passed`, coloured by verdict, both as the run's
 * cases say ({@link badgeVerdict}); the implementation's name escaped for XML.
 * @param r - the run's results
 * @returns the SVG text
 * @example
 * import { toResultsJson } from './results-json.js';
 * badgeSvg(toResultsJson(run, [])).startsWith('<svg') // true
 */
export function badgeSvg(r: ResultsJson): string {
  const verdict = badgeVerdict(r);
  const { totals } = recomputeRun(r);
  const left = 'pgv2kit';
  const right = verdict === 'nothing ran' ? 'nothing ran' : `${totals.passed}/${totals.total} passed`;
  // 6.5 px a character at 11 px Verdana, as shields.io measures, plus 10 px of padding a side
  const lw = Math.round(left.length * 6.5 + 10);
  const rw = Math.round(right.length * 6.5 + 10);
  const colour = BADGE_COLOURS[verdict];
  const outcome = verdict === 'nothing ran' ? verdict : `${verdict}, ${right}`;
  const title = `pgv2kit: ${describeImplementation(r.implementation)}: ${outcome}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${lw + rw}" height="20" role="img"` +
      ` aria-label="${escapeXml(title, true)}">`,
    `<title>${escapeXml(title)}</title>`,
    '<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>' +
      '<stop offset="1" stop-opacity=".1"/></linearGradient>',
    `<clipPath id="r"><rect width="${lw + rw}" height="20" rx="3" fill="#fff"/></clipPath>`,
    `<g clip-path="url(#r)"><rect width="${lw}" height="20" fill="#555"/>` +
      `<rect x="${lw}" width="${rw}" height="20" fill="${colour}"/>` +
      `<rect width="${lw + rw}" height="20" fill="url(#s)"/></g>`,
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">`,
    `<text x="${lw / 2}" y="15" fill="#010101" fill-opacity=".3">${left}</text>` +
      `<text x="${lw / 2}" y="14">${left}</text>`,
    `<text x="${lw + rw / 2}" y="15" fill="#010101" fill-opacity=".3">${escapeXml(right)}</text>` +
      `<text x="${lw + rw / 2}" y="14">${escapeXml(right)}</text>`,
    '</g></svg>',
    '',
  ].join('');
}

/**
 * A badge's file name: the implementation's key as a safe name ({@link safeName}), at most 89 characters before
 * `.svg`. Alone it may collide (`my sdk` and `my-sdk` give one name): a comparison names its
 * badges with {@link badgeFiles}.
 * @param key - the entry's key
 * @returns e.g. `pgv2kit-python-adapter-0.1.0.svg`
 * @example badgeFile('pgv2kit-python-adapter 0.1.0') // 'pgv2kit-python-adapter-0.1.0.svg'
 */
export function badgeFile(key: string): string {
  return `${safeName(key, 'implementation', 89)}.svg`;
}

/**
 * The badge file of each entry of a comparison, never two alike: where two keys give one name (compared without
 * regard to case, as some file systems do), each gets its key's hash too, then a number if still alike.
 * @param keys - the entries' keys, in order
 * @returns the file name of each, in the same order
 * @example badgeFiles(['my sdk 2', 'my-sdk 2'])[0] === badgeFiles(['my sdk 2', 'my-sdk 2'])[1] // false
 * @example badgeFiles(['a 1', 'b 1']) // ['a-1.svg', 'b-1.svg']
 */
export function badgeFiles(keys: readonly string[]): string[] {
  const plain = keys.map(badgeFile);
  const count = new Map<string, number>();
  for (const f of plain) count.set(f.toLowerCase(), (count.get(f.toLowerCase()) ?? 0) + 1);
  const named = plain.map((f, i) =>
    (count.get(f.toLowerCase()) ?? 0) > 1 ? `${f.slice(0, -4)}-${shortHash(keys[i] ?? '')}.svg` : f,
  );
  const taken = new Set<string>();
  return named.map((f) => {
    let name = f;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${f.slice(0, -4)}-${n}.svg`;
    taken.add(name.toLowerCase());
    return name;
  });
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** One case across the implementations. */
interface CaseRow {
  readonly id: string;
  readonly kind: string;
  readonly comment: string;
  /** Per entry: its verdict and, for a failure, its first known mistake (undefined: the case is not in that run). */
  readonly cells: ReadonlyArray<
    { readonly verdict: Verdict; readonly mistake?: string; readonly message: string } | undefined
  >;
  readonly differs: boolean;
}

/**
 * Every case of every run, one row each, in the first run's order (then the others'): a row
 * differs when the verdicts of the runs that have the case do.
 * @param entries - the runs
 * @returns the rows, those that differ first
 */
export function caseRows(entries: readonly CompareEntry[]): CaseRow[] {
  const order: string[] = [];
  const seen = new Set<string>();
  for (const e of entries) {
    for (const c of e.results.cases) {
      if (seen.has(c.id)) continue;
      seen.add(c.id);
      order.push(c.id);
    }
  }
  const index = entries.map((e) => new Map(e.results.cases.map((c) => [c.id, c])));
  const rows = order.map((id) => {
    const cases = index.map((m) => m.get(id));
    const any = cases.find((c) => c !== undefined);
    const cells = cases.map((c) =>
      c
        ? { verdict: c.verdict, message: c.message, ...(c.diagnosis[0] ? { mistake: c.diagnosis[0].mistake } : {}) }
        : undefined,
    );
    // a case a run did not have (another target's, another selection) is no difference: only verdicts are compared
    const verdicts = new Set(cells.flatMap((c) => (c ? [c.verdict] : [])));
    return { id, kind: any?.kind ?? '', comment: any?.comment ?? '', cells, differs: verdicts.size > 1 };
  });
  return [...rows.filter((r) => r.differs), ...rows.filter((r) => !r.differs)];
}

/**
 * The comparison page.
 * @param entries - the runs
 * @param outDir - where the page is written (links to each run's report are relative to it)
 * @returns the HTML
 */
export function compareHtml(entries: readonly CompareEntry[], outDir: string): string {
  const rows = caseRows(entries);
  const differing = rows.filter((r) => r.differs);
  const hashes = new Set(entries.map((e) => e.results.vectorSetHash));
  const report = (e: CompareEntry, id?: string): string => {
    // each segment of the path percent-encoded: a folder named `javascript:…` is never a link's scheme
    const rel = relative(outDir, join(dirname(e.file), 'report.html'))
      .split(/[\\/]/)
      .map(encodeURIComponent)
      .join('/');
    return `${rel}${id ? `#case-${id.replace(/[^A-Za-z0-9_.-]/g, '_')}` : ''}`;
  };
  const badges = badgeFiles(entries.map((e) => e.key));
  const headCell = (e: CompareEntry, i: number): string =>
    `<th><a href="${h(report(e))}">${h(e.key)}</a>` +
    `<div class="lang">${h(e.results.implementation.language)} · ${h(e.results.target.kind)}</div>` +
    `<img alt="badge" src="badges/${h(badges[i] ?? '')}"></th>`;
  const head = `<tr><th></th>${entries.map(headCell).join('')}</tr>`;
  const verdictCell = (e: CompareEntry, row: CaseRow, i: number): string => {
    const c = row.cells[i];
    if (!c) return '<td class="absent">not in this run</td>';
    const failing = VERDICT_INFO[c.verdict].failsRun;
    const page = c.mistake ? mistakeRef(c.mistake) : undefined;
    const why = failing
      ? ` <a href="${h(report(e, row.id))}" title="${h(c.message)}">why</a>` +
        `${page ? ` · ${citePageHtml(page, h(c.mistake ?? ''))}` : ''}`
      : '';
    return `<td class="v v-${c.verdict}">${h(VERDICT_INFO[c.verdict].title)}${why}</td>`;
  };
  const areas = areasOf(entries);
  const areaRow = (area: string): string =>
    `<tr><th>${h(area)}</th>${entries
      .map((e) => {
        const of = e.results.cases.filter((c) => c.kind === area);
        const passed = of.filter((c) => c.verdict === 'passed').length;
        const failed = of.filter((c) => VERDICT_INFO[c.verdict].failsRun).length;
        const verdictClass = failed > 0 ? 'v-failed' : passed === of.length ? 'v-passed' : 'v-partial';
        return of.length === 0
          ? '<td class="absent">—</td>'
          : `<td class="${verdictClass}">${passed}/${of.length}${failed > 0 ? ` · ${failed} failed` : ''}</td>`;
      })
      .join('')}</tr>`;
  const ops = [...new Set(entries.flatMap((e) => e.results.operations.map((o) => o.op)))];
  // each run's operations by name, once: a lookup per cell, never a search (100,000 operations took 19.6 s)
  const opsOf = entries.map((e) => {
    const byOp = new Map<string, ResultsJson['operations'][number]>();
    for (const o of e.results.operations) if (!byOp.has(o.op)) byOp.set(o.op, o);
    return byOp;
  });
  const opRow = (op: string): string =>
    `<tr><th><code>${h(op)}</code></th>${entries
      .map((_e, i) => {
        const o = opsOf[i]?.get(op);
        if (!o || !o.offered) return `<td class="absent">${o ? `not offered (${o.notRun} steps not run)` : '—'}</td>`;
        return (
          `<td class="${o.failed + o.error > 0 ? 'v-failed' : 'v-passed'}">${o.passed}/${o.ran} passed` +
          `${o.failed + o.error > 0 ? ` · ${o.failed + o.error} failed` : ''}</td>`
        );
      })
      .join('')}</tr>`;
  const caseRow = (r: CaseRow): string =>
    `<tr${r.differs ? ' class="differs"' : ''}><th><code>${h(r.id)}</code>` +
    `<div class="comment">${h(r.comment)}</div></th>${entries.map((e, i) => verdictCell(e, r, i)).join('')}</tr>`;
  const verdictTd = (e: CompareEntry): string =>
    `<td class="verdict-${badgeVerdict(e.results).replace(' ', '-')}">${h(badgeVerdict(e.results))}` +
    `<div class="muted">${h(recomputeRun(e.results).summary)}</div></td>`;
  const same = rows.filter((r) => !r.differs);
  const body = [
    `<h1>pgv2kit: ${entries.length} implementations compared</h1>`,
    `<p class="summary">${differing.length} of ${rows.length} cases differ between the implementations; ` +
      'they come first.</p>',
    ...compareWarnings(entries).map((w) => `<p class="notice warn">Note: ${h(w)}.</p>`),
    hashes.size === 1 ? `<p class="muted">Vector set <code>${h([...hashes][0] ?? '')}</code>.</p>` : '',
    '<h2>Verdicts</h2>',
    `<table><thead>${head}</thead><tbody><tr><th>verdict</th>${entries.map(verdictTd).join('')}</tr></tbody></table>`,
    '<h2>By kind</h2>',
    `<table><thead>${head}</thead><tbody>${areas.map(areaRow).join('')}</tbody></table>`,
    '<h2>By operation</h2>',
    `<table><thead>${head}</thead><tbody>${ops.map(opRow).join('')}</tbody></table>`,
    `<h2 id="differ">Cases that differ (${differing.length})</h2>`,
    differing.length === 0
      ? '<p>None: every implementation has the same verdict on every case.</p>'
      : `<table class="cases"><thead>${head}</thead><tbody>${differing.map(caseRow).join('')}</tbody></table>`,
    `<h2 id="same">Cases with the same verdict everywhere (${same.length})</h2>`,
    `<details><summary>Show them</summary><table class="cases"><thead>${head}</thead>` +
      `<tbody>${same.map(caseRow).join('')}</tbody></table></details>`,
    `<footer>Made by pgv2kit compare from ${entries.map((e) => `<code>${h(e.file)}</code>`).join(', ')}.</footer>`,
  ].join('\n');
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>pgv2kit: implementations compared</title><style>${CSS}</style></head><body>\n${body}\n</body></html>\n`
  );
}

/**
 * The comparison as Markdown: verdicts, areas, and the cases that differ; every text from a file escaped for a
 * table cell ({@link md}).
 * @param entries - the runs
 * @returns the Markdown
 */
export function compareMarkdown(entries: readonly CompareEntry[]): string {
  const rows = caseRows(entries);
  const differing = rows.filter((r) => r.differs);
  const head = `| | ${entries.map((e) => md(e.key)).join(' | ')} |`;
  const rule = `|---|${entries.map(() => '---').join('|')}|`;
  const out = [
    `# pgv2kit: ${entries.length} implementations compared`,
    '',
    `${differing.length} of ${rows.length} cases differ between the implementations.`,
    '',
    ...compareWarnings(entries).map((w) => `> Note: ${md(w)}.\n`),
    head,
    rule,
  ];
  const badges = badgeFiles(entries.map((e) => e.key));
  out.push(`| badge | ${entries.map((e, i) => `![${md(e.key)}](badges/${badges[i] ?? ''})`).join(' | ')} |`);
  const verdict = (e: CompareEntry): string => `${badgeVerdict(e.results)}: ${md(recomputeRun(e.results).summary)}`;
  out.push(`| verdict | ${entries.map(verdict).join(' | ')} |`);
  for (const area of areasOf(entries)) {
    out.push(
      `| ${md(area)} | ${entries
        .map((e) => {
          const of = e.results.cases.filter((c) => c.kind === area);
          return of.length === 0 ? '—' : `${of.filter((c) => c.verdict === 'passed').length}/${of.length}`;
        })
        .join(' | ')} |`,
    );
  }
  out.push('', `## Cases that differ (${differing.length})`, '');
  if (differing.length === 0) out.push('None.');
  else {
    out.push(head, rule);
    for (const r of differing) {
      const cells = r.cells.map((c) =>
        c ? `${VERDICT_INFO[c.verdict].title}${c.mistake ? ` (${md(c.mistake)})` : ''}` : 'not in this run',
      );
      // a case id is any text: escaped as a table cell's (a `|`, a backtick, markup, a line break)
      out.push(`| ${md(r.id)} | ${cells.join(' | ')} |`);
    }
  }
  out.push('');
  return out.join('\n');
}

/** The areas any run has cases in, in the reports' order. */
function areasOf(entries: readonly CompareEntry[]): string[] {
  const present = new Set(entries.flatMap((e) => e.results.cases.map((c) => c.kind as string)));
  return RUN_KINDS.filter((a) => present.has(a));
}

const CSS = [
  ':root{--bad:#b42318;--bad-bg:#fef3f2;--ok:#067647;--ok-bg:#ecfdf3;--warn:#b54708;--warn-bg:#fffaeb;' +
    '--muted:#667085;--line:#eaecf0}',
  'body{font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 auto;max-width:1400px;' +
    'padding:1.5rem;color:#101828}',
  'h1{font-size:1.5rem;margin:.2rem 0}h2{border-bottom:1px solid var(--line);padding-bottom:.2rem;margin-top:2rem}',
  'code{font:13px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}',
  'table{border-collapse:collapse;margin:.5rem 0;width:100%}' +
    'th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}',
  'thead th{background:#f9fafb;position:sticky;top:0}thead img{display:block;margin-top:.2rem}',
  '.lang,.comment,.muted{color:var(--muted);font-size:.85em;font-weight:normal}',
  '.v-passed,.verdict-conformant{color:var(--ok);background:var(--ok-bg)}' +
    '.v-failed,.v-error,.v-unexpected-pass,.verdict-not-conformant{color:var(--bad);background:var(--bad-bg)}',
  '.v-partial,.v-skipped,.verdict-partial{color:var(--warn);background:var(--warn-bg)}' +
    '.absent,.verdict-nothing-ran{color:var(--muted);background:#f2f4f7}',
  'tr.differs th{border-left:4px solid var(--warn)}',
  '.summary{font-weight:600;padding:.4rem .7rem;border-radius:6px;background:#f9fafb;display:inline-block}',
  '.notice.warn{color:var(--warn);background:var(--warn-bg);padding:.3rem .7rem;border-radius:6px}',
  '.doc{text-decoration:underline dotted;cursor:help}',
  'footer{margin-top:2rem;color:var(--muted);font-size:.85rem}',
].join('\n');
