/**
 * `pgv2kit run` and its properties: on by default, --properties, --seed, --no-properties,
 * --replay, selection by area and id, --list; wrong values are usage errors.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from './_run.js';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { DEFAULT_VECTORS_DIR, loadVectorSet } from '../../src/vectors/load.js';

const tmp = mkdtempSync(join(tmpdir(), 'pgv2kit-props-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
/** A copy of the kit's vectors under the test's folder, to write into. */
function vectorsCopy(name: string): string {
  const dir = join(tmp, name);
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  return dir;
}
/** Runs a zoo member's failing properties with --save: the one case written, as loaded back. */
async function saveFrom(
  member: string,
  only: string,
  seed: string,
  vectors: string,
  file: string,
  id: string,
): Promise<unknown> {
  const r = await run(
    [
      'run',
      '--module',
      zoo(member),
      '--only',
      only,
      '--seed',
      seed,
      '--properties',
      '25',
      '--no-reports',
      '--save',
      file,
    ],
    { cwd: tmp },
  );
  expect(r.code).toBe(1);
  expect(r.stdout).toContain(`saved 1 counterexample as ${id} in ${file}\n`);
  return loadVectorSet(vectors).cases.find((c) => c.case.id === id)?.case;
}

/** A saved case fails the zoo member it came from and passes the reference. */
async function expectCatches(member: string, vectors: string, id: string): Promise<void> {
  const caught = await run(
    ['run', '--module', zoo(member), '--vectors', vectors, '--only', id, '--no-properties', '--no-reports'],
    { cwd: tmp },
  );
  expect([caught.code, caught.stdout.includes('\n0 passed, 1 failed\n')]).toEqual([1, true]);
  const reference = await run(['run', '--vectors', vectors, '--only', id, '--no-properties', '--no-reports'], {
    cwd: tmp,
  });
  expect([reference.code, reference.stdout.includes('\n1 passed, 0 failed\n')]).toEqual([0, true]);
}
const zoo = (name: string): string =>
  join(new URL('../../', import.meta.url).pathname, 'test/zoo/members', `${name}.ts`);

