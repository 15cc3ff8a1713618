/**
 * What a run prints while it goes and when it ends. While it goes, on stderr: one progress line
 * drawn in place on a terminal; elsewhere (CI), once the run has gone 5 s, a plain one at each
 * tenth. When it ends, on stdout:
 * the likely causes of the failures, most cases first; one line per case that did not pass, root
 * causes first; a summary per area and per operation
 * (offered or not, steps run, passed, failed), the operations that did not run, then
 * the closing lines — partial, skipped and expected failures, and last
 * `N passed, M failed` (N counts only the cases whose every step ran and passed).
 * @module
 */
import { RUN_KINDS } from './result.js';
import { otherTargetsLine } from './coverage.js';
import { STOP_INFO, VERDICT_INFO, type CaseResult, type RunResult, type Verdict } from './result.js';
import { docDisplayPath, explained } from '../docs/cite.js';
import { mistakeRef } from '../docs/refs.js';
import { byCause, causeLine, triage, type TriageCase } from './triage.js';
import { describeImplementation } from '../subjects/subject.js';
import { inertText } from '../scheme/terminal-text.js';

/** Where progress goes. */
export interface ProgressOutput {
  readonly stdout: (s: string) => void;
  readonly stderr: (s: string) => void;
  /** Draw the progress line in place on stderr (a terminal); per-case lines go to stdout either way. */
  readonly isTTY: boolean;
  /** Colour the verdicts (ANSI), as the CLI decided (NO_COLOR, FORCE_COLOR, a terminal). Default false. */
  readonly colour?: boolean;
  /** The clock, in milliseconds (tests set it). Default Date.now. */
  readonly now?: () => number;
}

/**
 * Off a terminal, a run that has gone this long says on stderr how far it got, at each tenth (a short run says nothing
 * until it ends).
 */
export const PLAIN_PROGRESS_AFTER_MS = 5000;

/** The callbacks of a run's progress. */
export interface Progress {
  onCase(result: CaseResult, done: number, total: number): void;
  /** Prints the summary and the closing lines. */
  finish(run: RunResult): void;
}

/**
 * Creates the progress printer of a run.
 * @param out - where to print
 * @returns the callbacks
 * @example
 * import { runCases } from './run.js';
 * const p = createProgress({ stdout: io.stdout, stderr: io.stderr, isTTY: false });
 * await runCases({
 *   set,
 *   subject,
 *   target: { kind: 'reference', description: 'r' },
 *   selection: { only: ['signature.payment-create'], skip: [] },
 *   onCase: p.onCase,
 * });
 */
export function createProgress(out: ProgressOutput): Progress {
  const now = out.now ?? Date.now;
  let failures = 0;
  let lastDraw = 0;
  let started: number | undefined;
  let nextPlain = 0;
  return {
    onCase(result, done, total) {
      if (VERDICT_INFO[result.verdict].failsRun) failures++;
      const t = now();
      started ??= t;
      if (out.isTTY) {
        if (t - lastDraw > 50 || done === total) {
          lastDraw = t;
          out.stderr(`\r\x1b[K[${done}/${total}] ${failures} failed${done === total ? '\n' : ''}`);
        }
      } else if (t - started >= PLAIN_PROGRESS_AFTER_MS && done >= nextPlain && done < total) {
        // a CI log: once the run is long, a plain line at each tenth, so it is seen to move
        nextPlain = done + Math.max(1, Math.ceil(total / 10));
        out.stderr(`[${done}/${total}] ${failures} failed\n`);
      }
    },
    finish(run) {
      out.stdout(caseLines(run, out.colour === true));
      out.stdout(summary(run, out.colour === true));
    },
  };
}

/**
 * What a run that failed shows first: the likely causes, most cases first (one bug is one line,
 * with how many cases it explains and its page), then every case that fails the run or is an
 * expected failure, root causes first (the scheme's operations, then the roles).
 * @param run - the run
 * @param colour - colour the verdicts
 * @returns the text (empty when no case failed)
 * @example caseLines(failedRun, false).startsWith('Likely causes') // true
 */
