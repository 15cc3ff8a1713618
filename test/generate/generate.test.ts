import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { generateRandom, independentSign } from '../../src/generate/generate.js';
import { GenerateCheckError } from '../../src/generate/generate.js';
import { sign } from '../../src/scheme/sign.js';
import { loadModuleSubject } from '../../src/subjects/module-subject.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import { DEFAULT_VECTORS_DIR, loadVectorSet } from '../../src/vectors/load.js';
import type { LoadedCase, VectorSet } from '../../src/vectors/types.js';
import { run } from '../cli/_run.js';

const member = (name: string): string => fileURLToPath(new URL(`../zoo/members/${name}.ts`, import.meta.url));
const SECRET = 'sk_test_generate_secret_9x';

let dir: string;
let set: VectorSet;
const generated = (prefix: string): LoadedCase[] => set.cases.filter((c) => c.case.id.startsWith(prefix));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pgv2kit-generate-'));
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  const a = await run(['generate', '--seed', '42', '--count', '20', '--area', 'signature', '--dir', dir]);
  expect(a.stderr).toBe('');
  expect(a.code).toBe(0);
  const b = await run(['generate', '--seed', '42', '--count', '20', '--area', 'authorization', '--dir', dir]);
  expect(b.code).toBe(0);
  set = loadVectorSet(dir);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pgv2kit generate --seed', () => {
  it('writes schema-valid files with provenance, and the Generated note once', () => {
    expect(generated('signature.gen-42-')).toHaveLength(20);
    expect(generated('authorization.gen-42-')).toHaveLength(20);
    const c = generated('signature.gen-42-')[0]!.case;
    expect(c.flags).toContain('Generated');
    expect(c.provenance).toMatchObject({ generator: 'pgv2kit generate', seed: 42 });
    expect(set.notes['Generated']).toBeDefined();
    expect(readFileSync(join(dir, 'notes.yaml'), 'utf8').match(/^ {2}Generated:/gm)).toHaveLength(1);
    // both results occur
    expect(new Set(generated('signature.gen-42-').map((l) => l.case.result))).toEqual(new Set(['valid', 'invalid']));
  });

  it('every generated case passes against the reference', async () => {
    const ref = createReferenceSubject();
    for (const lc of [...generated('signature.gen-42-'), ...generated('authorization.gen-42-')]) {
      const outcome = await runCase(lc, ref);
      expect(outcome.status, `${lc.case.id}: ${outcome.message}`).toBe('pass');
    }
  });

  it('expected signs agree with an independent node:crypto computation', () => {
    for (const { case: c } of generated('signature.gen-42-')) {
      if (c.kind !== 'signature') continue;
      const body =
        c.inputs.body !== undefined
          ? Buffer.from(c.inputs.body, 'utf8')
          : Buffer.from(c.inputs.bodyB64 ?? '', 'base64');
      const mine = independentSign({ ...c.inputs, body });
      expect(c.expected.sign).toBe(mine.sign);
      expect(sign({ ...c.inputs, body })).toBe(mine.sign);
      if (c.expected.content !== undefined) expect(c.expected.content).toBe(mine.content.toString('utf8'));
    }
  });

  it('the same seed gives the same cases; ids skip taken ones', () => {
    const opts = { area: 'signature' as const, seed: 42, count: 20, kitVersion: 'x', date: '2025-01-01' };
    const a = generateRandom({ ...opts, takenIds: [] });
    expect(generateRandom({ ...opts, takenIds: [] })).toEqual(a);
    const b = generateRandom({ ...opts, takenIds: ['signature.gen-42-1', 'signature.gen-42-3'] });
    expect(b.map((c) => c.id).slice(0, 3)).toEqual(['signature.gen-42-2', 'signature.gen-42-4', 'signature.gen-42-5']);
  });

  it('the same seed gives the same file', async () => {
    const other = mkdtempSync(join(tmpdir(), 'pgv2kit-generate-'));
    try {
      cpSync(DEFAULT_VECTORS_DIR, other, { recursive: true });
      expect(
        (await run(['generate', '--seed', '42', '--count', '20', '--area', 'signature', '--dir', other])).code,
      ).toBe(0);
      expect(readFileSync(join(other, 'signature/generated-42.yaml'), 'utf8')).toBe(
        readFileSync(join(dir, 'signature/generated-42.yaml'), 'utf8'),
      );
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('never overwrites a file; --append adds cases with new ids', async () => {
    const file = join(dir, 'signature/generated-42.yaml');
    const before = readFileSync(file, 'utf8');
    const again = await run(['generate', '--seed', '42', '--count', '3', '--area', 'signature', '--dir', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/exists: it is never overwritten/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    const appended = await run([
      'generate',
      '--seed',
      '42',
      '--count',
      '3',
      '--area',
      'signature',
      '--out',
      file,
      '--append',
    ]);
    expect(appended.code).toBe(0);
    const after = readFileSync(file, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    const ids = loadVectorSet(dir)
      .cases.filter((c) => c.file === 'signature/generated-42.yaml')
      .map((c) => c.case.id);
    expect(ids).toHaveLength(23);
    expect(ids.slice(20)).toEqual(['signature.gen-42-21', 'signature.gen-42-22', 'signature.gen-42-23']);
  });

  it('a zoo member fails on the generated cases its bug concerns', async () => {
    const noFinalLf = await loadModuleSubject(member('no-final-lf'));
    for (const lc of generated('signature.gen-42-'))
      expect((await runCase(lc, noFinalLf)).status, lc.case.id).toBe('fail');
    const byPosition = await loadModuleSubject(member('header-by-position'));
    let failed = 0;
    for (const lc of generated('authorization.gen-42-')) {
      const c = lc.case;
      if (c.kind !== 'authorization' || c.op !== 'authorization.parse' || c.result !== 'valid') continue;
      const inSpecOrder = /^V2_SHA256 appId=[^,]*,sign=[^,]*,timestamp=[^,]*,nonce=/.test(c.inputs.header);
      const status = (await runCase(lc, byPosition)).status;
      expect(status, c.id).toBe(inSpecOrder ? 'pass' : 'fail');
      if (!inSpecOrder) failed++;
    }
    expect(failed).toBeGreaterThan(0);
  });
});

describe('pgv2kit generate --seed for response, webhook, redirect', () => {
  let vdir: string;
  let vset: VectorSet;
  const AREAS = ['response', 'webhook', 'redirect'] as const;
  beforeAll(async () => {
    vdir = mkdtempSync(join(tmpdir(), 'pgv2kit-generate-'));
    cpSync(DEFAULT_VECTORS_DIR, vdir, { recursive: true });
    for (const area of AREAS) {
      const r = await run(['generate', '--seed', '7', '--count', '10', '--area', area, '--dir', vdir]);
      expect(r.stderr, area).toBe('');
      expect(r.code, area).toBe(0);
    }
    vset = loadVectorSet(vdir);
  });
  afterAll(() => rmSync(vdir, { recursive: true, force: true }));

  it.each(AREAS)('%s: 10 schema-valid cases, all passing against the reference', async (area) => {
    const cases = vset.cases.filter((c) => c.case.id.startsWith(`${area}.gen-7-`));
    expect(cases).toHaveLength(10);
    const ref = createReferenceSubject();
    for (const lc of cases) {
      const outcome = await runCase(lc, ref);
      expect(outcome.status, `${lc.case.id}: ${outcome.message}`).toBe('pass');
      if (lc.case.result === 'invalid') expect(lc.case.expected).toHaveProperty('problem');
    }
  });

  it('covers valid cases and every defect over many seeds; every sign checks independently', () => {
    const seen = new Set<string>();
    for (const area of AREAS) {
      for (const c of generateRandom({
        area,
        seed: 11,
        count: 60,
        takenIds: [],
        kitVersion: 'x',
        date: '2025-01-01',
      })) {
        const e = c.expected as { problem?: { kind: string }; content?: string; payment?: string };
        seen.add(`${area}:${c.result}:${e.problem?.kind ?? ''}:${c.flags.join(',')}`);
        if (area === 'redirect' && c.result === 'valid') expect(typeof e.payment).toBe('string');
        if (e.content !== undefined) {
          const [appId, appSecret, method, url, timestamp, nonce, ...rest] = e.content.split('\n');
          const body = Buffer.from(rest.slice(0, -1).join('\n'), 'utf8');
          const mine = independentSign({
            appId: appId!,
            appSecret: appSecret!,
            method: method!,
            url: url!,
            timestamp: timestamp!,
            nonce: nonce!,
            body,
          });
          expect(mine.content.toString('utf8')).toBe(e.content);
          const header = (c.inputs as { authorization?: string | null }).authorization;
          if (c.result === 'valid' && typeof header === 'string') expect(header).toContain(`sign=${mine.sign},`);
        }
      }
    }
    const all = [...seen].join('\n');
    for (const want of [
      'response:valid',
      'status-not-verified',
      'response:invalid:no-authorization',
      'PathInsteadOfUrl',
      'response:invalid:sign-mismatch:Generated,Tampered',
      'webhook:valid',
      'webhook:invalid:sign-mismatch:Generated,NotifyUrlAsSubmitted',
      'webhook:invalid:no-authorization',
      'redirect:valid',
      'RedirectEncodedPayment',
      'redirect:invalid:redirect-parameter',
      'redirect:invalid:sign-mismatch:Generated,RedirectDecoded',
      'RedirectPlusAsSpace',
      'NonAscii',
    ]) {
      expect(all).toContain(want);
    }
  });

  it('the same seed gives the same file', async () => {
    const other = mkdtempSync(join(tmpdir(), 'pgv2kit-generate-'));
    try {
      cpSync(DEFAULT_VECTORS_DIR, other, { recursive: true });
      for (const area of AREAS) {
        expect((await run(['generate', '--seed', '7', '--count', '10', '--area', area, '--dir', other])).code).toBe(0);
        expect(readFileSync(join(other, `${area}/generated-7.yaml`), 'utf8')).toBe(
          readFileSync(join(vdir, `${area}/generated-7.yaml`), 'utf8'),
        );
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('GenerateCheckError carries its code', () => {
    expect(new GenerateCheckError('x').code).toBe('PGV2_GENERATE_CHECK');
  });
});

describe('pgv2kit generate from parts', () => {
  it('writes a valid case and its known mistakes, masking the secret in its output', async () => {
    const out = join(dir, 'signature/from-parts.yaml');
    const r = await run(
      [
        'generate',
        '--app-id',
        'app_9f2c',
        '--method',
        'POST',
        '--url',
        'https://pg.example.com/pg/v2/payment/create',
        '--body',
        '{"a":1}\n',
        '--timestamp',
        '1717171717000',
        '--nonce',
        'n-1',
        '--with-mistakes',
        '--out',
        out,
      ],
      { env: { PGV2_APP_SECRET: SECRET } },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(SECRET);
    const cases = loadVectorSet(dir).cases.filter((c) => c.file === 'signature/from-parts.yaml');
    expect(cases[0]!.case.result).toBe('valid');
    expect(cases.length).toBeGreaterThan(5);
    const ref = createReferenceSubject();
    for (const lc of cases) expect((await runCase(lc, ref)).status, lc.case.id).toBe('pass');
    const secretOnCli = await run([
      'generate',
      '--app-id',
      'a',
      '--secret',
      SECRET,
      '--method',
      'GET',
      '--url',
      'https://x/',
      '--out',
      out,
    ]);
    expect(secretOnCli.code).toBe(2);
    expect(secretOnCli.stdout + secretOnCli.stderr).not.toContain(SECRET);
  });

  it('refuses an --out outside an area folder and a missing secret', async () => {
    expect(
      (await run(['generate', '--seed', '1', '--count', '1', '--area', 'signature', '--out', join(dir, 'x.yaml')]))
        .code,
    ).toBe(2);
    expect(
      (await run(['generate', '--app-id', 'a', '--method', 'GET', '--url', 'https://x/', '--dir', dir])).code,
    ).toBe(2);
    expect(existsSync(join(dir, 'x.yaml'))).toBe(false);
  });
});

describe('pgv2kit generate --kind', () => {
  it('is the option; --area, its older name, still works; both at once is a usage error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-gen-kind-'));
    try {
      const kind = await run(['generate', '--seed', '9', '--count', '2', '--kind', 'webhook', '--dir', dir]);
      expect(kind.code).toBe(0);
      const both = await run([
        'generate',
        '--seed',
        '9',
        '--count',
        '2',
        '--kind',
        'webhook',
        '--area',
        'webhook',
        '--dir',
        dir,
      ]);
      expect(both.code).toBe(2);
      expect(both.stderr).toContain('give --kind once (--area is its older name)');
      const bad = await run(['generate', '--seed', '9', '--count', '2', '--kind', 'merchant', '--dir', dir]);
      expect(bad.stderr).toContain('--kind must be one of signature, authorization, response, webhook, redirect');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
