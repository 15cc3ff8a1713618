/**
 * Triage (issue 13, item 4): one bug is one line — the failing cases grouped by the known mistake
 * that explains them, most cases first, before the list; root causes (the scheme's operations)
 * before their consequences (the roles); every failing case with what it was sent and the command
 * that reproduces it alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/runner/result.js';
import { byCause, causeLine, gist, triage } from '../../src/runner/triage.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = tempFolders('pgv2kit-triage-');

const failed = (id: string, kind: CaseResult['kind'], mistake: string | undefined, message = 'refused, but the case is valid (reason: sign mismatch)', op = 'request.verify'): CaseResult =>
  ({ id, kind, file: 'f.yaml', comment: '', spec: [], readings: [], flags: [], result: 'valid', status: 'fail', verdict: 'failed', message, durationMs: 1, ops: [{ op, status: 'fail', expected: null, got: null, message, durationMs: 1, ...(mistake ? { diagnosis: [{ mistake, message: 'm', ref: 'R1' }] } : {}) }] }) as CaseResult;

describe('triage', () => {
  it('groups by the known mistake, most cases first; the unexplained by what their step says; a verifier refusing genuine signs pointed at the signer mistake', () => {
    const cases = [
      failed('client.a', 'client', 'no-final-lf'),
      failed('signature.b', 'signature', 'uppercase-hex'),
      failed('signature.c', 'signature', 'no-final-lf'),
      failed('request.d', 'request', undefined),
      failed('response.e', 'response', undefined, 'refused, but the case is valid (reason: sign mismatch)', 'response.verify'),
      failed('signature.f', 'signature', 'no-final-lf'),
      { ...failed('signature.g', 'signature', 'uppercase-hex'), verdict: 'passed', status: 'pass' } as CaseResult,
    ];
    const causes = triage(cases);
    expect(causes.map((c) => [c.mistake, c.count, c.cases])).toEqual([
      ['no-final-lf', 3, ['signature.c', 'signature.f', 'client.a']],
      ['uppercase-hex', 1, ['signature.b']],
      [null, 2, ['request.d', 'response.e']],
    ]);
    expect(causes[0]).toMatchObject({ title: 'the LF after the body was left out', rootCauses: 2, consequences: 1 });
    expect(causeLine(causes[0]!)).toBe("3 cases: the LF after the body was left out (no-final-lf; 2 in the scheme's operations, 1 in the roles, their consequence)");
    expect(causes[2]?.title).toBe('refused, but the case is valid (reason: sign mismatch) — request.verify, response.verify; likely the same cause as no-final-lf: a verifier builds the content as its signer does');
  });

  it('reads what a step says without its particulars: the cases one bug fails alike group together', () => {
    expect(gist('refused: the payment response (POST http://127.0.0.1:41243/s/client.x/pg/v2/payment/create): the gateway answered HTTP 401: errorMessage "sign \\u2014 no"; not 200')).toBe('refused: the payment response: the gateway answered HTTP 401: errorMessage "…"');
    expect(gist('refused, but the case is valid (reason: sign mismatch)')).toBe('refused, but the case is valid (reason: sign mismatch)');
    expect(gist('refused the message exactly as signed (body of 1023 bytes)')).toBe('refused the message exactly as signed');
    const roles = triage([failed('signature.a', 'signature', 'no-final-lf'), failed('client.b', 'client', undefined, 'refused: the payment response (POST http://127.0.0.1:1/s/client.b/x): the gateway answered HTTP 401', 'client.createPayment'), failed('client.c', 'client', undefined, 'refused: the payment response (POST http://127.0.0.1:2/s/client.c/x): the gateway answered HTTP 401', 'client.createPayment')]);
    expect(roles.map((c) => [c.count, c.title])).toEqual([
      [1, 'the LF after the body was left out'],
      [2, 'refused: the payment response: the gateway answered HTTP 401 — client.createPayment; likely a consequence of no-final-lf: the roles sign and verify as the operations above do'],
    ]);
  });

  it('nothing failing: no cause', () => {
    expect(triage([{ ...failed('signature.x', 'signature', 'no-final-lf'), verdict: 'passed', status: 'pass' } as CaseResult])).toEqual([]);
  });

  it('orders root causes first, run order within an area', () => {
    const order = byCause([failed('merchant.m', 'merchant', undefined), failed('client.c', 'client', undefined), failed('property.p', 'property', undefined), failed('signature.s2', 'signature', undefined), failed('authorization.a', 'authorization', undefined), failed('signature.s1', 'signature', undefined)]);
    expect(order.map((c) => c.id)).toEqual(['signature.s2', 'signature.s1', 'authorization.a', 'property.p', 'client.c', 'merchant.m']);
  });
});

describe.concurrent('a failing run names its likely cause first', () => {
  it('an implementation that drops the final LF: the first line counts the failing cases, the next names the mistake and how many it explains', async () => {
    const cwd = tmp();
    const r = await run(['run', '--module', join(ROOT, 'test/zoo/members/no-final-lf.ts'), '--no-properties', '--report-dir', 'r'], { cwd });
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as { totals: Record<string, number>; cases: Array<{ id: string; kind: string; verdict: string; diagnosis: Array<{ mistake: string }>; reproduce: string; ops: Array<{ status: string; input: unknown }> }>; causes: Array<{ mistake: string | null; count: number }> };
    const failing = results.cases.filter((c) => c.verdict === 'failed' || c.verdict === 'error');
    // counted here from each case's own diagnosis, not from the triage
    const explained = failing.filter((c) => c.diagnosis[0]?.mistake === 'no-final-lf').length;
    expect(explained).toBeGreaterThan(50);
    const [first, second, third, fourth] = r.stdout.split('\n');
    expect(first).toBe(`Likely causes of the ${failing.length} failing cases, most cases first:`);
    expect(second).toBe(`  ${explained} cases: the LF after the body was left out (no-final-lf)`);
    // the fix as the page says it (read here from the page), then the page
    const fix = readFileSync(join(ROOT, 'docs/mistakes/no-final-lf.md'), 'utf8').split('## How to fix it\n\n')[1]?.split('\n')[0];
    expect(third).toBe(`    fix: ${fix}`);
    expect(fourth).toBe('    see docs/mistakes/no-final-lf.md');
    expect(results.causes[0]).toMatchObject({ mistake: 'no-final-lf', count: explained });
    expect(results.causes.reduce((n, c) => n + c.count, 0)).toBe(failing.length);
    expect(r.stdout).toContain(`likely cause: ${explained} cases: the LF after the body was left out (no-final-lf)`);
    // every failed step keeps what it was sent
    expect(failing.every((c) => c.ops.filter((o) => o.status === 'fail').every((o) => o.input !== null && typeof o.input === 'object'))).toBe(true);
    expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain(`1. **${explained} cases**: the LF after the body was left out — \`no-final-lf\`\n   - what it means: `);
    expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain('   - docs/mistakes/no-final-lf.md in the kit\n');
  });

  it('the reproduce command of a failing case runs that case alone, and it fails the same way', async () => {
    const cwd = tmp();
    await run(['run', '--module', join(ROOT, 'test/zoo/members/header-by-position.ts'), '--only', 'authorization', '--no-properties', '--report-dir', 'r'], { cwd });
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as { cases: Array<{ id: string; verdict: string; message: string; reproduce: string }> };
    const one = results.cases.find((c) => c.verdict === 'failed');
    expect(one?.reproduce).toBe(`npx pgv2kit run --module ${join(ROOT, 'test/zoo/members/header-by-position.ts')} --only id:${one?.id}`);
    const argv = (one?.reproduce ?? '').split(' ').slice(2);
    const again = await run([...argv, '--no-reports'], { cwd });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`FAILED ${one?.id}: ${one?.message}`);
    expect(again.stdout).toMatch(/\n0 passed, 1 failed\n$/);
  });
});
