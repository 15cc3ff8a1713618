/**
 * `pgv2kit compare` trusts nothing in a results.json (issue 25, items 4, 1 and 3): each file is checked
 * against the published schema (exit 2 naming the file and the field's JSON pointer), bounded in size
 * and count, its verdict and totals recomputed from its cases (and a file that says otherwise named),
 * every text escaped for the page, the Markdown and the badge, and an earlier comparison's badges never
 * lost to a write that fails. In process: readCompareEntries, compareHtml, compareMarkdown, badgeSvg; the
 * CLI's own `run` (in process too) only for the exit code, the terminal and --json.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  badgeFiles,
  badgeSvg,
  badgeVerdict,
  CompareInputError,
  compareHtml,
  compareMarkdown,
  compareWarnings,
  readCompareEntries,
  type CompareEntry,
} from '../../src/reports/compare.js';
import { toResultsJson, type ResultsJson } from '../../src/reports/results-json.js';
import { checkResultsJson, RESULTS_SCHEMA } from '../../src/reports/results-schema.js';
import { recomputeRun } from '../../src/reports/results-verdict.js';
import { VERDICT_INFO } from '../../src/runner/result.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';
import { fixtureCases, fixtureRun, SECRETS } from './_fixture.js';

const tmp = tempFolders('pgv2kit-compare-trust-');
/** The fixture run as the kit writes it: 3 passed, 1 failed, 1 error, 1 unexpected pass … of 10 cases. */
const failing = (): ResultsJson => toResultsJson(fixtureRun(), SECRETS);
/** Its passed cases alone: a conformant run. */
const passing = (): ResultsJson =>
  toResultsJson(fixtureRun({ cases: fixtureCases().filter((c) => c.verdict === 'passed') }), SECRETS);
/** Writes each value as a results.json of its own folder; the files, in order. */
function files(...values: unknown[]): string[] {
  const dir = tmp();
  return values.map((v, i) => {
    mkdirSync(join(dir, `run${i}`));
    const file = join(dir, `run${i}`, 'results.json');
    writeFileSync(file, typeof v === 'string' ? v : JSON.stringify(v));
    return file;
  });
}
const entry = (results: ResultsJson, file: string, key = 'k'): CompareEntry => ({ key, results, file });

