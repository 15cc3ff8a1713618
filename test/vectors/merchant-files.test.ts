/**
 * Merchant vector files: every case serves a requirement of a requirements table; a replay
 * names an earlier case of the same operation and is advisory; an advisory case is acceptable;
 * a requirement no case serves is a warning. Each rule broken in a copy of the kit's own files.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DEFAULT_VECTORS_DIR, formatProblem, loadVectorSetInFull, VectorSetError } from '../../src/vectors/load.js';
import { stringifyVectorFile } from '../../src/vectors/write.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

type File = {
  requirements: Record<string, unknown>;
  cases: Array<Record<string, unknown> & { id: string; inputs: Record<string, unknown> }>;
};

/** A copy of the kit's vectors with vectors/merchant/notify.yaml changed. */
function changedNotify(change: (file: File) => void): string {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-merchant-'));
  dirs.push(dir);
  cpSync(DEFAULT_VECTORS_DIR, dir, { recursive: true });
  const path = join(dir, 'merchant', 'notify.yaml');
  const file = parse(readFileSync(path, 'utf8')) as File;
  change(file);
  writeFileSync(path, stringifyVectorFile(file as unknown as Record<string, unknown>));
  return dir;
}

function problems(dir: string): string[] {
  try {
    loadVectorSetInFull(dir);
  } catch (e) {
    if (!(e instanceof VectorSetError)) throw e;
    return e.problems.map(formatProblem);
  }
  return [];
}

const byId = (f: File, id: string) => f.cases.find((c) => c.id === id) as File['cases'][number];

describe('merchant vector files', () => {
  it("the kit's own load with their requirements, every one served, in file order", () => {
    const set = loadVectorSetInFull(DEFAULT_VECTORS_DIR);
    const merchant = set.cases.filter((l) => l.case.kind === 'merchant');
    expect(merchant.length).toBeGreaterThanOrEqual(47);
    expect(Object.keys(set.requirements)[0]).toBe('webhook.valid');
    expect(Object.keys(set.requirements)).toContain('redirect.replay');
    expect(set.warnings.filter((w) => w.startsWith('requirement'))).toEqual([]);
  });

  it.each([
    [
      'a requirement no table defines',
      (f: File) => void (byId(f, 'merchant.webhook.valid.2').requirement = 'webhook.nowhere'),
      /merchant\/notify\.yaml.*merchant\.webhook\.valid\.2.*\/requirement: requirement webhook\.nowhere is not in a requirements table/,
    ],
    [
      'a replay of a later case',
      (f: File) => void (byId(f, 'merchant.webhook.replay.same-call').inputs.replayOf = 'merchant.webhook.nowhere'),
      /replayOf names merchant\.webhook\.nowhere, which is not an earlier merchant\.webhook case/,
    ],
    [
      'a replay that is not advisory',
      (f: File) => void delete byId(f, 'merchant.webhook.replay.same-call').advisory,
      /a replay is advisory \(R12\): set advisory: true/,
    ],
    [
      'an advisory case that is not acceptable',
      (f: File) => void (byId(f, 'merchant.webhook.replay.old-timestamp').result = 'valid'),
      /an advisory case has the result acceptable/,
    ],
    [
      'an unknown way to change a call',
      (f: File) => void (byId(f, 'merchant.webhook.valid.1').inputs.authorization = { sign: 'reversed' }),
      /merchant\.webhook\.valid\.1.*\/inputs\/authorization\/sign/,
    ],
    [
      'a case with no requirement',
      (f: File) => void delete byId(f, 'merchant.webhook.valid.1').requirement,
      /merchant\.webhook\.valid\.1.*requirement/,
    ],
  ])('refuses %s, naming the file, the case and the field', (_what, change, message) => {
    const found = problems(changedNotify(change));
    expect(found.join('\n')).toMatch(message);
  });

  it('warns of a requirement no case serves', () => {
    const dir = changedNotify(
      (f) => void (f.requirements['webhook.unused'] = { title: 'Nobody serves it', spec: ['5.5'], readings: [] }),
    );
    expect(loadVectorSetInFull(dir).warnings).toContain('requirement webhook.unused is defined but no case serves it');
  });
});
