/**
 * One attack (issue 25, item 6): a data set rendered by every report writer in its hostile and its plain world, and
 * every check of attack-checks.ts run over the renders; the printed commands run in `sh` with curl and npx stubbed
 * (attack-shell.ts), each against the argv the test's own data says it must have.
 */
import { buildModel } from '../../../src/reports/_model.js';
import { logText } from '../../../src/reports/write.js';
import { htmlFromModel } from '../../../src/reports/html.js';
import { junitFromModel } from '../../../src/reports/junit.js';
import { markdownFromModel, stepSummaryFromModel } from '../../../src/reports/markdown.js';
import { resultsJsonFromModel, type ResultsJson } from '../../../src/reports/results-json.js';
import { compareHtml, compareMarkdown, type CompareEntry } from '../../../src/reports/compare.js';
import { caseLines, summary } from '../../../src/runner/progress.js';
import { redactingIo, type CliIo } from '../../../src/cli/io.js';
import { describeImplementation, type Json } from '../../../src/subjects/subject.js';
import type { RunResult } from '../../../src/runner/result.js';
import { certificationOf } from '../../../src/roles/merchant/certify/certify.js';
import { certificationPages } from '../../../src/roles/merchant/certify/report.js';
import type { HttpCall } from '../../../src/roles/merchant/as-gateway/call.js';
import { liveCases, loadVectorSet } from '../../../src/vectors/load.js';
import type { VectorSet } from '../../../src/vectors/types.js';
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
  /** `pgv2kit certify`'s certification.html, as written beside the reports (writeReports' `extra`, masked there). */
  readonly certificate: string;
  /** The merchant call the certificate shows again with curl. */
  readonly call: HttpCall;
}

let kitSet: VectorSet | undefined;

/**
 * A merchant's certification in a world: one failed check of the kit's first merchant case, the merchant's answer
 * (body, Location), the run's appId and acceptance texts hostile, its secret the world's first.
 */
function certification(d: AttackData, w: World): { html: string; call: HttpCall } {
  kitSet ??= loadVectorSet();
  const merchantCase = liveCases(kitSet).find((l) => l.case.kind === 'merchant')?.case;
  if (!merchantCase) throw new Error('the kit has no merchant case');
  const secret = w.secrets[0] ?? '';
  const sent = sentRecord(d, w);
  const call: HttpCall = { method: 'POST', url: sent.url, headers: sent.headers, body: sent.body };
  const run: RunResult = {
    ...attackRun({ ...d, aborted: false }, w),
    target: { kind: 'merchant', description: 'merchant at http://127.0.0.1:9/notify' },
    cases: [
      {
        id: merchantCase.id,
        kind: 'merchant',
        file: 'merchant/webhook.yaml',
        comment: merchantCase.comment,
        spec: ['5.5'],
        readings: [],
        flags: [],
        result: merchantCase.result,
        status: 'fail',
        verdict: 'failed',
        message: `the merchant refused: ${w.text(d.errorMessage)}`,
        durationMs: 3,
        ops: [
          {
            op: 'merchant.webhook',
            status: 'fail',
            expected: 'accept',
            message: `the merchant refused: ${w.text(d.errorMessage)}`,
            durationMs: 3,
            got: {
              result: {
                call: call as unknown as Json,
                outcome: { kind: 'response', status: 500, body: w.text(d.got), location: w.text(d.reason), ms: 3 },
                handling: 'server-error',
                readings: 'accept',
                accepting: `a 2xx with body ${w.text(d.listedReason)}`,
              },
            },
          },
        ],
      },
    ],
  };
  const r = certificationOf(run, kitSet, {
    seed: 1,
    timeoutMs: 5000,
    // a command-line value: well-formed UTF-8
    appId: Buffer.from(w.text(d.name), 'utf8').toString('utf8'),
    appSecret: secret,
    notifyUrl: 'http://127.0.0.1:9/notify',
    returnUrl: 'http://127.0.0.1:9/return',
    acceptBody: w.text(d.version),
    returnRefusalBody: w.text(d.language),
  });
  const html = certificationPages(r, w.secrets).find((p) => p.name === 'certification.html')?.content ?? '';
  return { html, call };
}

