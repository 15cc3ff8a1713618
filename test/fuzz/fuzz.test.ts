import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCase } from '../../src/roles/run-case.js';
import {
  applyMutation,
  fuzzHeaderArb,
  fuzzHeaderText,
  renderHeader,
  validModel,
  type FuzzHeader,
} from '../../src/fuzz/arbitraries.js';
import { oracle } from '../../src/fuzz/oracle.js';
import { fuzzParser, parseReplay, showEscaped } from '../../src/fuzz/run.js';
import { saveFinding } from '../../src/fuzz/save.js';
import { loadModuleSubject } from '../../src/subjects/module-subject.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import { createTesteeSubject, type TesteeSubject } from '../../src/subjects/testee-subject.js';
import { DEFAULT_VECTORS_DIR, loadVectorSet } from '../../src/vectors/load.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const temps: string[] = [];
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

function vectorsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-fuzz-'));
  temps.push(dir);
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  return dir;
}

describe('the header arbitrary and the oracle', () => {
  it('draws every verdict, and headers with "=" in values, control characters and long values', () => {
    const headers = fc.sample(fuzzHeaderArb, { seed: 1, numRuns: 2000 }).map(fuzzHeaderText);
    const verdicts = new Set(headers.map((h) => oracle(h).verdict));
    expect([...verdicts].sort()).toEqual(['either', 'must-accept', 'must-refuse']);
    expect(headers.some((h) => /[\u0000-\u001f]/.test(h))).toBe(true);
    expect(headers.some((h) => h.length > 2000)).toBe(true);
    expect(headers.some((h) => /nonce=[^,]*=/.test(h) && oracle(h).verdict === 'must-accept')).toBe(true);
    const problems = new Set(
      headers
        .map((h) => oracle(h))
        .flatMap((o) => (o.verdict === 'must-refuse' && !o.answers.strict.ok ? [o.answers.strict.problem.kind] : [])),
    );
    expect([...problems].sort()).toEqual([
      'duplicate-item',
      'empty-header',
      'empty-value',
      'malformed-item',
      'missing-item',
      'no-items',
      'wrong-scheme',
    ]);
  });

  it('draws item values of every shape from fixed pools: the same values in every run, led by plain ones', () => {
    const a = fc.sample(fuzzHeaderArb, { seed: 12, numRuns: 3000 });
    expect(fc.sample(fuzzHeaderArb, { seed: 12, numRuns: 3000 })).toEqual(a);
    const appIds = new Set(a.map((h) => h.items.appId));
    const nonces = new Set(a.map((h) => h.items.nonce));
    expect(appIds.size).toBeGreaterThan(300);
    expect(nonces.size).toBeGreaterThan(300);
    const all = [...appIds, ...nonces];
    expect(all.some((v) => /^[0-9a-f]{8}-[0-9a-f]{4}-/.test(v))).toBe(true); // uuids
    expect(all.some((v) => /[+/]|=$/.test(v))).toBe(true); // base64
    expect(all.some((v) => /[^\x00-\x7f]/.test(v))).toBe(true); // non-ASCII
    expect([...nonces].some((v) => /^[^=]+=[^=]/.test(v))).toBe(true); // "=" inside
    // shrinking goes to the plain values that lead the pools
    const r = fc.check(
      fc.property(fuzzHeaderArb, (h) => h.mutations.length === 0 || h.mutations[0]?.kind !== 'scheme'),
      { seed: 1 },
    );
    expect(r.counterexample?.[0]).toMatchObject({
      items: { appId: 'app_7f3a9c', sign: '0'.repeat(64), timestamp: '1700000000000', nonce: 'n0nce' },
    });
  });

  it('writes a header as its model renders it (the quick path for unmutated headers, code points kept whole)', () => {
    const slow = (h: FuzzHeader): string =>
      renderHeader(h.mutations.reduce(applyMutation, validModel(h.items, h.order)));
    for (const h of fc.sample(fuzzHeaderArb, { seed: 13, numRuns: 2000 })) {
      expect(fuzzHeaderText(h)).toBe(slow(h));
      expect(fuzzHeaderText({ ...h, mutations: [] })).toBe(slow({ ...h, mutations: [] }));
    }
    const h: FuzzHeader = {
      items: { appId: '😀é😀', sign: '00', timestamp: '1', nonce: 'n' },
      order: ['appId', 'sign', 'timestamp', 'nonce'],
      mutations: [],
    };
    const at = (pos: number): string =>
      fuzzHeaderText({ ...h, mutations: [{ kind: 'inject', at: 0, pos, text: ',' }] });
    expect([0, 1, 2, 3, 4].map(at).map((t) => t.slice(10, t.indexOf(',sign')))).toEqual([
      'appId=,😀é😀',
      'appId=😀,é😀',
      'appId=😀é,😀',
      'appId=😀é😀,',
      'appId=,😀é😀',
    ]);
  });

  it('decides with R8', () => {
    expect(oracle('V2_SHA256 nonce=a=b,appId=x,sign=00,timestamp=1')).toMatchObject({
      verdict: 'must-accept',
      answers: { refusable: false, accepted: [{ appId: 'x', sign: '00', timestamp: '1', nonce: 'a=b' }] },
    });
    expect(oracle('V2_SHA256 appId=x,appId=x,sign=00,timestamp=1,nonce=n').verdict).toBe('must-refuse');
    expect(oracle('v2_sha256 appId=x,sign=00,timestamp=1,nonce=n')).toMatchObject({
      verdict: 'either',
      answers: { refusable: true, accepted: [{ appId: 'x', sign: '00', timestamp: '1', nonce: 'n' }] },
    });
    // the false findings: white space before "=", kept or trimmed after it, NBSP at a value's end
    expect(oracle('V2_SHA256 appId=x,sign=00,timestamp=1,nonce =a')).toMatchObject({
      verdict: 'either',
      answers: { accepted: [{ nonce: 'a' }] },
    });
    expect(
      oracle('V2_SHA256 appId= x,sign=00,timestamp=1,nonce=n')
        .answers.accepted.map((a) => a.appId)
        .sort(),
    ).toEqual([' x', 'x']);
    expect(
      oracle('V2_SHA256 appId=x\u00a0,sign=00,timestamp=1,nonce=n')
        .answers.accepted.map((a) => a.appId)
        .sort(),
    ).toEqual(['x', 'x\u00a0']);
  });

  it('parses replays and shows escapes', () => {
    expect(parseReplay('42:3:0:1')).toEqual({ seed: 42, path: '3:0:1' });
    expect(parseReplay('-7:0')).toEqual({ seed: -7, path: '0' });
    expect(parseReplay('42')).toBeUndefined();
    expect(showEscaped('a\tb\u00e9')).toBe('"a\\tb\\u00e9"');
  });
});

