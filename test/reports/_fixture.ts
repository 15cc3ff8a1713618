/**
 * A realistic run, built by hand, for the report tests: passed cases, a failed
 * signature case (content without its final LF, diagnosed `no-final-lf`), an error
 * (the testee crashed), a skipped case, a partial case (signing answered unsupported,
 * verification passed), an acceptable case with a choice, an expected failure and an
 * unexpected pass; a handshake name protocol v1 does not know. Secrets appear in
 * contents, answers, messages and log lines.
 */
import { operationCoverage } from '../../src/runner/coverage.js';
import type { CaseResult, OpResult, RunResult, Totals, Verdict } from '../../src/runner/result.js';
import { unknownOperation } from '../../src/runner/unknown-operations.js';
import type { Operation } from '../../src/protocol/operations.js';

/** The secrets of the run's vectors. */
export const SECRET = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
export const SECRET2 = 'sk_test_Jx7pWq2Lr9Nz4Ks1Vb8Hm3Dt';
export const SECRET3 = 'sk_test_Zq8Lm2Vn5Xc1Bw7Ty4Ui9Op0';
export const SECRETS = [SECRET, SECRET2, SECRET3] as const;

const BODY = '{"filename":"evidence-0412.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';

/** The correct content of the failed case (ends in LF). */
export const EXPECTED_CONTENT = `app_7f3a9c\n${SECRET}\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nd3b07384d113edec49eaa6238ad5ff00\n${BODY}\n`;
/** What the implementation built: the final LF left out. */
export const GOT_CONTENT = EXPECTED_CONTENT.slice(0, -1);
/** A passing case's content. */
export const OK_CONTENT = `app_2b91d0\n${SECRET2}\nGET\nhttps://pg.example.com/pg/v2/payment/query?id=7\n1718090412337\nn-1\n\n`;

export const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

function op(o: Partial<OpResult> & Pick<OpResult, 'op' | 'status'>): OpResult {
  return { expected: null, got: null, message: '', durationMs: 2, ...o };
}

function kase(c: Partial<CaseResult> & Pick<CaseResult, 'id' | 'kind' | 'verdict' | 'ops'>): CaseResult {
  return {
    file: `${c.kind}/basics.yaml`,
    comment: `The case ${c.id}.`,
    spec: ['5.1'],
    readings: [],
    flags: [],
    result: 'valid',
    status: 'pass',
    message: 'as expected',
    durationMs: 5,
    ...c,
  };
}