describe('a results.json that says more than its cases (issue 25, item 4)', () => {
  // conformant: true and totals of 10 passed, beside a failed, an error and an unexpected pass
  const lie = (): ResultsJson => {
    const r = failing();
    return {
      ...r,
      conformant: true,
      summary: 'CONFORMANT: 10 passed (10 cases, 1.234 s)',
      totals: { ...r.totals, passed: 10, failed: 0, error: 0, 'unexpected-pass': 0 },
    };
  };

  it('gets the red badge its cases give, with their counts, and the file named on the page and in the .md', () => {
    const [file = ''] = files(lie());
    const entries = readCompareEntries([file]);
    const cases = failing().cases;
    // counted here from the cases: 3 of 10 passed; failed, error and unexpected pass fail a run
    const passed = cases.filter((c) => c.verdict === 'passed').length;
    expect(cases.some((c) => VERDICT_INFO[c.verdict].failsRun)).toBe(true);
    expect(badgeVerdict(entries[0]?.results as ResultsJson)).toBe('not conformant');
    const svg = badgeSvg(entries[0]?.results as ResultsJson);
    expect(svg).toContain('fill="#c62828"');
    expect(svg).toContain(`${passed}/${cases.length} passed`);
    const [warning] = compareWarnings(entries);
    expect(warning).toContain(file);
    expect(warning).toContain('"conformant": true, but its cases make it not conformant (1 failed, 1 error');
    expect(warning).toContain('"totals" passed 10, failed 0, error 0, unexpected-pass 0, but its cases count passed 3');
    const html = compareHtml(entries, tmp());
    expect(html).toContain(`<p class="notice warn">Note: ${file}`);
    expect(html).not.toContain('CONFORMANT: 10 passed');
    expect(html).toContain('NOT CONFORMANT: 3 passed, 1 failed');
    const md = compareMarkdown(entries);
    expect(md).toContain('> Note: ');
    expect(md).toContain('"conformant": true, but its cases make it not conformant');
    expect(md).toContain('not conformant: NOT CONFORMANT: 3 passed');
  });

  it('a case called passed whose steps failed is shown as its steps say, and the file named', () => {
    // every case passed, as far as the file's verdicts go; one case's step failed
    const r = passing();
    const [first, ...rest] = r.cases;
    const forged = first && {
      ...first,
      ops: first.ops.map((o, i) => (i === 0 ? { ...o, status: 'fail' as const } : o)),
    };
    const [file = ''] = files({ ...r, cases: [forged, ...rest] });
    const entries = readCompareEntries([file]);
    expect(badgeVerdict(entries[0]?.results as ResultsJson)).toBe('not conformant');
    expect(entries[0]?.results.cases[0]).toMatchObject({ id: first?.id, status: 'fail', verdict: 'failed' });
    const [warning] = compareWarnings(entries);
    expect(warning).toContain(
      `1 case a verdict its steps contradict (${first?.id}: "passed", its steps give "failed")`,
    );
    expect(warning).toContain('"conformant": true, but its cases make it not conformant (1 failed)');
  });

  it('the terminal says it in a note: line, and shows the verdict its cases give', async () => {
    const [file = ''] = files(lie());
    const cwd = tmp();
    const r = await run(['compare', file, '--out', 'out'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^NOT CONFORMANT {2}acme-pg-sdk 1\.4\.2: NOT CONFORMANT: 3 passed, 1 failed/m);
    expect(r.stdout).toContain(`note: ${file} (acme-pg-sdk 1.4.2) says "conformant": true, but its cases`);
    // --json: the one document says the same, every other line on stderr
    const j = await run(['compare', file, '--out', 'out', '--json'], { cwd });
    expect(j.code, j.stderr).toBe(0);
    const doc = JSON.parse(j.stdout) as { runs: Array<{ verdict: string; conformant: boolean; disagreements: [] }> };
    expect(doc.runs[0]).toMatchObject({ verdict: 'not conformant', conformant: false });
    expect(doc.runs[0]?.disagreements).toHaveLength(2);
    expect(j.stderr).toContain('note: ');
  });

  it('files the kit writes agree with their cases: no note, the same summary', () => {
    const runs = [
      fixtureRun(),
      fixtureRun({ cases: fixtureCases().filter((c) => c.verdict === 'passed') }),
      fixtureRun({ shard: { index: 1, count: 2, ids: ['signature.basics.get-empty-body'] } }),
      fixtureRun({ stopped: { kind: 'interrupted', reason: 'interrupted by SIGINT', notRun: 3 } }),
      fixtureRun({ cases: [], noTestRan: 'no test ran: the vector set leaves no case', offered: [], operations: [] }),
      fixtureRun({
        cases: [],
        offered: [],
        operations: [],
        aborted: {
          kind: 'testee-start',
          message: 'the testee exited with code 1 before it was ready',
          command: 'false',
          exitCode: 1,
          signal: null,
          ended: 'exited with code 1',
          stderrTail: [],
        },
      }),
    ].map((x) => toResultsJson(x, SECRETS));
    for (const r of runs) {
      expect(checkResultsJson(r)).toEqual([]);
      const again = recomputeRun(r);
      expect(again.disagreements).toEqual([]);
      expect(again.summary).toBe(r.summary);
      expect(again.conformant).toBe(r.conformant);
    }
    expect(runs.map((r) => badgeVerdict(r))).toEqual([
      'not conformant',
      'conformant',
      'not conformant',
      'not conformant',
      'nothing ran',
      'nothing ran',
    ]);
  });
});

describe('a results.json of the wrong shape is exit 2 naming the file and the field (issue 25, item 4)', () => {
  const base = JSON.stringify(passing());
  it.each<[string, (r: Record<string, unknown>) => unknown, string]>([
    ['cases: [null]', (r) => ({ ...r, cases: [null] }), '/cases/0: must be object'],
    ['implementation: null', (r) => ({ ...r, implementation: null }), '/implementation: must be object'],
    ['totals as strings', (r) => ({ ...r, totals: { ...(r['totals'] as object), passed: '3' } }), '/totals/passed'],
    [
      'a verdict the kit does not know',
      (r) => ({ ...r, cases: [{ ...(r['cases'] as object[])[0], verdict: 'great' }] }),
      '/cases/0/verdict: must be one of passed, failed',
    ],
    ['a huge count', (r) => ({ ...r, totals: { ...(r['totals'] as object), failed: 2 ** 53 } }), '/totals/failed'],
    ['a negative count', (r) => ({ ...r, totals: { ...(r['totals'] as object), failed: -1 } }), '/totals/failed'],
    [
      'a string over 1 MiB',
      (r) => ({ ...r, cases: [{ ...(r['cases'] as object[])[0], comment: 'x'.repeat(1024 * 1024 + 1) }] }),
      '/cases/0/comment: must NOT have more than 1048576 characters',
    ],
    ['no cases', (r) => ({ ...r, cases: undefined }), '/cases: is missing'],
    ['another layout', (r) => ({ ...r, schemaVersion: 3 }), '/schemaVersion: must be 2'],
  ])('%s', (_what, change, pointer) => {
    const [file = ''] = files(change(JSON.parse(base) as Record<string, unknown>));
    let thrown: unknown;
    try {
      readCompareEntries([file]);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(CompareInputError);
    expect((thrown as Error).message).toContain(`${file} is not the results.json of a pgv2kit run`);
    expect((thrown as Error).message).toContain(pointer);
  });

  it('a number too large for JSON (1e400) is named too', () => {
    const [file = ''] = files(base.replace('"durationMs":1234', '"durationMs":1e400'));
    expect(() => readCompareEntries([file])).toThrow('/durationMs: must be number');
  });

  it('--json: one JSON document, exit 2, the field named', async () => {
    const [file = ''] = files({ ...passing(), cases: [null] });
    const r = await run(['compare', file, '--out', 'out', '--json'], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const doc = JSON.parse(r.stdout) as { exitCode: number; error: { message: string } };
    expect(doc.exitCode).toBe(2);
    expect(doc.error.message).toContain('/cases/0: must be object');
    expect(r.stderr).not.toContain('internal error');
  });

  it('the schema names every verdict the runner knows', () => {
    const cases = (
      RESULTS_SCHEMA as { properties: { cases: { items: { properties: { verdict: { enum: string[] } } } } } }
    ).properties.cases.items.properties.verdict.enum;
    expect([...cases].sort()).toEqual(Object.keys(VERDICT_INFO).sort());
  });
});

describe('bounded work (issue 25, item 4)', () => {
  it('a file over 64 MiB is refused before it is read, naming the file and the cap', () => {
    const [file = ''] = files('{}');
    truncateSync(file, 64 * 1024 * 1024 + 1); // sparse: no 64 MiB written
    expect(() => readCompareEntries([file])).toThrow(
      `${file} is 64.0 MiB, over the limit of 64 MiB per file (a results.json compare reads)`,
    );
  });

  it('a device is refused unread (/dev/zero never ends)', () => {
    expect(() => readCompareEntries(['/dev/zero'])).toThrow('/dev/zero is a character device, not a regular file');
  });

  it('more than 1,000 runs are refused before any is read', () => {
    const paths = Array.from({ length: 1001 }, (_, i) => `/nowhere/${i}`);
    expect(() => readCompareEntries(paths)).toThrow('1001 runs given: one comparison takes at most 1000');
  });

  it('50,000 operations: the page in well under a second or two (the search per cell was quadratic)', () => {
    const r = passing();
    const op = r.operations[0] as ResultsJson['operations'][number];
    const operations = Array.from({ length: 50_000 }, (_, i) => ({ ...op, op: `op.${i}` }));
    const many = { ...r, operations } as ResultsJson;
    const entries = [entry(many, '/a/results.json', 'a'), entry(many, '/b/results.json', 'b')];
    const started = performance.now();
    const html = compareHtml(entries, '/');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(html).toContain('<code>op.49999</code>');
  });
});

describe('every text escaped for its format (issue 25, item 1)', () => {
  const hostile = 'a|b`c<script>alert(1)</script>[x](javascript:alert(1))\r\n| d';
  /** The run under another name, its case `at` (by index) given the hostile id. */
  const named = (r: ResultsJson, name: string, at = 0): ResultsJson => ({
    ...r,
    implementation: { ...r.implementation, name },
    cases: r.cases.map((c, i) => (i === at ? { ...c, id: hostile } : c)),
  });

  it('compare.md: case ids and names stay in their table cells, no markup or link', () => {
    const entries = [
      // failed in one run, passed in the other: a case that differs, in the table of those
      entry(named(failing(), hostile, 1), '/a/results.json', hostile),
      entry(named(passing(), 'b'), '/b/results.json', 'b'),
    ];
    const md = compareMarkdown(entries);
    expect(md).toContain('## Cases that differ (1)');
    expect(md).not.toContain('<script>');
    expect(md).not.toMatch(/(?<!\\)\]\(javascript:/);
    expect(md).not.toContain('\r');
    // every table row has the cells of its header: an unescaped | is a cell's border
    const cells = (line: string): number => line.split(/(?<!\\)\|/).length - 2;
    const rows = md.split('\n').filter((l) => l.startsWith('|'));
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect(cells(row), row).toBe(3);
    expect(md).toContain('a\\|b\\`c\\<script\\>');
  });

  it('compare.html: a report folder named javascript:… is no link scheme; names and ids escaped', () => {
    const out = '/reports';
    const entries = [
      entry(named(failing(), hostile), '/reports/javascript:alert(1)/results.json', hostile),
      entry(passing(), '/reports/b/results.json', 'b'),
    ];
    const html = compareHtml(entries, out);
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.length).toBeGreaterThan(2);
    for (const href of hrefs) expect(href, href).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
    expect(hrefs).toContain('javascript%3Aalert(1)/report.html');
    expect(html).not.toContain('<script>');
  });

  it('the badge: the name escaped for XML, the numbers counted', () => {
    const svg = badgeSvg(named(passing(), '"><script>x</script>&'));
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&quot;&gt;&lt;script&gt;x&lt;/script&gt;&amp;');
    expect(svg).toMatch(/>3\/3 passed</);
  });
});

describe('compare never loses what it wrote (issue 25, item 3)', () => {
  it('a 300-character implementation name gets a badge file of a length every file system takes', () => {
    const [name = ''] = badgeFiles([`${'n'.repeat(300)} 1`]);
    expect(name.length).toBeLessThanOrEqual(93);
    expect(name.endsWith('.svg')).toBe(true);
  });

  it("a comparison that cannot be written leaves the earlier comparison's badges where they were", async () => {
    const [a = '', b = ''] = files(passing(), {
      ...failing(),
      implementation: { ...failing().implementation, name: 'other' },
    });
    const cwd = tmp();
    expect((await run(['compare', a, b, '--out', 'out'], { cwd })).code).toBe(0);
    const before = readdirSync(join(cwd, 'out/badges')).sort();
    expect(before).toHaveLength(2);
    // compare.html is now a folder: the new comparison fails when it writes the page, after the badges
    const page = join(cwd, 'out/compare.html');
    expect(readFileSync(page, 'utf8')).toContain('<!doctype html>');
    rmSync(page);
    mkdirSync(join(page, 'inside'), { recursive: true });
    const r = await run(['compare', a, '--out', 'out'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot be written');
    expect(readdirSync(join(cwd, 'out/badges')).sort()).toEqual(before);
  });
});