describe('conforming parsers: no finding', () => {
  const testees: TesteeSubject[] = [];
  afterAll(async () => {
    for (const t of testees) await t.close();
  });

  it('the reference, in process', async () => {
    const r = await fuzzParser(createReferenceSubject(), { seed: 11, runs: 1000 });
    expect(r.finding).toBeUndefined();
    expect(r.runs).toBe(1000);
  });

  it.each([['node examples/node-adapter/adapter.mjs'], ['python3 examples/python-adapter/pgv2kit_adapter.py']])(
    '%s',
    async (command) => {
      const subject = await createTesteeSubject({ command, cwd: ROOT, timeoutMs: 5000 });
      testees.push(subject);
      const r = await fuzzParser(subject, { seed: 12, runs: 300 });
      expect(r.finding).toBeUndefined();
      expect(r.runs).toBe(300);
    },
  );
});

const members: ReadonlyArray<readonly [string, RegExp]> = [
  ['header-by-position', /^accepted with appId=.*, but R8 allows no such values: it must be accepted with appId=/],
  ['header-split-last-equals', /^must be accepted \(R8: every reading accepts it, with .*\), but was refused/],
  ['header-duplicate-last-wins', /^must be refused \(R8: item \w+ appears more than once\), but was accepted$/],
  ['header-missing-as-empty', /^must be refused \(R8: item \w+ (is missing|has an empty value)\), but was accepted$/],
];

describe('zoo header members: a minimal finding, saved as a vector that catches the member', () => {
  it.each(members)('%s', async (member, reason) => {
    const subject = await loadModuleSubject(join(ROOT, `test/zoo/members/${member}.ts`), ROOT);
    const r = await fuzzParser(subject, { seed: 5 });
    const f = r.finding;
    expect(f).toBeDefined();
    if (!f) return;
    expect(f.reason).toMatch(reason);
    expect(f.header.split(',').length).toBeLessThanOrEqual(5);
    expect(f.header.length).toBeLessThan(200);
    expect(f.replay).toBe(`${f.seed}:${f.path}`);

    // replay gives the same minimal header at once
    const again = await fuzzParser(subject, { seed: f.seed, path: f.path });
    expect(again.finding?.header).toBe(f.header);

    // saved: schema-valid in a copy of the vectors, and the case fails against the member
    const dir = vectorsCopy();
    const file = join(dir, 'authorization', 'fuzz.yaml');
    const saved = saveFinding(f, file, new Date('2026-01-02T00:00:00Z'));
    expect(saved).toEqual({ id: 'authorization.fuzz-1', file, created: true, made: [] });
    const set = loadVectorSet(dir);
    const loaded = set.cases.find((c) => c.case.id === saved.id);
    expect(loaded?.case).toMatchObject({
      op: 'authorization.parse',
      flags: expect.arrayContaining(['FuzzFinding']),
      inputs: { header: f.header },
    });
    expect(loaded?.case.provenance).toEqual({
      generator: 'pgv2kit fuzz',
      seed: f.replay,
      kitVersion: expect.any(String),
      date: '2026-01-02',
    });
    if (!loaded) return;
    expect((await runCase(loaded, subject)).status).toBe('fail');
    expect((await runCase(loaded, createReferenceSubject())).status).toBe('pass');

    // a second save appends authorization.fuzz-2 after the file's own text, byte for byte (a comment kept)
    writeFileSync(file, `# triaged: JIRA-7\n${readFileSync(file, 'utf8')}`);
    const before = readFileSync(file, 'utf8');
    const second = saveFinding(f, file);
    expect(second).toMatchObject({ id: 'authorization.fuzz-2', created: false });
    expect(readFileSync(file, 'utf8').startsWith(before)).toBe(true);
    const ids = (parse(readFileSync(file, 'utf8')) as { cases: { id: string }[] }).cases.map((c) => c.id);
    expect(ids).toEqual(['authorization.fuzz-1', 'authorization.fuzz-2']);
    expect(loadVectorSet(dir).cases.filter((c) => c.case.id.startsWith('authorization.fuzz-'))).toHaveLength(2);
    expect(existsSync(file)).toBe(true);
  });
});