/** The cases of the run, in run order. */
export function fixtureCases(): CaseResult[] {
  return [
    kase({
      id: 'signature.basics.get-empty-body',
      kind: 'signature',
      verdict: 'passed',
      spec: ['5.1', '5.2'],
      readings: ['R2'],
      flags: ['EmptyBody'],
      ops: [
        op({
          op: 'signature.content',
          status: 'pass',
          expected: b64(OK_CONTENT),
          got: { result: { contentB64: b64(OK_CONTENT) } },
          message: 'content as expected',
        }),
        op({
          op: 'signature.sign',
          status: 'pass',
          expected: 'ab'.repeat(32),
          got: { result: { sign: 'ab'.repeat(32) } },
          message: 'sign as expected',
        }),
      ],
    }),
    kase({
      id: 'signature.final-lf-missing',
      kind: 'signature',
      file: 'signature/known-mistakes.yaml',
      comment: 'The LF after the body (part 7) is left out.',
      spec: ['5.1', '5.2'],
      flags: ['FinalLfMissing'],
      result: 'invalid',
      verdict: 'failed',
      status: 'fail',
      message: `content differs from the expected at byte ${GOT_CONTENT.length} (part 7, body; expected ${EXPECTED_CONTENT.length} bytes, got ${GOT_CONTENT.length})`,
      ops: [
        op({
          op: 'signature.content',
          status: 'fail',
          expected: b64(EXPECTED_CONTENT),
          got: { result: { contentB64: b64(GOT_CONTENT) } },
          message: `content differs from the expected at byte ${GOT_CONTENT.length}`,
          diagnosis: [
            {
              mistake: 'no-final-lf',
              message: 'your content is the expected content without its final LF',
              ref: '§5.1, R1',
            },
          ],
          durationMs: 3,
        }),
        op({
          op: 'signature.sign',
          status: 'fail',
          expected: 'f599d221f43d8ed01f46ac79521227d9689559f816d53828165ada5bcdc13b52',
          got: { result: { sign: '94a142c0ba2a8d13c23532c547ccceed372f4f7bd997ff05e2e3f46a26bf3f67' } },
          message: "sign differs from the expected: it is the sign of this case's known mistake (FinalLfMissing)",
          diagnosis: [
            {
              mistake: 'no-final-lf',
              message: 'your sign equals the sign of the content without its final LF',
              ref: '§5.1, R1',
            },
          ],
        }),
        op({
          op: 'request.verify',
          status: 'pass',
          expected: 'refuse',
          got: { result: { valid: false, reason: 'sign mismatch' } },
          message: 'refused as expected',
        }),
      ],
    }),
    kase({
      id: 'authorization.parse.basic',
      kind: 'authorization',
      spec: ['5.3'],
      readings: ['R8'],
      verdict: 'passed',
      ops: [
        op({
          op: 'authorization.parse',
          status: 'pass',
          expected: 'accept',
          got: { result: { items: { appId: 'app_1' } } },
          message: 'accepted as expected',
        }),
      ],
    }),
    kase({
      id: 'request.verify.crash',
      kind: 'request',
      spec: ['5.1', '5.3'],
      verdict: 'error',
      status: 'error',
      message: `the testee exited with code 1: TypeError: cannot sign with ${SECRET2}`,
      ops: [
        op({
          op: 'request.verify',
          status: 'error',
          expected: 'accept',
          got: {
            failed: { reason: `the testee exited with code 1: TypeError: cannot sign with ${SECRET2}` },
            input: { appSecret: SECRET2, bodyB64: b64(`secret=${SECRET2}`) },
          },
          message: `the testee exited with code 1: TypeError: cannot sign with ${SECRET2}`,
        }),
      ],
    }),
    kase({
      id: 'upload.form.basic',
      kind: 'upload',
      spec: ['4.2'],
      verdict: 'skipped',
      status: 'skip',
      message: 'unsupported: upload.form is not offered',
      ops: [
        op({
          op: 'upload.form',
          status: 'skip',
          expected: { parts: [] },
          got: { unsupported: { reason: 'upload.form is not offered' } },
          message: 'unsupported: upload.form is not offered',
        }),
      ],
    }),
    kase({
      id: 'upload.validate.size',
      kind: 'upload',
      spec: ['2.1'],
      verdict: 'skipped',
      status: 'skip',
      message: 'unsupported: upload.form is not offered',
      ops: [
        op({
          op: 'upload.validate',
          status: 'skip',
          expected: 'refuse',
          got: { unsupported: { reason: 'upload.form is not offered' } },
          message: 'unsupported: upload.form is not offered',
        }),
      ],
    }),
    kase({
      id: 'response.uppercase-hex',
      kind: 'response',
      spec: ['5.4'],
      readings: ['R7'],
      result: 'acceptable',
      verdict: 'passed',
      choice: 'accepted',
      message: 'acceptable case: the subject accepted',
      ops: [
        op({
          op: 'response.verify',
          status: 'pass',
          choice: 'accepted',
          expected: 'either',
          got: { result: { valid: true } },
          message: 'acceptable case: the subject accepted',
        }),
      ],
    }),
    kase({
      id: 'redirect.payment-trimmed',
      kind: 'redirect',
      spec: ['5.6'],
      readings: ['R11'],
      verdict: 'expected-failure',
      status: 'fail',
      listedReason: 'SDK 1.x trims the payment; fixed in 2.0 (ticket 42)',
      message: 'refused, but the case is valid (reason: payment mismatch)',
      ops: [
        op({
          op: 'redirect.verify',
          status: 'fail',
          expected: 'accept',
          got: { result: { valid: false, reason: 'payment mismatch' } },
          message: 'refused, but the case is valid (reason: payment mismatch)',
        }),
      ],
    }),
    kase({
      id: 'webhook.genuine.basic',
      kind: 'webhook',
      spec: ['5.5'],
      readings: ['R10'],
      verdict: 'unexpected-pass',
      listedReason: 'webhook verify was broken in 1.2',
      message: 'accepted as expected',
      ops: [
        op({
          op: 'webhook.verify',
          status: 'pass',
          expected: 'accept',
          got: { result: { valid: true } },
          message: 'accepted as expected',
        }),
      ],
    }),
    kase({
      id: 'signature.verify-only',
      kind: 'signature',
      verdict: 'partial',
      status: 'partial',
      message:
        'not run: signature.content (unsupported: signing is not implemented), signature.sign (unsupported: signing is not implemented); passed: request.verify',
      ops: [
        op({
          op: 'signature.content',
          status: 'skip',
          expected: b64(OK_CONTENT),
          got: { unsupported: { reason: 'signing is not implemented' } },
          message: 'unsupported: signing is not implemented',
        }),
        op({
          op: 'signature.sign',
          status: 'skip',
          expected: 'cd'.repeat(32),
          got: { unsupported: { reason: 'signing is not implemented' } },
          message: 'unsupported: signing is not implemented',
        }),
        op({
          op: 'request.verify',
          status: 'pass',
          expected: 'accept',
          got: { result: { valid: true } },
          message: 'accepted as expected',
        }),
      ],
    }),
  ];
}

