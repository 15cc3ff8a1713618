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

const failed = (
  id: string,
  kind: CaseResult['kind'],
  mistake: string | undefined,
  message = 'refused, but the case is valid (reason: sign mismatch)',
  op = 'request.verify',
): CaseResult =>
  ({
    id,
    kind,
    file: 'f.yaml',
    comment: '',
    spec: [],
    readings: [],
    flags: [],
    result: 'valid',
    status: 'fail',
    verdict: 'failed',
    message,
    durationMs: 1,
    ops: [
      {
        op,
        status: 'fail',
        expected: null,
        got: null,
        message,
        durationMs: 1,
        ...(mistake ? { diagnosis: [{ mistake, message: 'm', ref: 'R1' }] } : {}),
      },
    ],
  }) as CaseResult;

/** A refusal of a valid case, one bit: not diagnosed, with the mistakes that could explain it. */
const refusal = (
  id: string,
  kind: CaseResult['kind'],
  couldExplain: string[],
  op = 'request.verify',
  message = 'refused, but the case is valid (reason: sign mismatch)',
): CaseResult => {
  const c = failed(id, kind, undefined, message, op);
  return { ...c, ops: c.ops.map((o) => ({ ...o, ...(couldExplain.length ? { couldExplain } : {}) })) } as CaseResult;
};