describe('pgv2kit run: the properties', () => {
  it('--only property runs every one against the reference, seed and runs reported', async () => {
    const r = await run(
      ['run', '--only', 'property', '--properties', '15', '--seed', '12', '--report-dir', join(tmp, 'p')],
      { cwd: tmp },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`\n${PROPERTIES.length} passed, 0 failed\n`);
    const json = JSON.parse(readFileSync(join(tmp, 'p', 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; kind: string; property: { seed: number; runs: number } }>;
    };
    expect(json.cases.map((c) => [c.kind, c.property.seed, c.property.runs])).toEqual(
      PROPERTIES.map(() => ['property', 12, 15]),
    );
  });

  it('a failure prints the replay, and --replay gives the same counterexample at once', async () => {
    const first = await run(
      [
        'run',
        '--module',
        zoo('large-body-lf-dropped'),
        '--only',
        'property.lf.sign',
        '--seed',
        '3',
        '--properties',
        '25',
        '--no-reports',
      ],
      { cwd: tmp },
    );
    expect(first.code).toBe(1);
    const replay = /--replay (property\.lf\.sign=\d+:[\d:]+)/.exec(first.stdout)?.[1];
    expect(replay).toBeDefined();
    const again = await run(
      [
        'run',
        '--module',
        zoo('large-body-lf-dropped'),
        '--only',
        'property.lf.sign',
        '--replay',
        replay ?? '',
        '--properties',
        '25',
        '--no-reports',
      ],
      { cwd: tmp },
    );
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/FAILED property\.lf\.sign: signature\.sign: sign differs .* 0 shrinks/);
    expect(again.stdout).toContain(
      'your sign is the sign of the content in which the LF after part 7 (the body) was left out',
    );
  });

  it('every report shows a failed property: seed, inputs, shrinks, the shrunk counterexample, how to replay', async () => {
    const dir = join(tmp, 'failed-report');
    const r = await run(
      [
        'run',
        '--module',
        zoo('large-body-lf-dropped'),
        '--only',
        'property.lf.sign',
        '--seed',
        '3',
        '--properties',
        '25',
        '--report-dir',
        dir,
      ],
      { cwd: tmp },
    );
    expect(r.code).toBe(1);
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toMatch(
      /- property: seed 3, \d+ inputs, \d+ shrinks; replay: `pgv2kit run … --replay property\.lf\.sign=3:[\d:]+`/,
    );
    expect(md).toMatch(/counterexample \(shrunk\):\n\n {2}```json\n {2}\{\n {4}"appId"/);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).toMatch(
      /<p class="facts">property: seed 3, \d+ inputs, \d+ shrinks; replay <code>--replay property\.lf\.sign=3:[\d:]+<\/code><\/p>/,
    );
    expect(html).toContain('<summary>Counterexample (shrunk)</summary>');
    const json = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; property: { replay: string; counterexample: { bodyLength: number } } }>;
    };
    const c = json.cases.find((x) => x.id === 'property.lf.sign');
    expect(c?.property.replay).toMatch(/^3:/);
    expect(c?.property.counterexample.bodyLength).toBeGreaterThan(8192);
  });

  it('--save writes a counterexample as a vector case that catches the member and passes the reference', async () => {
    const vectors = vectorsCopy('vectors');
    const file = join(vectors, 'signature', 'counterexamples.yaml');
    const saved = await saveFrom(
      'large-body-lf-dropped',
      'property.lf.sign,property.header.order',
      '3',
      vectors,
      file,
      'signature.gen-property-1',
    );
    expect(saved).toMatchObject({
      kind: 'signature',
      result: 'valid',
      provenance: { generator: 'pgv2kit run (property counterexample)' },
    });
    await expectCatches('large-body-lf-dropped', vectors, 'signature.gen-property-1');
    const bad = await run(['run', '--save', join(tmp, 'x.yaml'), '--no-reports'], { cwd: tmp });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining(
        '--save takes a .yaml file in the signature/, authorization/, request/, response/, webhook/ folder of a vectors folder',
      ),
    ]);
  });

  it('--save puts a parse counterexample in authorization/, and says what it cannot save there', async () => {
    const vectors = vectorsCopy('vectors-auth');
    const file = join(vectors, 'authorization', 'found.yaml');
    expect(
      await saveFrom('header-by-position', 'property.header.order', '2', vectors, file, 'authorization.gen-property-1'),
    ).toMatchObject({ op: 'authorization.parse', result: 'valid' });
    const other = await run(
      [
        'run',
        '--module',
        zoo('large-body-lf-dropped'),
        '--only',
        'property.lf.sign',
        '--seed',
        '3',
        '--properties',
        '25',
        '--no-reports',
        '--save',
        file,
      ],
      { cwd: tmp },
    );
    expect(other.stdout).toContain(
      '--save: the counterexample of property.lf.sign is not saved: it is a signature case, not a authorization one (give a file in signature/)',
    );
    const off = await run(['run', '--no-properties', '--save', file, '--no-reports'], { cwd: tmp });
    expect([off.code, off.stderr]).toEqual([
      2,
      expect.stringContaining("--save writes the properties' counterexamples"),
    ]);
  });

  it("--save writes a verifier's counterexample as a case of its own kind, and a refused header as a parse case", async () => {
    const vectors = vectorsCopy('vectors-verify');
    const file = join(vectors, 'request', 'found.yaml');
    const saved = await saveFrom(
      'large-body-unverified',
      'property.verify.exact',
      '3',
      vectors,
      file,
      'request.gen-property-1',
    );
    expect(saved).toMatchObject({
      kind: 'request',
      result: 'invalid',
      flags: expect.arrayContaining(['Generated', 'Tampered']),
      expected: { problem: { kind: 'sign-mismatch' } },
    });
    await expectCatches('large-body-unverified', vectors, 'request.gen-property-1');

    const auth = join(vectors, 'authorization', 'found.yaml');
    expect(
      await saveFrom(
        'header-duplicate-last-wins',
        'property.header.duplicate',
        '3',
        vectors,
        auth,
        'authorization.gen-property-1',
      ),
    ).toMatchObject({
      op: 'authorization.parse',
      result: 'invalid',
      flags: ['Generated', 'DuplicateItem'],
      expected: { problem: { kind: 'duplicate-item' } },
    });
    await expectCatches('header-duplicate-last-wins', vectors, 'authorization.gen-property-1');
  });

  it('--no-properties runs the vectors only; --list names the properties', async () => {
    const none = await run(
      ['run', '--only', 'signature.final-lf-missing,property', '--no-properties', '--no-reports'],
      { cwd: tmp },
    );
    // (the properties are off: only the one vector case ran)
    expect(none.stdout).toMatch(/\n1 passed, 0 failed\n/);
    const list = await run(['run', '--only', 'property', '--list'], { cwd: tmp });
    expect(list.stdout).toContain('property.verify.exact  property  request.verify\n');
    expect(list.stdout).toMatch(
      new RegExp(`0 cases and ${PROPERTIES.length} properties selected for pgv2kit-reference\n$`),
    );
  });

  it.each([
    [['--properties', 'x'], '--properties must be a positive number, not "x"'],
    [['--seed', '1.5'], '--seed must be an integer, not "1.5"'],
    [['--replay', 'property.nope=1:0'], '--replay takes <property id>=<seed>:<path>'],
    [['--no-properties', '--properties', '5'], '--properties and --replay need the properties'],
  ])('%j is a usage error', async (args, message) => {
    const r = await run(['run', ...args, '--no-reports'], { cwd: tmp });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
