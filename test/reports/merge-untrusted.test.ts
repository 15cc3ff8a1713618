/**
 * `pgv2kit merge` trusts nothing in a shard.json (issue 25, items 4 and 3): each crafted shard
 * file below is refused with a MergeError (exit 2) naming the file and the field's JSON pointer —
 * never merged into a verdict, never an "internal error", never unbounded work — and the merged
 * reports never replace a shard's folder, whatever path names it. Shards are made in process
 * (the reference, `--only 'authorization.format-*'`, split in two), written as `run --shard` writes them, then
 * edited as an attacker would.
 */
import { mkdirSync, openSync, closeSync, ftruncateSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildModel, type ReportModel } from '../../src/reports/_model.js';
import {
  MAX_MERGE_BYTES,
  MAX_SHARD_FILE_BYTES,
  MergeError,
  mergeShards,
  readShard,
  readShards,
  SHARD_FILE,
  shardFileText,
} from '../../src/reports/merge.js';
import { SHARD_SCHEMA } from '../../src/reports/shard-schema.js';
import { runCases } from '../../src/runner/run.js';
import { MAX_SHARDS, shardOf } from '../../src/runner/shard.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import { loadVectorSet } from '../../src/vectors/load.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const tmp = tempFolders('pgv2kit-merge-untrusted-');
type Json = Record<string, unknown>;
type Shard = { format: string; model: Json & { shard: Json; cases: Json[] } };

const set = loadVectorSet();
/** A shard's model as `run --shard i/n --only …` against the reference makes it. */
async function shardModel(index: number, count: number, only = ['authorization.format-*']): Promise<ReportModel> {
  const result = await runCases({
    set,
    subject: createReferenceSubject(),
    target: { kind: 'reference', description: 'built-in reference' },
    selection: { only, skip: [] },
    shard: { index, count },
    runName: `shard-${index}`,
  });
  return buildModel(result, []);
}

let texts: string[] = [];
beforeAll(async () => {
  texts = [shardFileText(await shardModel(1, 2)), shardFileText(await shardModel(2, 2))];
});

/** The two shard files, parsed (fresh copies to edit). */
const files = (): [Shard, Shard] => texts.map((t) => JSON.parse(t) as Shard) as [Shard, Shard];
/** Shard 2 with its first case failing, as a run that failed it records it. */
const failing = (s: Shard): Shard => {
  const c = s.model.cases[0] as Json & { ops: Json[] };
  c['status'] = 'fail';
  c['verdict'] = 'failed';
  (c.ops[0] as Json)['status'] = 'fail';
  return s;
};
/** Writes each shard file in a folder of its own; returns the folders. */
const write = (...shards: Array<Shard | string>): string[] => {
  const root = tmp();
  return shards.map((s, i) => {
    const dir = join(root, `s${i + 1}`);
    mkdirSync(dir);
    writeFileSync(join(dir, SHARD_FILE), typeof s === 'string' ? s : JSON.stringify(s));
    return dir;
  });
};
/** What `pgv2kit merge <dirs>` does in process: read every shard, then merge. */
const merge = (dirs: readonly string[]): ReportModel =>
  mergeShards(readShards(dirs), undefined, { files: dirs.map((d) => join(d, SHARD_FILE)), set });

describe('the shard files the kit writes are read and merged as they are', () => {
  it('a run of two shards merges; a shard legitimately empty (more shards than ids) merges too', async () => {
    const [a, b] = files();
    const m = merge(write(a, b));
    expect(m.cases.length).toBe(a.model.cases.length + b.model.cases.length);
    expect(m.conformant).toBe(true);
    // one id, two shards: one shard has it, the other none — what the ids say, so it is fine
    const id = 'signature.payment-create';
    const empty = shardOf(id, 2) === 1 ? 2 : 1;
    const one = [await shardModel(1, 2, [`id:${id}`]), await shardModel(2, 2, [`id:${id}`])];
    expect(one[empty - 1]?.cases).toEqual([]);
    expect(merge(write(...one.map(shardFileText))).cases.map((c) => c.id)).toEqual([id]);
  });

  it('the schema holds merge to the limits the code says (shards, cases, ids)', () => {
    const defs = (SHARD_SCHEMA as { $defs: Record<string, { properties: Record<string, Json> }> }).$defs;
    const shard = (defs['model']?.properties['shard'] as { properties: Record<string, Json> }).properties;
    expect(shard['count']).toMatchObject({ minimum: 1, maximum: MAX_SHARDS });
    expect(shard['index']).toMatchObject({ minimum: 1, maximum: MAX_SHARDS });
    expect(shard['ids']).toMatchObject({ maxItems: 100_000 });
    expect(defs['model']?.properties['cases']).toMatchObject({ maxItems: 100_000 });
    expect(MAX_SHARD_FILE_BYTES).toBeLessThanOrEqual(MAX_MERGE_BYTES);
  });
});

