/**
 * `pgv2kit compare` (issue 13, item 3): the reference, the Python adapter and a defective
 * implementation side by side — one page with the cases they differ on first, each failure linked
 * to the case in its run's report and to its known mistake — and a badge each, coloured by verdict.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { badgeSvg, badgeVerdict } from '../../src/reports/compare.js';
import { toResultsJson, type ResultsJson } from '../../src/reports/results-json.js';
import { checkResultsJson } from '../../src/reports/results-schema.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';
import { fixtureCases, fixtureRun, SECRETS } from './_fixture.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = tempFolders('pgv2kit-compare-');
let cwd = '';
const read = (dir: string): ResultsJson =>
  JSON.parse(readFileSync(join(cwd, dir, 'results.json'), 'utf8')) as ResultsJson;

beforeAll(async () => {
  cwd = tmp();
  // the areas where the three differ, without the properties: enough to compare, quick in CI
  const only = ['--only', 'signature,authorization,request,response', '--no-properties'];
  const runs = await Promise.all([
    run(['run', ...only, '--report-dir', 'reference'], { cwd }),
    run(
      [
        'run',
        '--testee',
        `python3 ${join(ROOT, 'examples/python-adapter/pgv2kit_adapter.py')}`,
        ...only,
        '--report-dir',
        'python',
      ],
      { cwd },
    ),
    run(['run', '--module', join(ROOT, 'test/zoo/members/no-final-lf.ts'), ...only, '--report-dir', 'defective'], {
      cwd,
    }),
  ]);
  expect(runs.map((r) => r.code)).toEqual([0, 0, 1]);
  // what the kit writes is valid against the schema compare checks it by
  for (const dir of ['reference', 'python', 'defective']) expect(checkResultsJson(read(dir)), dir).toEqual([]);
}, 60_000);

describe('pgv2kit compare', () => {
  it('writes the page, the Markdown and three badges; the differing cases counted as the runs say', async () => {
    const r = await run(['compare', 'reference', 'python/results.json', 'defective', '--out', 'page'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const runs = ['reference', 'python', 'defective'].map(read);
    const keys = runs.map((x) => `${x.implementation.name} ${x.implementation.version}`);
    const badges = keys.map((k) => join(cwd, 'page/badges', `${k.replace(/[^A-Za-z0-9._-]+/g, '-')}.svg`));
    for (const b of badges) expect(existsSync(b), b).toBe(true);
    // the colours: green for the two conformant runs, red for the defective one
    expect(readFileSync(badges[0] ?? '', 'utf8')).toContain(
      `${runs[0]?.totals.passed}/${runs[0]?.totals.total} passed`,
    );
    expect(readFileSync(badges[0] ?? '', 'utf8')).toContain('fill="#2e7d32"');
    expect(readFileSync(badges[1] ?? '', 'utf8')).toContain('fill="#2e7d32"');
    expect(readFileSync(badges[2] ?? '', 'utf8')).toContain('fill="#c62828"');
    // counted here from the three results.json: a case differs when the runs that have it disagree
    const ids = [...new Set(runs.flatMap((x) => x.cases.map((c) => c.id)))];
    const differing = ids.filter(
      (id) => new Set(runs.flatMap((x) => x.cases.filter((c) => c.id === id).map((c) => c.verdict))).size > 1,
    );
    expect(differing.length).toBeGreaterThan(30);
    expect(r.stdout).toContain(`${differing.length} cases differ between the implementations`);
    const html = readFileSync(join(cwd, 'page/compare.html'), 'utf8');
    expect(html).toContain(`<h2 id="differ">Cases that differ (${differing.length})</h2>`);
    for (const k of keys) expect(html).toContain(k);
    // the differing cases come before the rest, and a failure links to its case (a report compare wrote the path to) and names its mistake, what it means in its title (no link into this machine's docs/)
    expect(html.indexOf(`<code>${differing[0]}</code>`)).toBeLessThan(html.indexOf('<h2 id="same">'));
    expect(html).toContain('../defective/report.html#case-signature.generate-upload-url');
    expect(html).toMatch(
      /<span class="doc" title="the LF after the body was left out: [^"]+ \(docs\/mistakes\/no-final-lf\.md in the kit\)">no-final-lf<\/span>/,
    );
    expect(html).not.toMatch(/file:\/\//);
    expect(readFileSync(join(cwd, 'page/compare.md'), 'utf8')).toContain(`## Cases that differ (${differing.length})`);
  });

  it.each([
    [[], 'give the results.json (or report folder) of each run to compare'],
    [['nowhere'], 'does not exist'],
    [['reference/report.md'], 'cannot be read as JSON'],
  ])('%j → exit 2', async (paths, message) => {
    const r = await run(['compare', ...paths, '--out', 'x'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('replaces an earlier comparison in its folder, its badges too', async () => {
    expect((await run(['compare', 'reference', 'python', 'defective', '--out', 'again'], { cwd })).code).toBe(0);
    const r = await run(['compare', 'reference', 'python', '--out', 'again'], { cwd });
    expect(r.code).toBe(0);
    expect(readFileSync(join(cwd, 'again/compare.md'), 'utf8')).toContain('2 implementations compared');
    expect(readdirSync(join(cwd, 'again/badges'))).toHaveLength(2);
  });

  it('says when the runs selected different cases or used different vector sets', async () => {
    await run(['run', '--only', 'signature', '--no-properties', '--report-dir', 'signature-only'], { cwd });
    const r = await run(['compare', 'reference', 'signature-only', '--out', 'mixed'], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('note: the runs selected different cases (');
    expect(readFileSync(join(cwd, 'mixed/compare.html'), 'utf8')).toContain('Note: the runs selected different cases');
  });

  it('never writes into a folder of other files, or onto a file', async () => {
    const other = tmp();
    writeFileSync(join(other, 'keep.txt'), 'x');
    const r = await run(['compare', join(cwd, 'reference'), '--out', other], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds other files (keep.txt)');
    const onFile = await run(['compare', join(cwd, 'reference'), '--out', join(other, 'keep.txt')], { cwd });
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toContain('is a file, not a folder');
  });
});

describe('compare writes only what it made (issue 25, item 3)', () => {
  it("never removes a badge it did not write: a user's badges/coverage.svg stays, exit 2 naming it", async () => {
    const out = tmp();
    mkdirSync(join(out, 'badges'));
    writeFileSync(join(out, 'badges', 'coverage.svg'), '<svg/>');
    const r = await run(['compare', join(cwd, 'reference'), '--out', out], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('was not written by pgv2kit compare');
    expect(readFileSync(join(out, 'badges', 'coverage.svg'), 'utf8')).toBe('<svg/>');
    // nor one added beside an earlier comparison's badges
    const earlier = join(tmp(), 'cmp');
    expect((await run(['compare', join(cwd, 'reference'), '--out', earlier], { cwd })).code).toBe(0);
    writeFileSync(join(earlier, 'badges', 'coverage.svg'), '<svg/>');
    const again = await run(['compare', join(cwd, 'reference'), '--out', earlier], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('badges/ holds files pgv2kit compare did not write (coverage.svg)');
    expect(existsSync(join(earlier, 'badges', 'coverage.svg'))).toBe(true);
  });

  it('two implementations whose names differ only in what a file name cannot hold get two badges', async () => {
    // `my sdk` 2 failing and `my-sdk` 2 passing: one badge file before, the failing run's badge green
    const dir = tmp();
    const failing = read('defective');
    const passing = read('reference');
    for (const [name, r] of [
      ['a', { ...failing, implementation: { ...failing.implementation, name: 'my sdk', version: '2' } }],
      ['b', { ...passing, implementation: { ...passing.implementation, name: 'my-sdk', version: '2' } }],
    ] as const) {
      mkdirSync(join(dir, name));
      writeFileSync(join(dir, name, 'results.json'), JSON.stringify(r));
    }
    const r = await run(['compare', join(dir, 'a'), join(dir, 'b'), '--out', join(dir, 'out')], { cwd });
    expect(r.code).toBe(0);
    const files = readdirSync(join(dir, 'out', 'badges')).sort();
    expect(files).toHaveLength(2);
    const colours = files.map(
      (f) => /fill="(#2e7d32|#c62828)"/.exec(readFileSync(join(dir, 'out/badges', f), 'utf8'))?.[1],
    );
    expect(colours.sort()).toEqual(['#2e7d32', '#c62828']);
  });
});

describe('badges', () => {
  // as the kit writes them; the verdict counted from the cases (compare trusts no file's own)
  const cases = fixtureCases();
  const passed = cases.filter((c) => c.verdict === 'passed');
  const named = (over: Parameters<typeof fixtureRun>[0]): ResultsJson => {
    const r = toResultsJson(fixtureRun(over), SECRETS);
    return { ...r, implementation: { ...r.implementation, name: 'a <b>', version: '1' } };
  };
  const one = (verdict: string) => cases.filter((c) => c.verdict === verdict).slice(0, 1);
  it.each([
    [{ cases: passed }, 'conformant', '#2e7d32'],
    [{ cases: [...passed, ...one('partial')] }, 'partial', '#b54708'],
    [{ cases: [...passed, ...one('failed')] }, 'not conformant', '#c62828'],
    [{ cases: [], offered: [], operations: [] }, 'nothing ran', '#667085'],
  ] as const)('%# → %s', (over, verdict, colour) => {
    const r = named(over);
    expect(badgeVerdict(r)).toBe(verdict);
    const svg = badgeSvg(r);
    expect(svg).toContain(`fill="${colour}"`);
    expect(svg).toContain('a &lt;b&gt; 1');
    expect(svg).not.toContain('<b>');
  });
});
