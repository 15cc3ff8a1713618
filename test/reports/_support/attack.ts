/**
 * One attack (issue 25, item 6): a data set rendered by every report writer in its hostile and its plain world, and
 * every check of attack-checks.ts run over the renders; the printed commands run in `sh` with curl and npx stubbed
 * (attack-shell.ts), each against the argv the test's own data says it must have.
 */
import { buildModel, finish } from '../../../src/reports/_model.js';
import { htmlFromModel } from '../../../src/reports/html.js';
import { junitFromModel } from '../../../src/reports/junit.js';
import { markdownFromModel, stepSummaryFromModel } from '../../../src/reports/markdown.js';
import { resultsJsonFromModel, type ResultsJson } from '../../../src/reports/results-json.js';
import { compareHtml, compareMarkdown, type CompareEntry } from '../../../src/reports/compare.js';
import { caseLines, summary } from '../../../src/runner/progress.js';
import { redactingIo, type CliIo } from '../../../src/cli/io.js';
import { describeImplementation } from '../../../src/subjects/subject.js';
import type { RunResult } from '../../../src/runner/result.js';
import { attackRun, sentRecord, World, type AttackData, type SentRecord } from './attack-data.js';
import {
  checkHtml,
  checkJunit,
  checkMarkdown,
  checkSecrets,
  checkTerminal,
  htmlElementTexts,
  htmlTexts,
  markdownCommands,
  xmlTexts,
  type Finding,
} from './attack-checks.js';
import type { StubShell } from './attack-shell.js';

/** Every output of one run: the report files, compare's page and Markdown, and the terminal. */
interface Outputs {
  readonly run: RunResult;
  readonly html: string;
  readonly junit: string;
  readonly md: string;
  readonly stepSummary: string;
  readonly resultsJson: string;
  readonly runLog: string;
  readonly compareHtml: string;
  readonly compareMd: string;
  readonly terminal: string;
}

function render(d: AttackData, w: World): Outputs {
  const run = attackRun(d, w);
  const secrets = w.secrets;
  const model = buildModel(run, secrets);
  // what write.ts writes into a report folder, in process
  const resultsJson = `${JSON.stringify(resultsJsonFromModel(model, secrets), null, 2)}\n`;
  // compare reads results.json files: this run's, and one of another implementation that passed every case
  const results = JSON.parse(resultsJson) as ResultsJson;
  const other: ResultsJson = {
    ...results,
    implementation: { ...results.implementation, name: `${results.implementation.name} other` },
    cases: results.cases.map((c) => ({ ...c, verdict: 'passed' })),
  };
  const entries: CompareEntry[] = [
    { key: describeImplementation(results.implementation), results, file: '/work/runs/a/results.json' },
    { key: describeImplementation(other.implementation), results: other, file: '/work/runs/b/results.json' },
  ];
  // the terminal: the lines the CLI prints at the end of a run, through the io that masks them
  let terminal = '';
  const raw: CliIo = { stdout: (s) => (terminal += s), stderr: (s) => (terminal += s), env: {}, cwd: '/' };
  const io = redactingIo(raw, new Set(secrets));
  io.stdout(caseLines(run));
  io.stdout(summary(run));
  return {
    run,
    html: htmlFromModel(model, secrets),
    junit: junitFromModel(model, secrets),
    md: markdownFromModel(model, secrets),
    stepSummary: stepSummaryFromModel(model, secrets, '/work/reports/run'),
    resultsJson,
    runLog: finish(model.log.map((l) => `${l}\n`).join(''), secrets),
    compareHtml: compareHtml(entries, '/work/compare'),
    compareMd: compareMarkdown(entries),
    terminal,
  };
}

/** A string as it is once written as UTF-8 (a lone surrogate becomes U+FFFD): what a file or an argv can hold. */
const wellFormed = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');

/**
 * The argv a case's reproduce line must run, from the test's data: `npx pgv2kit run`, the target as given, the case.
 * @param run - the run (its target)
 * @param id - the case id
 * @param replay - a property's replay
 * @returns the argv, npx first
 */
export function reproduceArgv(run: RunResult, id: string, replay?: string): string[] {
  const flag = { testee: '--testee', module: '--module', gateway: '--gateway' }[run.target.kind as 'testee'];
  return [
    'npx',
    'pgv2kit',
    'run',
    ...(run.target.kind === 'reference' ? [] : [flag, run.target.description]),
    '--only',
    `id:${id}`,
    ...(replay !== undefined ? ['--replay', `${id}=${replay}`] : []),
  ].map(wellFormed);
}

/**
 * The argv and stdin a curl line must run, from the request the test says the kit sent: the method, the URL, the
 * headers in order but those curl writes itself, empty `Accept`/`User-Agent`/`Content-Type` headers where the kit
 * sent none (curl would add them), the body as one argument or on stdin.
 * @param sent - the request
 * @returns the argv (curl first) and stdin
 */
export function curlArgv(sent: SentRecord): { argv: string[]; stdin: string } {
  const headers = sent.headers.filter(([n]) => !/^(content-length|host|connection)$/i.test(n));
  const has = (name: string): boolean => sent.headers.some(([n]) => n.toLowerCase() === name.toLowerCase());
  const body = sent.body;
  const argv = ['curl', '-sS', '-i', '--globoff', '-X', sent.method, sent.url];
  for (const [n, v] of headers) argv.push('-H', v === '' ? `${n};` : `${n}: ${v}`);
  for (const n of ['Accept', 'User-Agent', ...(body !== '' ? ['Content-Type'] : [])])
    if (!has(n)) argv.push('-H', `${n}:`);
  if (body !== '' && Buffer.byteLength(body) > 1024 && !has('Expect')) argv.push('-H', 'Expect:');
  if (body === '') return { argv: argv.map(wellFormed), stdin: '' };
  const printable = /^[\x20-\x7e]*$/.test(body);
  argv.push('--data-binary', printable ? body : '@-');
  return { argv: argv.map(wellFormed), stdin: printable ? '' : wellFormed(body) };
}