describe('crafted shard files are refused, exit 2, naming the file and the field (issue 25, item 4)', () => {
  type Attack = [name: string, craft: () => Array<Shard | string>, message: RegExp];
  const one =
    (edit: (s: Shard) => void): (() => Shard[]) =>
    () => {
      const [a] = files();
      edit(a);
      return [a];
    };
  const both =
    (edit: (a: Shard, b: Shard) => void): (() => Shard[]) =>
    () => {
      const [a, b] = files();
      edit(a, b);
      return [a, b];
    };
  const pointer = (p: string, rest: string): RegExp =>
    new RegExp(`s1/shard\\.json\\)?: ${p.replace(/[/.*+?^${}()|[\]\\]/g, '\\$&')}: ${rest}`);
  const attacks: Attack[] = [
    // one shard claiming to be a whole run of 0, ½ or −1 shards merged as a whole run, exit 0
    ['count: 0', one((s) => (s.model.shard['count'] = 0)), pointer('/model/shard/count', 'must be an integer from 1')],
    ['count: 0.5', one((s) => (s.model.shard['count'] = 0.5)), pointer('/model/shard/count', 'must be an integer')],
    ['count: -1', one((s) => (s.model.shard['count'] = -1)), pointer('/model/shard/count', 'must be an integer')],
    // heap out of memory (an array of 300,000,000 shard numbers), and "internal error" (exit 3)
    ['count: 300000000', one((s) => (s.model.shard['count'] = 3e8)), /\/model\/shard\/count: must be an integer/],
    ['count: 2^32', one((s) => (s.model.shard['count'] = 2 ** 32)), /\/model\/shard\/count: must be an integer/],
    ['cases: [null]', both((s) => (s.model.cases = [null as never])), pointer('/model/cases/0', 'must be object')],
    [
      'implementation: null',
      both((s) => (s.model['implementation'] = null)),
      /\/model\/implementation: must be object/,
    ],
    [
      'no ids in either shard',
      both((a, b) => [a, b].forEach((s) => delete s.model.shard['ids'])),
      /\/model\/shard\/ids: required property is missing/,
    ],
    [
      'a verdict that is none',
      both((s) => ((s.model.cases[0] as Json)['verdict'] = 'conformant')),
      /\/model\/cases\/0\/verdict: must be one of "passed", .* \(got "conformant"\)/,
    ],
    // a start that is no moment: the merged run's duration NaN
    [
      'startedAt: "yesterday"',
      both((a) => (a.model['startedAt'] = 'yesterday')),
      /\/model\/startedAt: must match \^\[0-9\]\{4\}/,
    ],
    // shard 2 relabelled as shard 1, merged with shard 2: the failing shard 1 dropped, exit 0
    [
      'shard 2 relabelled as shard 1',
      () => {
        const [, b] = files();
        const relabelled = failing(files()[1]);
        relabelled.model.shard['index'] = 1;
        return [relabelled, b];
      },
      /shard 1\/2 \(.*s1\/shard\.json\): \/model\/cases\/0\/id: ".*" is shard 2\/2's case, not this shard's/,
    ],
    // two shards whose cases overlap: one case counted twice
    [
      'a case in two shards',
      both((a, b) => a.model.cases.push(b.model.cases[0] as Json)),
      /shard 1\/2 .*: \/model\/cases\/\d+\/id: ".*" is shard 2\/2's case/,
    ],
    // a shard with no case merged, exit 0: what did not run counted as not there
    ['cases: []', both((a) => (a.model.cases = [])), /shard 1\/2 .*: \/model\/cases: holds 0 of the \d+ cases/],
    ['a case left out', both((a) => a.model.cases.pop()), /\/model\/cases: holds (\d+) of the \d+ cases/],
    [
      'a case id not in the ids',
      both((a) => ((a.model.cases[0] as Json)['id'] = 'signature.made-up')),
      /\/model\/cases\/0\/id: "signature.made-up" is not one of the run's ids \(\/model\/shard\/ids\)/,
    ],
    [
      'a case twice',
      both((a) => a.model.cases.push(a.model.cases[0] as Json)),
      /\/model\/cases\/\d+\/id: ".*" appears twice/,
    ],
    [
      'an id twice in the ids',
      both((a, b) => {
        for (const s of [a, b]) (s.model.shard['ids'] as string[]).push((s.model.shard['ids'] as string[])[0] ?? '');
      }),
      /\/model\/shard\/ids\/\d+: ".*" appears twice/,
    ],
    // a failed case whose verdict says passed: counted as passed, the run conformant
    [
      'a failed case said passed',
      both((a) => {
        failing(a);
        (a.model.cases[0] as Json)['verdict'] = 'passed';
      }),
      /\/model\/cases\/0\/verdict: is "passed", but its status "fail" gives "failed"/,
    ],
    [
      'a failed case said passed, status and all',
      both((a) => {
        failing(a);
        Object.assign(a.model.cases[0] as Json, { status: 'pass', verdict: 'passed' });
      }),
      /\/model\/cases\/0\/status: is "pass", but its steps give "fail"/,
    ],
    // a failed case taken out and counted as left to other targets: it needs signature operations, not the kit's
    [
      'a failed case passed off as for other targets',
      both((a) => {
        failing(a).model.cases.shift();
        a.model['otherTargets'] = { cases: 1, operations: ['gateway.upload'] };
      }),
      /shard 1\/2 .*: \/model\/otherTargets\/cases: says 1 cases were left to other targets, but 0 of the ids/,
    ],
    // JSON nested deep enough to overflow a recursive walk (ajv's, a renderer's)
    [
      'got nested 10,000 deep',
      () => {
        const [a, b] = files();
        ((a.model.cases[0] as Json)['ops'] as Json[])[0]!['got'] = 'DEEP';
        // as text: JSON.stringify itself overflows on it
        return [JSON.stringify(a).replace('"DEEP"', `${'['.repeat(10_000)}0${']'.repeat(10_000)}`), b];
      },
      /\/model\/cases\/0\/ops\/0\/got(\/0)+: nests more than 64 levels deep/,
    ],
  ];

  it.each(attacks)('%s', (_, craft, message) => {
    const dirs = write(...craft());
    let thrown: unknown;
    try {
      merge(dirs);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(MergeError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message.length).toBeLessThan(1000);
  });

  it('a field name of a megabyte is named, not echoed', () => {
    const [a, b] = files();
    a.model['x'.repeat(1 << 20)] = 1;
    const thrown = (() => {
      try {
        return merge(write(a, b));
      } catch (e) {
        return e as Error;
      }
    })();
    expect(thrown).toBeInstanceOf(MergeError);
    expect((thrown as Error).message).toMatch(/\/model\/x{100,200}…: is not a field of a shard file/);
    expect((thrown as Error).message.length).toBeLessThan(1000);
  });

  it("what a shard says of its verdict is not taken: totals, conformant, summary, causes, a case's commands", () => {
    const [a, b] = files();
    failing(b);
    Object.assign(b.model, {
      totals: { passed: 99, failed: 0, error: 0, partial: 0, skipped: 0, 'expected-failure': 0, 'unexpected-pass': 0 },
      conformant: true,
      summary: 'CONFORMANT: all passed',
      causes: [],
    });
    const kase = b.model.cases[0] as Json;
    kase['curl'] = "curl -X GET;touch /tmp/pwned;# 'http://x/'";
    kase['reproduce'] = 'touch /tmp/pwned';
    kase['diagnosis'] = [{ mistake: 'made-up', message: 'm', ref: 'r' }];
    const m = merge(write(a, b));
    expect(m.conformant).toBe(false);
    expect(m.totals.failed).toBe(1);
    expect(m.totals.passed).toBe(a.model.cases.length + b.model.cases.length - 1);
    expect(m.summary).toMatch(/^NOT CONFORMANT: /);
    const merged = m.cases.find((c) => c.id === kase['id']);
    // the reference's signature cases send no HTTP request: no curl line; the reproduce line is the kit's
    expect(merged?.curl).toBeUndefined();
    expect(merged?.reproduce).toBe(`npx pgv2kit run --only id:${String(kase['id'])}`);
    expect(merged?.diagnosis).toEqual([]);
  });

  it('a shard file over the limit is refused by its size, unread; the shards of one merge by their sum', () => {
    const [dir] = write('{}');
    const fd = openSync(join(dir as string, SHARD_FILE), 'r+');
    // sparse: the size is all that is read
    ftruncateSync(fd, MAX_SHARD_FILE_BYTES + 1);
    closeSync(fd);
    expect(() => readShard(dir as string)).toThrow(/shard\.json is 64\.0 MiB, over the limit of 64 MiB per file/);
    const [small] = write(texts[0] ?? '');
    expect(() => readShard(small as string, 100)).toThrow(
      /shard\.json is \d+ bytes: the shard files of one merge hold at most 268435456 bytes in all/,
    );
  });
});

describe('pgv2kit merge, as a command (exit 2, --json, the shards never replaced)', () => {
  it('refuses 1,001 folders before reading any; a crafted shard is one --json document, exit 2', async () => {
    const cwd = tmp();
    const many = await run(['merge', ...Array.from({ length: MAX_SHARDS + 1 }, (_, i) => `d${i}`), '--no-reports'], {
      cwd,
    });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain('1001 folders given: a run has at most 1000 shards');
    const [a] = files();
    a.model.shard['count'] = 0;
    const [dir] = write(a);
    const r = await run(['merge', dir as string, '--no-reports', '--json'], { cwd });
    expect(r.code).toBe(2);
    const doc = JSON.parse(r.stdout) as { exitCode: number; error: { message: string } };
    expect(doc.exitCode).toBe(2);
    expect(doc.error.message).toMatch(/s1\/shard\.json: \/model\/shard\/count: must be an integer from 1 to 1000/);
  });

  it("the merge job's secret is masked in every merged report, in the data before rendering", async () => {
    const cwd = tmp();
    const secret = 'merge-job-secret-<p class="comment">';
    const [a, b] = files();
    // a shard's texts are masked with the secrets its own job knew: this one did not know the merge job's
    a.model.runName = `shard-1 ${secret}`;
    (a.model['implementation'] as Json)['name'] = `ref ${secret}`;
    const dirs = write(a, b);
    const r = await run(['merge', ...dirs, '--report-dir', 'out'], { cwd, env: { PGV2_APP_SECRET: secret } });
    expect(r.code, r.stderr).toBe(0);
    for (const f of ['report.html', 'report.md', 'junit.xml', 'results.json', 'run.log']) {
      const text = readFileSync(join(cwd, 'out', f), 'utf8');
      expect(text, f).not.toContain('merge-job-secret');
      expect(text, f).toContain('(36 chars)');
    }
    expect(`${r.stdout}${r.stderr}`).not.toContain('merge-job-secret');
  });

  it("--report-dir naming a shard's folder through a symlink or `..` is refused: the shard is never replaced", async () => {
    const cwd = tmp();
    const [a, b] = files();
    const dirs = write(a, b);
    const before = readFileSync(join(dirs[0] as string, SHARD_FILE), 'utf8');
    symlinkSync(join(dirs[0] as string, '..'), join(cwd, 'link'));
    for (const out of [join(cwd, 'link', 's1'), join(cwd, 'link', 's2', '..', 's1')]) {
      const r = await run(['merge', ...dirs, '--report-dir', out], { cwd });
      expect(r.code, out).toBe(2);
      expect(r.stderr).toContain("is one of the shards' folders");
      expect(readFileSync(join(dirs[0] as string, SHARD_FILE), 'utf8')).toBe(before);
    }
  });
});