describe('triage', () => {
  it('groups by the known mistake, most cases first; a refusal joins a mistake that could explain it; the rest by what their step says', () => {
    const cases = [
      failed('client.a', 'client', 'no-final-lf'),
      failed('signature.b', 'signature', 'uppercase-hex'),
      failed('signature.c', 'signature', 'no-final-lf'),
      refusal('request.d', 'request', ['extra-final-lf', 'no-final-lf']),
      refusal('response.e', 'response', ['no-final-lf'], 'response.verify'),
      failed('signature.f', 'signature', 'no-final-lf'),
      { ...failed('signature.g', 'signature', 'uppercase-hex'), verdict: 'passed', status: 'pass' } as CaseResult,
      // a redirect refused by a URI parser that threw: no-final-lf would not change it (its couldExplain names only the redirect's own mistakes)
      refusal(
        'redirect.h',
        'redirect',
        ['landed-url', 'redirect-method'],
        'redirect.verify',
        'refused, but the case is valid (reason: URI malformed)',
      ),
      // a refusal without couldExplain: its own group
      failed(
        'webhook.i',
        'webhook',
        undefined,
        'refused, but the case is valid (reason: sign mismatch)',
        'webhook.verify',
      ),
    ];
    const causes = triage(cases);
    expect(causes.map((c) => [c.mistake, c.count, c.cases, c.refusals])).toEqual([
      ['no-final-lf', 5, ['signature.c', 'signature.f', 'request.d', 'response.e', 'client.a'], 2],
      ['uppercase-hex', 1, ['signature.b'], undefined],
      [null, 1, ['webhook.i'], undefined],
      [null, 1, ['redirect.h'], undefined],
    ]);
    expect(causes[0]).toMatchObject({ title: 'the LF after the body was left out', rootCauses: 4, consequences: 1 });
    expect(causeLine(causes[0]!)).toBe(
      "5 cases: the LF after the body was left out (no-final-lf; 2 of them genuine messages refused, which it explains; 4 in the scheme's operations, 1 in the roles, their consequence)",
    );
    expect(causes[3]?.title).toBe(
      'refused, but the case is valid (reason: URI malformed) — redirect.verify; no known mistake explains it',
    );
  });

  it('every genuine message refused and nothing diagnosed: one run-level cause, credentials-or-url', () => {
    const wrongSecret = [
      failed(
        'signature.a',
        'signature',
        undefined,
        'content differs from the expected at byte 11 (part 2, appSecret)',
        'signature.content',
      ),
      refusal('request.b', 'request', ['no-final-lf']),
      refusal('redirect.c', 'redirect', ['landed-url']),
      {
        ...failed('request.d', 'request', undefined, 'refused, as expected'),
        result: 'invalid',
        verdict: 'passed',
        status: 'pass',
      } as CaseResult,
    ];
    const causes = triage(wrongSecret);
    expect(causes.map((c) => [c.mistake, c.cases])).toEqual([
      ['credentials-or-url', ['signature.a', 'request.b', 'redirect.c']],
    ]);
    expect(causeLine(causes[0]!)).toBe(
      '3 cases: every genuine message refused, and no known mistake explains it: check the credentials, and how the implementation builds the full URL (R4) (credentials-or-url)',
    );
    // one genuine message accepted: no run-level cause
    const oneAccepted = [
      ...wrongSecret,
      {
        ...refusal('webhook.e', 'webhook', []),
        verdict: 'passed',
        status: 'pass',
        ops: [{ op: 'webhook.verify', status: 'pass', expected: null, got: null, message: 'accepted', durationMs: 1 }],
      } as CaseResult,
    ];
    expect(triage(oneAccepted).map((c) => [c.mistake, c.cases])).toEqual([
      [null, ['request.b', 'redirect.c']],
      [null, ['signature.a']],
    ]);
    // a signing failure diagnosed: its mistake, not the credentials
    expect(
      triage([failed('signature.a', 'signature', 'no-final-lf'), ...wrongSecret.slice(1)]).map((c) => c.mistake),
    ).toEqual(['no-final-lf', null]);
  });

  it('a gateway under test refusing every genuine request: credentials-or-url (a URL rebuilt otherwise, R4)', () => {
    const gateway = (id: string): CaseResult =>
      failed(id, 'gateway', undefined, 'refused: the gateway answered HTTP 401', 'gateway.createPayment');
    expect(triage([gateway('gateway.a'), gateway('gateway.b')]).map((c) => [c.mistake, c.count])).toEqual([
      ['credentials-or-url', 2],
    ]);
    // one genuine request accepted: each refusal stays what its step said
    const accepted = {
      ...gateway('gateway.c'),
      verdict: 'passed',
      status: 'pass',
      ops: [
        { op: 'gateway.createPayment', status: 'pass', expected: null, got: null, message: 'accepted', durationMs: 1 },
      ],
    } as CaseResult;
    expect(triage([gateway('gateway.a'), gateway('gateway.b'), accepted]).map((c) => c.mistake)).toEqual([null]);
  });

  it('reads what a step says without its particulars: the cases one bug fails alike group together', () => {
    expect(
      gist(
        'refused: the payment response (POST http://127.0.0.1:41243/s/client.x/pg/v2/payment/create): the gateway answered HTTP 401: errorMessage "sign \\u2014 no"; not 200',
      ),
    ).toBe('refused: the payment response: the gateway answered HTTP 401: errorMessage "…"');
    expect(gist('refused, but the case is valid (reason: sign mismatch)')).toBe(
      'refused, but the case is valid (reason: sign mismatch)',
    );
    expect(gist('refused the message exactly as signed (body of 1023 bytes)')).toBe(
      'refused the message exactly as signed',
    );
    const roles = triage([
      failed('signature.a', 'signature', 'no-final-lf'),
      failed(
        'client.b',
        'client',
        undefined,
        'refused: the payment response (POST http://127.0.0.1:1/s/client.b/x): the gateway answered HTTP 401',
        'client.createPayment',
      ),
      failed(
        'client.c',
        'client',
        undefined,
        'refused: the payment response (POST http://127.0.0.1:2/s/client.c/x): the gateway answered HTTP 401',
        'client.createPayment',
      ),
    ]);
    expect(roles.map((c) => [c.count, c.title])).toEqual([
      [1, 'the LF after the body was left out'],
      [
        2,
        'refused: the payment response: the gateway answered HTTP 401 — client.createPayment; likely a consequence of no-final-lf: the roles sign and verify as the operations above do',
      ],
    ]);
  });

  it('nothing failing: no cause', () => {
    expect(
      triage([
        { ...failed('signature.x', 'signature', 'no-final-lf'), verdict: 'passed', status: 'pass' } as CaseResult,
      ]),
    ).toEqual([]);
  });

  it('orders root causes first, run order within an area', () => {
    const order = byCause([
      failed('merchant.m', 'merchant', undefined),
      failed('client.c', 'client', undefined),
      failed('property.p', 'property', undefined),
      failed('signature.s2', 'signature', undefined),
      failed('authorization.a', 'authorization', undefined),
      failed('signature.s1', 'signature', undefined),
    ]);
    expect(order.map((c) => c.id)).toEqual([
      'signature.s2',
      'signature.s1',
      'authorization.a',
      'property.p',
      'client.c',
      'merchant.m',
    ]);
  });
});

