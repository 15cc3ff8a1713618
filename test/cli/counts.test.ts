/**
 * The counts agree (issue 20, item 4): `vectors`, `generate`, `run --list` and the run say the same
 * numbers, and where the cases in the files and the cases that run differ, they say by how many
 * and why on the same line. Every expected number is counted here from the YAML with the loader,
 * by a rule of its own (superseded: a supersededBy; for other targets: a gateway or merchant
 * case, or an upload case of upload.formCheck), never from the output under test.
 */
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { DEFAULT_VECTORS_DIR, loadVectorSet } from '../../src/vectors/load.js';
import type { VectorCase } from '../../src/vectors/types.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const tmp = tempFolders('pgv2kit-counts-');
const ROOT = new URL('../../', import.meta.url).pathname;
const NODE_ADAPTER = 'node examples/node-adapter/adapter.mjs';
const kit = loadVectorSet();
const superseded = kit.cases.filter((c) => c.case.supersededBy !== undefined).length;
const live = kit.cases.length - superseded;
/** A case no testee runs: the gateway and merchant roles' calls, and the upload address's form check. */
const kitInternal = (c: VectorCase): boolean =>
  c.kind === 'gateway' || c.kind === 'merchant' || (c.kind === 'upload' && c.op === 'upload.formCheck');

describe('the counts agree', () => {
  it('the kit has superseded cases, so the lines below say both numbers', () => {
    expect(superseded).toBeGreaterThan(0);
  });

  it('vectors and generate say "N cases, M of them superseded: L live" for the same set', async () => {
    const dir = join(tmp(), 'v');
    cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
    const line = `${kit.cases.length} cases, ${superseded} of them superseded: ${live} live`;
    const before = await run(['vectors', '--dir', dir]);
    expect(before.stdout).toContain(`\n${line} (the cases column`);
    expect(before.stdout).toMatch(new RegExp(`\\n {2}total +\\d+ +${live} `));
    const generated = await run(['generate', '--seed', '5', '--count', '3', '--area', 'webhook', '--dir', dir]);
    expect(generated.code, generated.stderr).toBe(0);
    const after = `${kit.cases.length + 3} cases, ${superseded} of them superseded: ${live + 3} live`;
    expect(generated.stdout).toContain(`OK: the vector set in ${dir} validates (${after})\n`);
    expect((await run(['vectors', '--dir', dir])).stdout).toContain(`\n${after} (the cases column`);
  });

  it('run --list for a testee says how many of the selected cases are for it and how many for other targets', async () => {
    const others = kit.cases.filter((c) => c.case.supersededBy === undefined && kitInternal(c.case)).length;
    expect(others).toBeGreaterThan(0);
    const r = await run(['run', '--list', '--testee', NODE_ADAPTER], { cwd: ROOT });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').at(-2)).toBe(
      `${live} cases and ${PROPERTIES.length} properties selected for pgv2kit-node-example: ${live - others} of the cases for it, ${others} for other targets (kit-internal operations, which it does not offer)`,
    );
    expect(r.stdout.match(/ {2}\(other targets: kit-internal\)\n/g)?.length).toBe(others);
    // the reference offers every operation: nothing is left to other targets
    expect((await run(['run', '--list'], { cwd: ROOT })).stdout.split('\n').at(-2)).toBe(
      `${live} cases and ${PROPERTIES.length} properties selected for pgv2kit-reference`,
    );
  });

  it('the run runs the cases --list says are for the testee, and reports the others apart', async () => {
    const dir = tmp();
    const selected = kit.cases.filter((c) => c.case.supersededBy === undefined && c.case.kind === 'upload');
    const others = selected.filter((c) => kitInternal(c.case)).length;
    const list = await run(['run', '--list', '--only', 'upload', '--testee', NODE_ADAPTER], { cwd: ROOT });
    expect(list.stdout.split('\n').at(-2)).toBe(
      `${selected.length} cases selected for pgv2kit-node-example: ${selected.length - others} of the cases for it, ${others} for other targets (kit-internal operations, which it does not offer)`,
    );
    const r = await run(
      ['run', '--only', 'upload', '--no-properties', '--testee', NODE_ADAPTER, '--report-dir', join(dir, 'r')],
      { cwd: ROOT },
    );
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(dir, 'r', 'results.json'), 'utf8')) as {
      cases: unknown[];
      otherTargets: { cases: number };
    };
    expect([results.cases.length, results.otherTargets.cases]).toEqual([selected.length - others, others]);
    expect(r.stdout).toContain(`for other targets: ${others} cases need only kit-internal operations`);
  });
});