export function caseLines(run: { readonly cases: readonly LineCase[] }, colour = false): string {
  const causes = triage(run.cases);
  const lines: string[] = [];
  if (causes.length > 0) {
    const failing = causes.reduce((n, c) => n + c.count, 0);
    lines.push(`Likely causes of the ${failing} failing case${failing === 1 ? '' : 's'}, most cases first:`);
    for (const c of causes) {
      const page = c.mistake ? mistakeRef(c.mistake) : undefined;
      // the fix where it is read, then the page by its path from here (src/docs/cite.ts)
      const fix = explained(page)?.fix;
      lines.push(
        inertText(
          `  ${causeLine(c)}${fix ? `\n    fix: ${fix}` : ''}${page ? `\n    see ${docDisplayPath(page)}` : ''}`,
        ),
      );
    }
    lines.push('');
  }
  for (const r of byCause(
    run.cases.filter((c) => VERDICT_INFO[c.verdict].failsRun || c.verdict === 'expected-failure'),
  ))
    lines.push(caseLine(r, colour));
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

/** What a case line reads of a case: a run's case, or a report's clean view of one (pgv2kit merge prints those). */
export type LineCase = TriageCase & Pick<CaseResult, 'listedReason'>;

/**
 * One line for a case: verdict, id, and why.
 * @param r - the case
 * @returns e.g. `FAILED signature.final-lf-missing: signature.sign: sign differs … — your sign equals …`
 * @example caseLine(run.cases[0])
 */
export function caseLine(r: LineCase, colour = false): string {
  const diagnosis = r.ops.flatMap((o) => o.diagnosis ?? [])[0];
  const why = r.verdict === 'expected-failure' ? `listed: ${r.listedReason ?? ''}` : r.message;
  const page = diagnosis ? mistakeRef(diagnosis.mistake) : undefined;
  const title = paint(VERDICT_INFO[r.verdict].title, VERDICT_INFO[r.verdict].failsRun ? 'red' : 'yellow', colour);
  const diagnosed = diagnosis ? ` — ${diagnosis.message}` : '';
  const see = page ? ` (see ${docDisplayPath(page)})` : '';
  // the id, the reason and the diagnosis may come from a testee or a vector file: inert on a terminal (ESC, CR, NUL
  // as visible escapes); only the kit's own colour is a control sequence here
  return `${title} ${inertText(`${r.id}: ${why}${diagnosed}`)}${see}`;
}

/** ANSI colours the output uses. */
const ANSI = { red: '\x1b[1;31m', green: '\x1b[1;32m', yellow: '\x1b[33m' } as const;

/**
 * Text in a colour when colours are on (SGR, then reset), else as it is.
 * @param text - the text
 * @param colour - the colour
 * @param on - whether colours are on
 * @returns the text, coloured or not
 * @example paint('FAILED', 'red', true) // '\x1b[1;31mFAILED\x1b[0m'
 */
export function paint(text: string, colour: keyof typeof ANSI, on: boolean): string {
  return on ? `${ANSI[colour]}${text}\x1b[0m` : text;
}

/**
 * The end of a run's output: per-area table and the closing lines.
 * @param run - the run
 * @returns the text
 * @example summary(run).endsWith('376 passed, 0 failed\n')
 */
export function summary(run: RunResult, colour = false): string {
  const lines: string[] = [];
  lines.push(
    '',
    `${describeImplementation(run.implementation)} (${run.target.description}) ` +
      `against vectors ${run.vectorSetHash.slice(0, 12)}`,
  );
  const columns: Verdict[] = ['passed', 'failed', 'error', 'partial', 'skipped', 'expected-failure', 'unexpected-pass'];
  const kindHeads = ['passed', 'failed', 'error', 'partial', 'skipped', 'xfail', 'xpass'];
  lines.push(`  ${'kind'.padEnd(27)}${kindHeads.map((h) => h.padStart(8)).join('')}`);
  for (const kind of RUN_KINDS) {
    const of = run.cases.filter((c) => c.kind === kind);
    if (of.length === 0) continue;
    const tallies = columns.map((v) => String(of.filter((c) => c.verdict === v).length).padStart(8));
    lines.push(`  ${kind.padEnd(27)}${tallies.join('')}`);
  }
  const operations = run.operations ?? [];
  if (operations.length > 0) {
    const operationHeads = ['offered', 'cases', 'ran', 'passed', 'failed', 'error', 'not run'];
    lines.push(`  ${'operation'.padEnd(27)}${operationHeads.map((h) => h.padStart(8)).join('')}`);
    for (const o of operations) {
      const cells = [o.offered ? 'yes' : 'NO', o.cases, o.ran, o.passed, o.failed, o.error, o.notRun];
      lines.push(`  ${o.op.padEnd(27)}${cells.map((n) => String(n).padStart(8)).join('')}`);
    }
  }
  const chosen = run.cases.filter((c) => c.choice);
  if (chosen.length) {
    const counts = (['accepted', 'refused', 'in-order', 'reordered'] as const).map(
      (k) => [k, chosen.filter((c) => c.choice === k).length] as const,
    );
    const said = counts
      .filter(([k, n]) => n > 0 || k === 'accepted' || k === 'refused')
      .map(
        ([k, n]) =>
          `${n} ${k === 'in-order' ? 'formFields sent in order' : k === 'reordered' ? 'formFields sent reordered' : k}`,
      );
    lines.push(`acceptable cases: ${said.join(', ')} (either passes; see the report)`);
  }
  const advised = run.cases.filter((c) => c.advisory);
  if (advised.length)
    lines.push(
      `advisories: ${advised.length} (${[...new Set(advised.map((c) => c.advisory))].join('; ')}; see the report)`,
    );
  for (const id of run.staleListEntries)
    lines.push(`expected-failure list names ${id}, which is not a case: remove it (--update-expect-failures)`);
  const notRun = notRunLine(run);
  if (notRun) lines.push(notRun);
  if (run.otherTargets) lines.push(otherTargetsLine(run.otherTargets));
  // an operation name the protocol does not know, said again where the eye lands
  for (const u of run.unknownOperations ?? []) lines.push(`warning: ${u.message}`);
  if (run.noTestRan) lines.push(run.noTestRan);
  if (run.stopped)
    lines.push(
      `${STOP_INFO[run.stopped.kind].banner} (${run.stopped.reason}; ${run.stopped.notRun} not run): ` +
        'not conformant — what did not run did not pass',
    );
  const t = run.totals;
  const failed = t.failed + t.error + t['unexpected-pass'];
  const partial = t.partial ? `partial: ${t.partial} (not counted as passed), ` : '';
  const unexpected = t['unexpected-pass'] ? `, unexpected passes: ${t['unexpected-pass']}` : '';
  const errors = t.error ? `, errors: ${t.error}` : '';
  lines.push(`${partial}skipped: ${t.skipped}, expected failures: ${t['expected-failure']}${unexpected}${errors}`);
  const top = triage(run.cases)[0];
  if (top?.mistake) lines.push(`likely cause: ${causeLine(top)} — the first lines above list every cause`);
  // names, descriptions, reasons and messages may come from a testee or a gateway: inert; the colour is the kit's
  const closing = paint(`${t.passed} passed, ${failed} failed`, failed > 0 ? 'red' : 'green', colour);
  return `${inertText(lines.join('\n'))}\n${closing}\n`;
}

/**
 * The operations the selected cases need that did not run, with how many steps each
 * left out: `not run: signature.content (not offered, 76 steps), signature.sign (not offered, 76 steps)`.
 * @param run - the run
 * @returns the line, or undefined when every step ran
 * @example
 * notRunLine({
 *   operations: [{ op: 'signature.sign', offered: false, notRun: 76 }],
 * }) // 'not run: signature.sign (not offered, 76 steps)'
 */
export function notRunLine(run: Pick<RunResult, 'operations'>): string | undefined {
  const missing = (run.operations ?? []).filter((o) => o.notRun > 0);
  if (missing.length === 0) return undefined;
  const steps = (n: number): string => `${n} step${n === 1 ? '' : 's'}`;
  const shown = missing.map(
    (o) => `${o.op} (${o.offered ? `answered unsupported, ${steps(o.notRun)}` : `not offered, ${steps(o.notRun)}`})`,
  );
  return `not run: ${shown.join(', ')}`;
}
