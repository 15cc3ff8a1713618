/**
 * What a run prints: progress in place on a terminal, plain lines in CI, the summary
 * and the closing lines.
 */
import { describe, expect, it } from 'vitest';
import { createProgress, summary } from '../../src/runner/progress.js';
import type { CaseResult, RunResult } from '../../src/runner/result.js';
import { countVerdicts } from '../../src/runner/run.js';

const caseOf = (id: string, verdict: CaseResult['verdict'], extra: Partial<CaseResult> = {}): CaseResult =>
  ({
    id,
    kind: 'signature',
    file: 'f.yaml',
    comment: 'c',
    spec: ['5.1'],
    readings: [],
    flags: ['Baseline'],
    result: 'valid',
    status: 'pass',
    ops: [],
    message: `${id} message`,
    verdict,
    durationMs: 1,
    ...extra,
  }) as CaseResult;

const cases = [
  caseOf('signature.a', 'passed', { choice: 'accepted' }),
  caseOf('signature.b', 'failed', {
    ops: [
      {
        op: 'signature.sign',
        status: 'fail',
        expected: 'x',
        got: 'y',
        message: 'm',
        durationMs: 1,
        diagnosis: [{ mistake: 'no-final-lf', message: 'your sign equals …', ref: 'R1' }],
      },
    ],
  }),
  caseOf('signature.c', 'expected-failure', { listedReason: 'known' }),
  caseOf('signature.d', 'unexpected-pass'),
  caseOf('signature.e', 'error'),
  caseOf('signature.f', 'skipped'),
  caseOf('signature.g', 'passed', { choice: 'refused' }),
];
const run: RunResult = {
  runName: 'r',
  kit: { name: 'pgv2kit', version: '0' },
  vectorSetHash: 'ab'.repeat(32),
  implementation: { name: 'impl', version: '1', language: 'js' },
  target: { kind: 'module', description: 'm.mjs' },
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  durationMs: 1000,
  selection: { only: [], skip: [] },
  cases,
  totals: countVerdicts(cases),
  log: [],
  staleListEntries: ['signature.gone'],
};