function render(d: AttackData, w: World, certify: boolean): Outputs {
  const run = attackRun(d, w);
  const secrets = w.secrets;
  const model = buildModel(run, secrets);
  // what write.ts writes into a report folder, in process
  const resultsJson = `${JSON.stringify(resultsJsonFromModel(model, secrets), null, 2)}\n`;
  // compare reads results.json files: this run's, and one of another implementation that passed every case
  const results = JSON.parse(resultsJson) as ResultsJson;
  // a results.json from elsewhere: hostile text also where the kit writes its own words (a kind, an operation, a
  // mistake, the vector set's hash), and its failures turned into passes (so every case differs)
  const other = {
    ...results,
    implementation: { ...results.implementation, name: `${results.implementation.name} other` },
    target: { ...results.target, kind: w.text(d.language) },
    vectorSetHash: w.text(d.runName),
    operations: results.operations.map((o) => ({ ...o, op: w.text(d.unknownOp) })),
    cases: results.cases.map((c) => ({
      ...c,
      verdict: c.verdict === 'passed' ? 'failed' : 'passed',
      diagnosis: [{ mistake: w.text(d.stale), message: w.text(d.diagnosis), ref: '§5.1', page: null }],
    })),
  } as ResultsJson;
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
  const cert = certify ? certification(d, w) : { html: '', call: { method: 'POST' as const, url: '', headers: [] } };
  return {
    run,
    certificate: cert.html,
    call: cert.call,
    html: htmlFromModel(model, secrets),
    junit: junitFromModel(model, secrets),
    md: markdownFromModel(model, secrets),
    stepSummary: stepSummaryFromModel(model, secrets, '/work/reports/run'),
    resultsJson,
    runLog: logText(model, secrets),
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
  const again = htmlElementTexts(
    o.certificate,
    (el, parent) => el.tagName === 'pre' && parent.startsWith('the call again'),
  );
  for (const c of again)
    out.push({
      where: 'certification.html curl',
      command: c,
      expected: [curlArgv({ ...o.call, body: o.call.body ?? '' })],
    });
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
      ['certification.html curl', o.certificate === '' ? 0 : 1],
    ] as const)
      if (count(where) !== n) missing.push({ where, command: `(${count(where)} commands, not ${n})`, expected: [] });
  return [...out, ...missing];
}

/**
 * Every finding of one data set.
 * @param d - the data
 * @param shell - where the printed commands run
 * @param kinds - only the checks that can find these kinds (a counterexample's), to save their time; default all
 * @returns the findings (none: every writer held)
 */
export function attackFindings(d: AttackData, shell: StubShell, kinds?: readonly string[]): Finding[] {
  const wants = (prefix: string): boolean => kinds === undefined || kinds.some((k) => k.startsWith(prefix));
  const certify = wants('certification.html');
  const hostile = new World('hostile', d.secrets);
  const plain = new World('plain', d.secrets);
  const h = render(d, hostile, certify);
  const p = render(d, plain, certify);
  const found: Finding[] = [];
  const twin = (name: string, check: () => Finding[]): void => {
    if (kinds === undefined || kinds.some((k) => k.startsWith(`${name}: `) && !k.startsWith(`${name}: secret`)))
      found.push(...check());
  };
  twin('report.html', () => checkHtml('report.html', h.html, p.html));
  twin('compare.html', () => checkHtml('compare.html', h.compareHtml, p.compareHtml));
  if (certify) twin('certification.html', () => checkHtml('certification.html', h.certificate, p.certificate));
  twin('report.md', () => checkMarkdown('report.md', h.md, p.md));
  twin('step summary', () => checkMarkdown('step summary', h.stepSummary, p.stepSummary));
  twin('compare.md', () => checkMarkdown('compare.md', h.compareMd, p.compareMd));
  const junit = checkJunit(h.junit, p.junit);
  found.push(...junit.found);
  found.push(...checkTerminal(h.terminal));
  const secrets = d.secrets;
  const leaks = (name: string, texts: () => string[]): void => {
    if (wants(`${name}: secret`)) found.push(...checkSecrets(name, texts(), secrets));
  };
  leaks('report.html', () => [h.html, ...htmlTexts(h.html)]);
  leaks('compare.html', () => [h.compareHtml, ...htmlTexts(h.compareHtml)]);
  if (certify) leaks('certification.html', () => [h.certificate, ...htmlTexts(h.certificate)]);
  leaks('junit.xml', () => [h.junit, ...(junit.tree ? xmlTexts(junit.tree) : [])]);
  leaks('report.md', () => [h.md]);
  leaks('step summary', () => [h.stepSummary]);
  leaks('compare.md', () => [h.compareMd]);
  leaks('results.json', () => [h.resultsJson, ...jsonTexts(JSON.parse(h.resultsJson))]);
  leaks('run.log', () => [h.runLog]);
  leaks('terminal', () => [h.terminal]);
  if (kinds !== undefined && !kinds.some((k) => k.endsWith(': argv'))) return found;
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
