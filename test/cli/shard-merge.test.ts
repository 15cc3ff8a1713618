/**
 * Sharded runs (issue 13, item 2): `run --shard <i>/<n>` takes a stable share of the cases, by id;
 * `merge` joins the shards' report folders into the reports one run would have written — the
 * same totals, verdict, causes, case order and exit code — for a passing and a failing
 * implementation; shards that do not make one whole run are refused.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseShard, shardOf } from '../../src/runner/shard.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = tempFolders('pgv2kit-shard-');
type Results = {
  totals: Record<string, number>;
  conformant: boolean;
  summary: string;
  shard: unknown;
  cases: Array<{ id: string; verdict: string }>;
  causes: Array<{ mistake: string | null; count: number }>;
  operations: unknown;
  otherTargets: unknown;
};
const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

describe('shardOf and parseShard', () => {
  const ids = liveCases(loadVectorSet()).map((l) => l.case.id);

  it('puts every case in exactly one shard, each shard some, by id alone: a case keeps its shard when others come', () => {
    for (const n of [2, 3, 5]) {
      const shards = ids.map((id) => shardOf(id, n));
      expect(new Set(shards)).toEqual(new Set(Array.from({ length: n }, (_, i) => i + 1)));
      // with other ids added before them, the same ids land in the same shards
      expect(['new.case-1', 'new.case-2', ...ids].map((id) => shardOf(id, n)).slice(2)).toEqual(shards);
    }
    expect(ids.every((id) => shardOf(id, 1) === 1)).toBe(true);
  });

  it('reads <i>/<n>, and nothing else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(parseShard('1000/1000')).toEqual({ index: 1000, count: 1000 });
    for (const bad of ['0/2', '3/2', '1/0', '1', '1/2/3', 'a/b', '-1/2', '', '1/1001'])
      expect(parseShard(bad), bad).toBeUndefined();
  });
});

describe.concurrent('run --shard 1/2 and 2/2, merged: the reports and exit code of one run', () => {
  it.each([
    ['a passing implementation', join(ROOT, 'test/panel/members/js-strict.mjs'), 'testee', 0],
    ['a failing implementation', join(ROOT, 'test/zoo/members/no-final-lf.ts'), 'module', 1],
  ] as const)(
    '%s',
    async (_, path, how, code) => {
      const cwd = tmp();
      // the testee without the properties (quicker); the module with them (properties are sharded too)
      const target =
        how === 'testee' ? ['--testee', `"${process.execPath}" "${path}"`, '--no-properties'] : ['--module', path];
      const whole = await run(['run', ...target, '--report-dir', 'whole'], { cwd });
      expect(whole.code, whole.stderr).toBe(code);
      const shards = await Promise.all(
        [1, 2].map((i) => run(['run', ...target, '--shard', `${i}/2`, '--report-dir', `s${i}`], { cwd })),
      );
      const [a, b] = [results(join(cwd, 's1')), results(join(cwd, 's2'))];
      expect(a.shard).toEqual({ index: 1, count: 2 });
      expect(a.cases.length).toBeGreaterThan(0);
      expect(b.cases.length).toBeGreaterThan(0);
      expect(a.cases.length + b.cases.length).toBe(results(join(cwd, 'whole')).cases.length);
      for (const s of shards) expect([0, 1]).toContain(s.code);
      // given in the other order, on purpose
      const merged = await run(['merge', 's2', 's1', '--report-dir', 'merged'], { cwd });
      expect(merged.code, merged.stderr).toBe(code);
      const w = results(join(cwd, 'whole'));
      const m = results(join(cwd, 'merged'));
      expect(m.totals).toEqual(w.totals);
      expect(m.conformant).toBe(w.conformant);
      expect(m.shard).toBeNull();
      expect(m.cases.map((c) => [c.id, c.verdict])).toEqual(w.cases.map((c) => [c.id, c.verdict]));
      expect(m.causes).toEqual(w.causes);
      expect(m.operations).toEqual(w.operations);
      expect(m.otherTargets).toEqual(w.otherTargets);
      expect(m.summary.replace(/, [\d.]+ s\)$/, '')).toBe(w.summary.replace(/, [\d.]+ s\)$/, ''));
      expect(readFileSync(join(cwd, 'merged/junit.xml'), 'utf8')).toContain(`tests="${w.cases.length}"`);
      expect(merged.stdout).toMatch(/merged 2 shards: (NOT )?CONFORMANT/);
    },
    60_000,
  );
});

describe.concurrent('merge refuses what is not one whole run (exit 2)', () => {
  const module = join(ROOT, 'test/zoo/members/uppercase-hex.ts');
  // a few failing cases, some in each of the three shards: what is refused does not depend on how many there
  // are, and a merge reads every shard file whole (the signature cases' shards are megabytes: a second of CPU)
  const only = [
    '--only',
    'signature.generate-upload-url,signature.empty-body-get,signature.uppercase-hex,signature.uppercase-hex.payment',
    '--no-properties',
  ];
  const shard = async (cwd: string, dir: string, spec: string, extra: string[] = []): Promise<void> => {
    const r = await run(['run', '--module', module, ...only, '--shard', spec, '--report-dir', dir, ...extra], { cwd });
    expect(r.code, r.stderr).toBe(1);
  };

  it('a shard missing, one given twice, shards of different selections, a folder that is no shard', async () => {
    const cwd = tmp();
    await shard(cwd, 'a1', '1/3');
    await shard(cwd, 'a2', '2/3');
    await shard(cwd, 'a3', '3/3');
    await shard(cwd, 'b2', '2/3', ['--skip', 'signature.uppercase-hex']);
    await run(['run', '--module', module, ...only, '--report-dir', 'whole'], { cwd });
    // each shard holds some of the cases
    for (const dir of ['a1', 'a2', 'a3']) expect(results(join(cwd, dir)).cases.length, dir).toBeGreaterThan(0);
    const cases: Array<[string[], string]> = [
      [['a1', 'a2'], 'shard 3/3 missing'],
      [['a1', 'a2', 'a2', 'a3'], 'shard 2/3 given more than once'],
      [['a1', 'b2', 'a3'], 'is not of the same run as shard 1/3: the selection (--only, --skip, --properties) differs'],
      [['a1', 'whole'], `holds no shard.json: it is not the report folder of a run with --shard <i>/<n>`],
      [[], 'give the report folder of every shard'],
    ];
    for (const [dirs, message] of cases) {
      const r = await run(['merge', ...dirs, '--report-dir', 'm'], { cwd });
      expect(r.code, dirs.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
    }
    // merged without reports: the --json line and the --junit file say what one run would
    const quiet = await run(['merge', 'a1', 'a2', 'a3', '--no-reports', '--json', '--junit', 'ci/junit.xml'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: join(cwd, 'summary.md') },
    });
    expect(quiet.code).toBe(1);
    expect(JSON.parse(quiet.stdout)).toMatchObject({
      exitCode: 1,
      conformant: false,
      reportsDir: null,
      junit: join(cwd, 'ci/junit.xml'),
    });
    expect(readFileSync(join(cwd, 'ci/junit.xml'), 'utf8')).toContain('failures=');
    expect(readFileSync(join(cwd, 'summary.md'), 'utf8')).toContain('**NOT CONFORMANT:');
    writeFileSync(join(cwd, 'a3', 'shard.json'), '{"format":"something else"}');
    const bad = await run(['merge', 'a1', 'a2', 'a3', '--no-reports'], { cwd });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a pgv2kit shard file');
  }, 60_000);

  it('a shard whose testee never started: it still writes its shard, and the merged run says so (exit 3)', async () => {
    const cwd = tmp();
    // one command for both shards: it starts the Node adapter only where the file "ok" is
    const testee = `test -f ok && exec "${process.execPath}" "${join(ROOT, 'examples/node-adapter/adapter.mjs')}" || exit 2`;
    writeFileSync(join(cwd, 'ok'), '');
    // the URL cases: a merge reads every shard file whole, and those of every signature case are megabytes
    const only = ['--only', 'signature.url-*'];
    const first = await run(
      ['run', '--testee', testee, ...only, '--no-properties', '--shard', '1/2', '--report-dir', 's1'],
      { cwd },
    );
    expect(first.code, first.stderr).toBe(0);
    expect(results(join(cwd, 's1')).cases.length).toBeGreaterThan(0);
    rmSync(join(cwd, 'ok'));
    const second = await run(
      ['run', '--testee', testee, ...only, '--no-properties', '--shard', '2/2', '--report-dir', 's2'],
      { cwd },
    );
    expect(second.code).toBe(3);
    expect(existsSync(join(cwd, 's2', 'shard.json'))).toBe(true);
    const merged = await run(['merge', 's1', 's2'], { cwd });
    expect(merged.code).toBe(3);
    expect(merged.stdout).toContain('TESTEE COULD NOT START');
    // named apart from its shards: the default folder is not shard 1's
    expect(merged.stdout).toMatch(/reports: .*\/reports\/merged-/);
    expect(existsSync(join(cwd, 's1', 'shard.json'))).toBe(true);
    const onto = await run(['merge', 's1', 's2', '--report-dir', 's1'], { cwd });
    expect(onto.code).toBe(2);
    expect(onto.stderr).toContain("is one of the shards' folders");
    expect((await run(['merge', 's1', 'nowhere'], { cwd })).stderr).toContain('nowhere does not exist');
  }, 60_000);

  it.each([['0/2'], ['3/2'], ['half']])('run --shard %s → exit 2', async (spec) => {
    const r = await run(['run', '--shard', spec, '--no-reports'], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--shard takes <i>/<n> with 1 ≤ i ≤ n ≤ 1000 (e.g. 2/4), not ${JSON.stringify(spec)}`);
  });
});

describe('a shard from elsewhere names the merged folder (issue 25, item 3)', () => {
  it('a runName of x/../../… stays one folder inside reports/: nothing outside is replaced', async () => {
    const cwd = tmp();
    const only = ['--only', 'signature.generate-upload-url', '--no-properties'];
    expect((await run(['run', ...only, '--shard', '1/1', '--report-dir', 's1'], { cwd })).code).toBe(0);
    // a victim: an unrelated report folder beside reports/, and the shard's runName pointing at it
    expect((await run(['run', ...only, '--report-dir', 'victim'], { cwd })).code).toBe(0);
    const victim = readFileSync(join(cwd, 'victim', 'results.json'), 'utf8');
    const shardFile = join(cwd, 's1', 'shard.json');
    const shard = JSON.parse(readFileSync(shardFile, 'utf8')) as { model: { runName: string } };
    shard.model.runName = 'x/../../victim';
    writeFileSync(shardFile, JSON.stringify(shard));
    const r = await run(['merge', 's1'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(cwd, 'victim', 'results.json'), 'utf8')).toBe(victim);
    const written = /reports: (.*)\n/.exec(r.stdout)?.[1] ?? '';
    expect(written.startsWith(join(cwd, 'reports') + '/')).toBe(true);
    expect(written.slice(join(cwd, 'reports').length + 1)).not.toContain('/');
  });
});
