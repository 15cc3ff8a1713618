/**
 * Coverage you can read: how a case's status combines its steps (a case passes only
 * when every step ran and passed), the per-operation summary, "no test ran", and the
 * closest known name for an operation a handshake misspells.
 */
import { describe, expect, it } from 'vitest';
import { worstStatus, type OpStatus, type Status } from '../../src/checks/outcome.js';
import { noTestRan, operationCoverage } from '../../src/runner/coverage.js';
import { closestOperation, unknownOperation } from '../../src/runner/unknown-operations.js';
import type { Operation } from '../../src/protocol/operations.js';

const steps = (...s: OpStatus[]): Array<{ status: OpStatus }> => s.map((status) => ({ status }));

describe('a case status from its steps', () => {
  it.each<[OpStatus[], Status]>([
    [['pass', 'pass', 'pass'], 'pass'],
    // a step of an operation not offered (skip) keeps the case from passing
    [['skip', 'skip', 'pass'], 'partial'],
    [['pass', 'skip'], 'partial'],
    // no step ran: skipped, not partial
    [['skip', 'skip', 'skip'], 'skip'],
    [[], 'skip'],
    // fail and error dominate partial
    [['skip', 'fail', 'pass'], 'fail'],
    [['skip', 'error', 'pass'], 'error'],
    [['skip', 'fail'], 'fail'],
    [['fail', 'error', 'skip'], 'error'],
    [['pass', 'fail'], 'fail'],
  ])('%j → %s', (s, expected) => {
    expect(worstStatus(steps(...s))).toBe(expected);
  });
});

describe('operationCoverage', () => {
  const cases = [
    {
      ops: [
        { op: 'signature.content', status: 'skip' },
        { op: 'signature.sign', status: 'skip' },
        { op: 'request.verify', status: 'pass' },
      ],
    },
    {
      ops: [
        { op: 'signature.content', status: 'skip' },
        { op: 'signature.sign', status: 'skip' },
        { op: 'request.verify', status: 'fail' },
      ],
    },
    { ops: [{ op: 'request.verify', status: 'error' }] },
    { ops: [{ op: 'webhook.verify', status: 'skip' }] },
  ] as const;
  const rows = operationCoverage(cases, ['request.verify', 'webhook.verify', 'redirect.verify']);

  it('gives per operation whether it is offered, and its steps run, passed, failed, errored, not run', () => {
    expect(rows).toEqual([
      { op: 'signature.content', offered: false, cases: 2, ran: 0, passed: 0, failed: 0, error: 0, notRun: 2 },
      { op: 'signature.sign', offered: false, cases: 2, ran: 0, passed: 0, failed: 0, error: 0, notRun: 2 },
      { op: 'request.verify', offered: true, cases: 3, ran: 3, passed: 1, failed: 1, error: 1, notRun: 0 },
      // offered, but answered unsupported
      { op: 'webhook.verify', offered: true, cases: 1, ran: 0, passed: 0, failed: 0, error: 0, notRun: 1 },
      // offered, no selected case needs it
      { op: 'redirect.verify', offered: true, cases: 0, ran: 0, passed: 0, failed: 0, error: 0, notRun: 0 },
    ]);
  });

  it('lists nothing for a run with no case and no operation offered', () => {
    expect(operationCoverage([], [])).toEqual([]);
  });
});

describe('noTestRan', () => {
  const selection = { only: [], skip: [] };
  const skipped = [{ ops: [{ op: 'signature.sign' as Operation, status: 'skip' as const }] }];

  it.each<[string, Parameters<typeof noTestRan>[0], string | undefined]>([
    [
      'an empty selection',
      { selection: { only: ['signature'], skip: ['signature'] }, cases: [], offered: ['signature.sign'] },
      'no test ran: the selection (--only signature --skip signature) leaves no case',
    ],
    [
      // the options as a user pastes them into sh: quoted (issue 25, item 2)
      'a selection of patterns sh would split or run',
      { selection: { only: ['id:x;touch p', "a'b"], skip: ['$(id)'] }, cases: [], offered: ['signature.sign'] },
      "no test ran: the selection (--only 'id:x;touch p' --only 'a'\\''b' --skip '$(id)') leaves no case",
    ],
    [
      'a selection holding a control character: printed as printf makes it, never as the character',
      { selection: { only: ['id:\u001b[2J'], skip: [] }, cases: [], offered: ['signature.sign'] },
      `no test ran: the selection (--only "$(printf 'id:\\033[2J')") leaves no case`,
    ],
    [
      'an empty vector set',
      { selection, cases: [], offered: ['signature.sign'] },
      'no test ran: the vector set leaves no case',
    ],
    [
      'a testee offering nothing',
      { selection, cases: skipped, offered: [] },
      'no test ran: the implementation offers no operations',
    ],
    [
      'a testee offering nothing the selection needs',
      { selection, cases: skipped, offered: ['webhook.verify'] },
      'no test ran: the implementation offers none of the operations the selected cases need (signature.sign)',
    ],
    [
      'every offered step answered unsupported',
      { selection, cases: skipped, offered: ['signature.sign'] },
      'no test ran: the implementation answered unsupported to every step of the operations it offers',
    ],
    [
      'one step ran (and failed)',
      {
        selection,
        cases: [...skipped, { ops: [{ op: 'request.verify', status: 'fail' }] }],
        offered: ['request.verify'],
      },
      undefined,
    ],
    [
      'one step ran in a partial case',
      {
        selection,
        cases: [
          {
            ops: [
              { op: 'signature.sign', status: 'skip' },
              { op: 'request.verify', status: 'pass' },
            ],
          },
        ],
        offered: ['request.verify'],
      },
      undefined,
    ],
  ])('%s', (_, run, expected) => {
    expect(noTestRan(run)).toBe(expected);
  });
});

describe('unknown operation names', () => {
  it.each([
    ['signature.sgn', 'signature.sign'],
    ['Signature.Sign', 'signature.sign'],
    ['request.verfy', 'request.verify'],
    ['webhooks.verify', 'webhook.verify'],
    ['client.createpayment', 'client.createPayment'],
    ['frobnicate', undefined],
    ['sign', undefined],
  ])('closest to %j: %s', (name, expected) => {
    expect(closestOperation(name)).toBe(expected);
  });

  it('says what the testee offers and what it probably meant', () => {
    expect(unknownOperation('signature.sgn', 'the testee')).toEqual({
      name: 'signature.sgn',
      suggestion: 'signature.sign',
      message: 'the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)',
    });
    expect(unknownOperation('frobnicate', 'the testee').message).toMatch(
      /^the testee offers "frobnicate", which protocol v1 does not know \(protocol v1 operations: signature\.content, signature\.sign, /,
    );
    expect(unknownOperation('upload.formCheck', 'the testee').message).toBe(
      'the testee offers "upload.formCheck", which protocol v1 does not know (a kit-internal operation, never sent to a testee)',
    );
  });
});
