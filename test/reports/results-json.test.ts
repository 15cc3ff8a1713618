/**
 * results.json: layout and key order, per-case and per-op content, contents stored
 * decoded and masked.
 */
import { describe, expect, it } from 'vitest';
import { toResultsJson } from '../../src/reports/results-json.js';
import { maskSecret } from '../../src/scheme/mask.js';
import { EXPECTED_CONTENT, fixtureRun, GOT_CONTENT, SECRET, SECRETS } from './_fixture.js';

const json = toResultsJson(fixtureRun(), SECRETS);
const byId = (id: string) => json.cases.find((c) => c.id === id) ?? expect.unreachable(`no case ${id}`);

describe('toResultsJson', () => {
  it('has schemaVersion 2 first and its keys in a fixed order', () => {
    expect(Object.keys(json)).toEqual([
      'schemaVersion',
      'kit',
      'vectorSetHash',
      'implementation',
      'target',
      'runName',
      'startedAt',
      'finishedAt',
      'durationMs',
      'selection',
      'conformant',
      'summary',
      'noTestRan',
      'stopped',
      'otherTargets',
      'aborted',
      'totals',
      'shard',
      'causes',
      'operations',
      'unknownOperations',
      'cases',
      'staleListEntries',
    ]);
    // 2: the status and verdict "partial" are new values (and the coverage fields new keys); causes, reproduce and input are keys added since (and the pages of causes and diagnoses), nothing removed
    expect(json.schemaVersion).toBe(2);
    expect(Object.keys(json.cases[0]!)).toEqual([
      'id',
      'kind',
      'file',
      'comment',
      'spec',
      'readings',
      'flags',
      'result',
      'status',
      'verdict',
      'ran',
      'notRun',
      'choice',
      'advisory',
      'listedReason',
      'message',
      'reproduce',
      'curl',
      'durationMs',
      'diagnosis',
      'property',
      'ops',
    ]);
    expect(Object.keys(json.cases[0]!.ops[0]!)).toEqual([
      'op',
      'status',
      'expected',
      'got',
      'message',
      'choice',
      'advisory',
      'contentDifference',
      'diagnosis',
      'durationMs',
      'input',
    ]);
  });

  it('gives the run: kit, vector set, implementation, target, times, selection, totals', () => {
    expect(json).toMatchObject({
      kit: { name: 'pgv2kit', version: '0.1.0' },
      implementation: { name: 'acme-pg-sdk', version: '1.4.2', language: 'java' },
      target: { kind: 'testee', description: 'java -jar acme-testee.jar' },
      runName: 'nightly',
      startedAt: '2024-06-11T08:00:00.000Z',
      durationMs: 1234,
      selection: { only: ['signature.*', 'request.*'], skip: [] },
      conformant: false,
      noTestRan: null,
      totals: {
        passed: 3,
        failed: 1,
        error: 1,
        partial: 1,
        skipped: 2,
        'expected-failure': 1,
        'unexpected-pass': 1,
        total: 10,
      },
      staleListEntries: ['signature.removed-case'],
    });
    expect(json.summary).toBe(
      'NOT CONFORMANT: 3 passed, 1 failed, 1 error, 1 unexpected pass, 1 expected failure, 1 partial, 2 skipped (10 cases, 1.234 s)',
    );
  });

  it('gives a partial case its status and the steps that ran and did not', () => {
    expect(byId('signature.verify-only')).toMatchObject({
      status: 'partial',
      verdict: 'partial',
      ran: ['request.verify'],
      notRun: ['signature.content', 'signature.sign'],
    });
    expect(byId('signature.final-lf-missing')).toMatchObject({
      ran: ['signature.content', 'signature.sign', 'request.verify'],
      notRun: [],
    });
    expect(byId('upload.form.basic')).toMatchObject({ status: 'skip', ran: [], notRun: ['upload.form'] });
  });

  it('gives per operation: offered, cases, ran, passed, failed, error, not run; and the unknown names', () => {
    // counted by hand from the fixture's cases
    expect(json.operations.find((o) => o.op === 'signature.content')).toEqual({
      op: 'signature.content',
      offered: true,
      cases: 3,
      ran: 2,
      passed: 1,
      failed: 1,
      error: 0,
      notRun: 1,
    });
    expect(json.operations.find((o) => o.op === 'request.verify')).toEqual({
      op: 'request.verify',
      offered: true,
      cases: 3,
      ran: 3,
      passed: 2,
      failed: 0,
      error: 1,
      notRun: 0,
    });
    expect(json.operations.find((o) => o.op === 'upload.form')).toEqual({
      op: 'upload.form',
      offered: true,
      cases: 1,
      ran: 0,
      passed: 0,
      failed: 0,
      error: 0,
      notRun: 1,
    });
    expect(json.unknownOperations).toEqual([
      {
        name: 'signature.sgn',
        suggestion: 'signature.sign',
        message: 'the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)',
      },
    ]);
  });

  it('says when no test ran, and such a run is not conformant', () => {
    const none = toResultsJson(
      fixtureRun({
        cases: [],
        noTestRan: 'no test ran: the selection (--only signature --skip signature) leaves no case',
      }),
      SECRETS,
    );
    expect(none).toMatchObject({
      conformant: false,
      noTestRan: 'no test ran: the selection (--only signature --skip signature) leaves no case',
    });
    expect(none.summary).toMatch(/^NO TEST RAN: 0 passed \(0 cases/);
  });

  it('stores signature content decoded and masked as contentText, for expected and got', () => {
    const op = byId('signature.final-lf-missing').ops[0]!;
    expect(op.expected).toEqual({ contentText: EXPECTED_CONTENT.replace(SECRET, maskSecret(SECRET)) });
    expect(op.got).toEqual({ result: { contentText: GOT_CONTENT.replace(SECRET, maskSecret(SECRET)) } });
    expect(op.contentDifference).toBe(
      `first difference at byte ${GOT_CONTENT.length} (line 7, body); expected ${EXPECTED_CONTENT.length} bytes, got ${GOT_CONTENT.length}`,
    );
    expect(JSON.stringify(json)).not.toContain('contentB64');
  });

  it("names each known mistake's page as a path in the kit (never a file: URL), null for a cause no known mistake explains", () => {
    expect(json.causes.map((c) => [c.mistake, c.page])).toEqual(
      json.causes.map((c) => [c.mistake, c.mistake === null ? null : `docs/mistakes/${c.mistake}.md`]),
    );
    expect(json.causes[0]).toMatchObject({ mistake: 'no-final-lf', page: 'docs/mistakes/no-final-lf.md' });
    expect(json.causes.some((c) => c.page === null)).toBe(true);
    expect(JSON.stringify(json)).not.toMatch(/file:\/\//);
  });

  it('keeps per case: verdict, expected result, diagnosis, choice, listed reason, null when absent', () => {
    expect(byId('signature.final-lf-missing')).toMatchObject({
      kind: 'signature',
      result: 'invalid',
      verdict: 'failed',
      status: 'fail',
      choice: null,
      listedReason: null,
      spec: ['5.1', '5.2'],
      flags: ['FinalLfMissing'],
      diagnosis: [
        {
          mistake: 'no-final-lf',
          message: 'your content is the expected content without its final LF',
          ref: '§5.1, R1',
          page: 'docs/mistakes/no-final-lf.md',
        },
      ],
    });
    expect(byId('signature.final-lf-missing').ops[1]?.diagnosis).toEqual([
      {
        mistake: 'no-final-lf',
        message: 'your sign equals the sign of the content without its final LF',
        ref: '§5.1, R1',
        page: 'docs/mistakes/no-final-lf.md',
      },
    ]);
    expect(byId('response.uppercase-hex')).toMatchObject({
      result: 'acceptable',
      verdict: 'passed',
      choice: 'accepted',
      ops: [{ choice: 'accepted' }],
    });
    expect(byId('redirect.payment-trimmed')).toMatchObject({
      verdict: 'expected-failure',
      listedReason: 'SDK 1.x trims the payment; fixed in 2.0 (ticket 42)',
    });
    expect(byId('request.verify.crash').ops[0]).toMatchObject({ status: 'error', durationMs: 2 });
  });

  it('is the same for the same run (stable)', () => {
    expect(JSON.stringify(toResultsJson(fixtureRun(), SECRETS))).toBe(JSON.stringify(json));
  });
});