interface Printed {
  readonly where: string;
  readonly command: string;
  /** The argv (and stdin) it may run: any one of them. */
  readonly expected: ReadonlyArray<{ readonly argv: readonly string[]; readonly stdin: string }>;
}

function printedCommands(o: Outputs, d: AttackData, w: World): Printed[] {
  const run = o.run;
  const failing = run.cases.filter((c) => ['failed', 'error', 'unexpected-pass'].includes(c.verdict));
  const reproduce = (cases: typeof run.cases) =>
    cases.map((c) => ({ argv: reproduceArgv(run, c.id, c.property?.replay), stdin: '' }));
  const curl = [curlArgv(sentRecord(d, w))];
  const out: Printed[] = [];
  const results = JSON.parse(o.resultsJson) as ResultsJson;
  results.cases.forEach((c, i) => {
    const own = run.cases[i];
    out.push({ where: 'results.json reproduce', command: c.reproduce, expected: own ? reproduce([own]) : [] });
    if (c.curl !== null)
      out.push({ where: 'results.json curl', command: c.curl, expected: own?.kind === 'gateway' ? curl : [] });
  });
  const facts = htmlElementTexts(o.html, (el, parent) => el.tagName === 'code' && parent.startsWith('reproduce: '));
  for (const c of facts) out.push({ where: 'report.html reproduce', command: c, expected: reproduce(failing) });
  const pres = htmlElementTexts(o.html, (el, parent) => el.tagName === 'pre' && parent.startsWith('the request again'));
  for (const c of pres) out.push({ where: 'report.html curl', command: c, expected: curl });
  for (const c of markdownCommands(o.md, 'reproduce:'))
    out.push({ where: 'report.md reproduce', command: c, expected: reproduce(failing) });
  for (const c of markdownCommands(o.md, 'the request again'))
    out.push({ where: 'report.md curl', command: c, expected: curl });
  // each source prints one line per failing case, and one curl line for the case of the kit's own request
  const count = (where: string): number => out.filter((p) => p.where === where).length;
  const missing: Printed[] = [];
  if (!run.aborted)
    for (const [where, n] of [
      ['report.html reproduce', failing.length],
      ['report.md reproduce', failing.length],
      ['report.html curl', 1],
      ['report.md curl', 1],
      ['results.json curl', 1],
    ] as const)
      if (count(where) !== n) missing.push({ where, command: `(${count(where)} commands, not ${n})`, expected: [] });
  return [...out, ...missing];
}

/**
 * Every finding of one data set.
 * @param d - the data
 * @param shell - where the printed commands run
 * @returns the findings (none: every writer held)
 */
export function attackFindings(d: AttackData, shell: StubShell): Finding[] {
  const hostile = new World('hostile', d.secrets);
  const plain = new World('plain', d.secrets);
  const h = render(d, hostile);
  const p = render(d, plain);
  const found: Finding[] = [];
  found.push(...checkHtml('report.html', h.html, p.html));
  found.push(...checkHtml('compare.html', h.compareHtml, p.compareHtml));
  found.push(...checkMarkdown('report.md', h.md, p.md));
  found.push(...checkMarkdown('step summary', h.stepSummary, p.stepSummary));
  found.push(...checkMarkdown('compare.md', h.compareMd, p.compareMd));
  const junit = checkJunit(h.junit, p.junit);
  found.push(...junit.found);
  found.push(...checkTerminal(h.terminal));
  const secrets = d.secrets;
  found.push(...checkSecrets('report.html', [h.html, ...htmlTexts(h.html)], secrets));
  found.push(...checkSecrets('compare.html', [h.compareHtml, ...htmlTexts(h.compareHtml)], secrets));
  found.push(...checkSecrets('junit.xml', [h.junit, ...(junit.tree ? xmlTexts(junit.tree) : [])], secrets));
  found.push(...checkSecrets('report.md', [h.md], secrets));
  found.push(...checkSecrets('step summary', [h.stepSummary], secrets));
  found.push(...checkSecrets('compare.md', [h.compareMd], secrets));
  found.push(...checkSecrets('results.json', [h.resultsJson, ...jsonTexts(JSON.parse(h.resultsJson))], secrets));
  found.push(...checkSecrets('run.log', [h.runLog], secrets));
  found.push(...checkSecrets('terminal', [h.terminal], secrets));
  const printed = printedCommands(h, d, hostile);
  const { ran, made } = shell.run(printed.map((c) => c.command));
  if (made.length > 0) found.push({ kind: 'commands: ran more than curl or npx', detail: `made ${made.join(', ')}` });
  printed.forEach((c, i) => {
    const got = ran[i] ?? [];
    const ok =
      got.length === 1 &&
      c.expected.some(
        (e) => JSON.stringify(e.argv) === JSON.stringify(got[0]?.argv) && e.stdin === (got[0]?.stdin ?? ''),
      );
    if (!ok)
      found.push({
        kind: `${c.where}: argv`,
        detail:
          `${JSON.stringify(c.command)} ran ${JSON.stringify(got)}` +
          `${c.expected.length === 1 ? `, not ${JSON.stringify(c.expected[0])}` : ''}`,
      });
  });
  return found;
}

function jsonTexts(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(jsonTexts);
  if (typeof v === 'object' && v !== null) return Object.entries(v).flatMap(([k, x]) => [k, ...jsonTexts(x)]);
  return [];
}