/**
 * The run.
 * @param over - fields to replace
 * @returns a RunResult
 */
export function fixtureRun(over: Partial<RunResult> = {}): RunResult {
  const cases = over.cases ?? fixtureCases();
  const totals = countedTotals(cases);
  const offered = [...new Set(cases.flatMap((c) => c.ops.map((o) => o.op)))] as Operation[];
  return {
    runName: 'nightly',
    kit: { name: 'pgv2kit', version: '0.1.0' },
    vectorSetHash: 'c0ffee'.repeat(10) + 'abcd',
    implementation: { name: 'acme-pg-sdk', version: '1.4.2', language: 'java' },
    target: { kind: 'testee', description: 'java -jar acme-testee.jar' },
    startedAt: '2024-06-11T08:00:00.000Z',
    finishedAt: '2024-06-11T08:00:01.234Z',
    durationMs: 1234,
    selection: { only: ['signature.*', 'request.*'], skip: [] },
    cases,
    totals,
    log: [
      'testee started: java -jar acme-testee.jar (pid 4242)',
      `testee stderr: signing with secret ${SECRET} for signature.final-lf-missing`,
      `testee stderr: content=${b64(GOT_CONTENT)}`,
      `testee stderr: partial secret ${SECRET3.slice(0, -2)}`,
      'testee restarted after a crash in request.verify.crash',
    ],
    staleListEntries: ['signature.removed-case'],
    offered,
    operations: operationCoverage(cases, offered),
    unknownOperations: [unknownOperation('signature.sgn', 'the testee')],
    ...over,
  };
}

/**
 * The totals of a fixture's cases, counted here (not by the runner's countVerdicts: the fixtures feed the code under
 * test).
 * @param cases - the cases
 * @returns how many of each verdict
 */
export function countedTotals(cases: ReadonlyArray<Pick<CaseResult, 'verdict'>>): Totals {
  const totals: Totals = {
    passed: 0,
    failed: 0,
    error: 0,
    partial: 0,
    skipped: 0,
    'expected-failure': 0,
    'unexpected-pass': 0,
  };
  for (const c of cases) totals[c.verdict as Verdict]++;
  return totals;
}
