/**
 * No secret in any written file: a run with secrets in contents, answers (an echoed
 * input, a base64 body), messages and log lines is written, and every file is
 * searched for each secret — raw, as any 8-character piece, as base64 at each
 * alignment — and for the base64 of every whole content.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeReports } from '../../src/reports/write.js';
import { maskSecret } from '../../src/scheme/mask.js';
import { b64, EXPECTED_CONTENT, fixtureRun, GOT_CONTENT, OK_CONTENT, SECRET, SECRET3, SECRETS } from './_fixture.js';

/** The base64 text that any encoding of the secret contains, whatever bytes precede it (3 alignments). */
function base64Cores(secret: string): string[] {
  return [0, 1, 2].map((shift) => {
    const text = b64(`${'x'.repeat(shift)}${secret}`);
    const start = Math.ceil((shift * 4) / 3) + 1;
    return text.slice(start, start + Math.floor(((secret.length - 3) * 4) / 3));
  });
}

describe('secrets in reports', () => {
  it('never writes a secret, a piece of one, or a content holding one', async () => {
    const run = fixtureRun();
    const hostile = fixtureRun({
      runName: `run with ${SECRET}`,
      cases: run.cases.map((c, i) =>
        i === 1 ? { ...c, comment: `${c.comment} (${SECRET})`, listedReason: `ticket mentions ${SECRET3}` } : c,
      ),
      log: [...run.log, `echo ${b64(`{"appSecret":"${SECRET3}"}`)}`],
    });
    const { dir, files } = await writeReports(hostile, {
      dir: join(mkdtempSync(join(tmpdir(), 'pgv2kit-secrets-')), 'out'),
      secrets: SECRETS,
    });
    expect(readdirSync(dir).sort()).toEqual([...files].sort());
    const needles = [
      ...SECRETS.map((s) => ({ what: `secret ${s}`, text: s })),
      ...SECRETS.flatMap((s) =>
        Array.from({ length: s.length - 7 }, (_, i) => ({ what: `8 characters of ${s}`, text: s.slice(i, i + 8) })),
      ),
      ...SECRETS.flatMap((s) => base64Cores(s).map((core) => ({ what: `base64 of ${s}`, text: core }))),
      ...[EXPECTED_CONTENT, GOT_CONTENT, OK_CONTENT].map((c) => ({ what: 'base64 of a whole content', text: b64(c) })),
    ];
    for (const file of files) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const n of needles) expect(text.includes(n.text), `${file} holds ${n.what}`).toBe(false);
      expect(text, `${file} shows the mask`).toContain(maskSecret(SECRET).slice(0, 10));
    }
  });

  it('checks its own needles: the base64 of a secret contains each of its cores', () => {
    for (const core of base64Cores(SECRET)) {
      expect(['', 'a', 'ab'].some((p) => b64(`${p}${SECRET}`).includes(core))).toBe(true);
      expect(core.length).toBeGreaterThan(30);
    }
  });
});