describe('progress', () => {
  it('in CI prints a plain line for each case that did not pass, then the summary', () => {
    let out = '';
    const p = createProgress({ stdout: (s) => void (out += s), stderr: () => undefined, isTTY: false });
    cases.forEach((c, i) => p.onCase(c, i + 1, cases.length));
    p.finish(run);
    expect(out).toContain(
      'FAILED signature.b: signature.b message — your sign equals … (see docs/mistakes/no-final-lf.md)\n',
    );
    expect(out).toContain('expected failure signature.c: listed: known\n');
    expect(out).toContain('UNEXPECTED PASS signature.d: signature.d message\n');
    expect(out).toContain('ERROR signature.e: signature.e message\n');
    expect(out).not.toContain('signature.a:');
    expect(out).toContain('acceptable cases: 1 accepted, 1 refused');
    expect(out).toContain('expected-failure list names signature.gone, which is not a case');
    // the likely causes come first; the most common one is said again just above the closing line
    expect(
      out.startsWith(
        'Likely causes of the 3 failing cases, most cases first:\n  1 case: the LF after the body was left out (no-final-lf)\n    fix: Append an LF after every part, the body included: `parts.map(p => p + "\\n").join("")`, or join and add a final LF.\n    see docs/mistakes/no-final-lf.md\n',
      ),
    ).toBe(true);
    expect(
      out.endsWith(
        'skipped: 1, expected failures: 1, unexpected passes: 1, errors: 1\nlikely cause: 1 case: the LF after the body was left out (no-final-lf) — the first lines above list every cause\n2 passed, 3 failed\n',
      ),
    ).toBe(true);
  });

  it('in CI a long run says on stderr how far it got at each tenth; a short one says nothing while it runs', () => {
    const many = Array.from({ length: 40 }, (_, i) => caseOf(`signature.n${i}`, i % 4 === 0 ? 'failed' : 'passed'));
    const lines = (msPerCase: number): string[] => {
      let err = '';
      let clock = 0;
      const p = createProgress({
        stdout: () => undefined,
        stderr: (s) => void (err += s),
        isTTY: false,
        now: () => (clock += msPerCase),
      });
      many.forEach((c, i) => p.onCase(c, i + 1, many.length));
      return err.split('\n').filter(Boolean);
    };
    // 1 s a case: the 5 s have passed at the 6th
    expect(lines(1000)).toEqual([
      '[6/40] 2 failed',
      '[10/40] 3 failed',
      '[14/40] 4 failed',
      '[18/40] 5 failed',
      '[22/40] 6 failed',
      '[26/40] 7 failed',
      '[30/40] 8 failed',
      '[34/40] 9 failed',
      '[38/40] 10 failed',
    ]);
    expect(lines(10)).toEqual([]);
  });

  it('on a terminal draws progress in place on stderr; the failures go to stdout when the run ends', () => {
    let err = '';
    let out = '';
    const p = createProgress({ stdout: (s) => void (out += s), stderr: (s) => void (err += s), isTTY: true });
    cases.forEach((c, i) => p.onCase(c, i + 1, cases.length));
    expect(err).toContain(`\r\x1b[K[${cases.length}/${cases.length}] 3 failed\n`);
    expect(out).toBe('');
    p.finish(run);
    expect(out).toContain('FAILED signature.b');
    expect(out).not.toContain('\x1b');
    expect(err).not.toContain('FAILED');
  });

  it('lists root causes first: a client-role failure after the signature failure it follows from', () => {
    const mixed = [caseOf('client.x', 'failed', { kind: 'client' }), caseOf('signature.y', 'failed')];
    let out = '';
    const p = createProgress({ stdout: (s) => void (out += s), stderr: () => undefined, isTTY: false });
    p.finish({ ...run, cases: mixed, totals: countVerdicts(mixed), staleListEntries: [] });
    expect(out.indexOf('FAILED signature.y')).toBeLessThan(out.indexOf('FAILED client.x'));
  });

  it('counts partial cases apart from passed ones, and shows per operation what ran and what did not', () => {
    const verifierOnly = [
      caseOf('signature.p', 'partial', {
        status: 'partial',
        ops: [
          {
            op: 'signature.content',
            status: 'skip',
            expected: null,
            got: null,
            message: 'the subject does not offer signature.content',
            durationMs: 0,
          },
          {
            op: 'signature.sign',
            status: 'skip',
            expected: null,
            got: null,
            message: 'the subject does not offer signature.sign',
            durationMs: 0,
          },
          {
            op: 'request.verify',
            status: 'pass',
            expected: 'accept',
            got: null,
            message: 'accepted as expected',
            durationMs: 1,
          },
        ],
      }),
      caseOf('request.q', 'passed', {
        kind: 'request',
        ops: [{ op: 'request.verify', status: 'fail', expected: 'refuse', got: null, message: 'm', durationMs: 1 }],
      }),
    ];
    const text = summary({
      ...run,
      cases: verifierOnly,
      totals: countVerdicts(verifierOnly),
      staleListEntries: [],
      offered: ['request.verify'],
      operations: [
        { op: 'signature.content', offered: false, cases: 1, ran: 0, passed: 0, failed: 0, error: 0, notRun: 1 },
        { op: 'signature.sign', offered: false, cases: 1, ran: 0, passed: 0, failed: 0, error: 0, notRun: 1 },
        { op: 'request.verify', offered: true, cases: 2, ran: 2, passed: 1, failed: 1, error: 0, notRun: 0 },
      ],
    });
    expect(text).toContain(
      '\n  kind                         passed  failed   error partial skipped   xfail   xpass\n  signature                         0       0       0       1       0       0       0\n',
    );
    expect(text).toContain(
      '\n  operation                   offered   cases     ran  passed  failed   error not run\n  signature.content                NO       1       0       0       0       0       1\n',
    );
    expect(text).toContain('\n  request.verify                  yes       2       2       1       1       0       0\n');
    expect(
      text.endsWith(
        'not run: signature.content (not offered, 1 step), signature.sign (not offered, 1 step)\npartial: 1 (not counted as passed), skipped: 0, expected failures: 0\n1 passed, 0 failed\n',
      ),
    ).toBe(true);
  });

  it('says when no test ran, on the line before the closing lines', () => {
    const text = summary({
      ...run,
      cases: [],
      totals: countVerdicts([]),
      staleListEntries: [],
      noTestRan: 'no test ran: the implementation offers no operations',
    });
    expect(
      text.endsWith(
        'no test ran: the implementation offers no operations\nskipped: 0, expected failures: 0\n0 passed, 0 failed\n',
      ),
    ).toBe(true);
  });

  it('summarises areas that have cases only', () => {
    expect(summary(run)).toMatch(/ {2}signature {6}/);
    expect(summary(run)).not.toContain('authorization');
  });
});