describe.concurrent('a failing run names its likely cause first', () => {
  it('an implementation that drops the final LF: the first line counts the failing cases, the next names the mistake and how many it explains', async () => {
    const cwd = tmp();
    const r = await run(
      ['run', '--module', join(ROOT, 'test/zoo/members/no-final-lf.ts'), '--no-properties', '--report-dir', 'r'],
      { cwd },
    );
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as {
      totals: Record<string, number>;
      cases: Array<{
        id: string;
        kind: string;
        verdict: string;
        diagnosis: Array<{ mistake: string }>;
        reproduce: string;
        ops: Array<{ status: string; input: unknown }>;
      }>;
      causes: Array<{ mistake: string | null; count: number; refusals: number }>;
    };
    const failing = results.cases.filter((c) => c.verdict === 'failed' || c.verdict === 'error');
    // counted here from each case's own diagnosis, not from the triage: the rest are the genuine messages it refuses
    const explained = failing.filter((c) => c.diagnosis[0]?.mistake === 'no-final-lf').length;
    const refused = failing.filter((c) => c.diagnosis.length === 0);
    expect(explained).toBeGreaterThan(50);
    expect(refused.length).toBeGreaterThan(10);
    expect(explained + refused.length).toBe(failing.length);
    const [first, second, third, fourth] = r.stdout.split('\n');
    expect(first).toBe(`Likely causes of the ${failing.length} failing cases, most cases first:`);
    expect(second).toBe(
      `  ${failing.length} cases: the LF after the body was left out (no-final-lf; ${refused.length} of them genuine messages refused, which it explains)`,
    );
    // the fix as the page says it (read here from the page), then the page
    const fix = readFileSync(join(ROOT, 'docs/mistakes/no-final-lf.md'), 'utf8')
      .split('## How to fix it\n\n')[1]
      ?.split('\n')[0];
    expect(third).toBe(`    fix: ${fix}`);
    expect(fourth).toBe('    see docs/mistakes/no-final-lf.md');
    expect(results.causes[0]).toMatchObject({
      mistake: 'no-final-lf',
      count: failing.length,
      refusals: refused.length,
    });
    expect(results.causes.reduce((n, c) => n + c.count, 0)).toBe(failing.length);
    expect(r.stdout).toContain(`likely cause: ${second?.trim()}`);
    // every failed step keeps what it was sent
    expect(
      failing.every((c) =>
        c.ops.filter((o) => o.status === 'fail').every((o) => o.input !== null && typeof o.input === 'object'),
      ),
    ).toBe(true);
    expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain(
      `1. **${failing.length} cases**: the LF after the body was left out — \`no-final-lf\` (${refused.length} of them genuine messages refused, which it explains)\n   - what it means: `,
    );
    expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain('   - docs/mistakes/no-final-lf.md in the kit\n');
  });

  it('the reproduce command of a failing case runs that case alone, and it fails the same way', async () => {
    const cwd = tmp();
    await run(
      [
        'run',
        '--module',
        join(ROOT, 'test/zoo/members/header-by-position.ts'),
        '--only',
        'authorization',
        '--no-properties',
        '--report-dir',
        'r',
      ],
      { cwd },
    );
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as {
      cases: Array<{ id: string; verdict: string; message: string; reproduce: string }>;
    };
    const one = results.cases.find((c) => c.verdict === 'failed');
    expect(one?.reproduce).toBe(
      `npx pgv2kit run --module ${join(ROOT, 'test/zoo/members/header-by-position.ts')} --only id:${one?.id}`,
    );
    const argv = (one?.reproduce ?? '').split(' ').slice(2);
    const again = await run([...argv, '--no-reports'], { cwd });
    expect(again.code).toBe(1);
    expect(again.stdout).toContain(`FAILED ${one?.id}: ${one?.message}`);
    expect(again.stdout).toMatch(/\n0 passed, 1 failed\n$/);
  });
});
