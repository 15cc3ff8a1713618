/**
 * How checks judge answers: each branch shown with a small subject that answers in a
 * fixed way, on cases written here (not taken from the vector files).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Operation } from '../../src/protocol/operations.js';
import type { Answer, OperationInput, Subject } from '../../src/subjects/subject.js';
import type { LoadedCase, VectorCase } from '../../src/vectors/types.js';

const reference = createReferenceSubject();

/** A subject that answers every operation with `answer(op, input)`. */
function fixed(
  answer: (op: Operation, input: OperationInput) => Answer | Promise<Answer>,
  operations?: Operation[],
): Subject {
  return {
    implementation: { name: 'fixed', version: '0', language: 'ts' },
    operations: operations ?? reference.operations,
    call: async (op, input) => answer(op, input),
  };
}

const loaded = (c: unknown): LoadedCase => ({ case: c as VectorCase, file: 'inline.yaml' });
const base = { comment: 'c', spec: ['5.1'], readings: [], flags: ['Baseline'] };
const content = 'app_1\nsk_1\nPOST\nhttps://x/y\n1\nn\nb\n';
const sign = createHash('sha256').update(content).digest('hex');
const wrong = createHash('sha256').update(content.slice(0, -1)).digest('hex');
const sigCase = {
  ...base,
  id: 'signature.t',
  kind: 'signature',
  result: 'invalid',
  inputs: {
    appId: 'app_1',
    appSecret: 'sk_1',
    method: 'POST',
    url: 'https://x/y',
    timestamp: '1',
    nonce: 'n',
    body: 'b',
  },
  expected: { content, sign },
  candidate: { content: content.slice(0, -1), sign: wrong },
};

describe('runCase', () => {
  it('passes the reference on a signature case, all three operations', async () => {
    const o = await runCase(loaded(sigCase), reference);
    expect(o.status).toBe('pass');
    expect(o.ops.map((x) => [x.op, x.status])).toEqual([
      ['signature.content', 'pass'],
      ['signature.sign', 'pass'],
      ['request.verify', 'pass'],
    ]);
  });

  it('names a known mistake when the sign equals the candidate', async () => {
    const o = await runCase(
      loaded(sigCase),
      fixed(
        (op) => (op === 'signature.sign' ? { result: { sign: wrong } } : { unsupported: { reason: 'no' } }),
        ['signature.sign'],
      ),
    );
    expect(o.status).toBe('fail');
    expect(o.message).toBe(
      "signature.sign: sign differs from the expected: it is the sign of this case's known mistake (Baseline)",
    );
  });

  it('skips what the subject does not offer, and errors on a subject that throws or answers out of shape', async () => {
    expect(
      (
        await runCase(
          loaded(sigCase),
          fixed(() => ({ unsupported: { reason: 'x' } }), []),
        )
      ).status,
    ).toBe('skip');
    expect(
      (
        await runCase(
          loaded(sigCase),
          fixed(() => ({ unsupported: { reason: 'x' } })),
        )
      ).status,
    ).toBe('skip');
    const thrower = fixed(() => {
      throw new Error('boom');
    });
    expect(await runCase(loaded(sigCase), thrower)).toMatchObject({
      status: 'error',
      message: 'signature.content: the implementation threw: boom',
    });
    expect(
      (
        await runCase(
          loaded(sigCase),
          fixed(() => ({ result: {} })),
        )
      ).message,
    ).toBe('signature.content: result has no string "contentB64"');
    expect(
      (
        await runCase(
          loaded(sigCase),
          fixed(() => ({ result: { contentB64: '%%' } })),
        )
      ).message,
    ).toBe('signature.content: contentB64 is not base64');
    expect(
      (
        await runCase(
          loaded(sigCase),
          fixed(() => ({ failed: { reason: 'timeout' } })),
        )
      ).status,
    ).toBe('error');
  });

  it('a case passes only when every step ran: a verifier-only subject makes a signature case partial, never pass', async () => {
    const verifierOnly: Subject = { ...reference, operations: ['request.verify'] };
    const o = await runCase(loaded(sigCase), verifierOnly);
    expect(o.ops.map((x) => [x.op, x.status])).toEqual([
      ['signature.content', 'skip'],
      ['signature.sign', 'skip'],
      ['request.verify', 'pass'],
    ]);
    expect(o.status).toBe('partial');
    expect(o.message).toBe('not run: signature.content, signature.sign (not offered); passed: request.verify');
    const signerOnly = await runCase(loaded(sigCase), {
      ...reference,
      operations: ['signature.content', 'signature.sign'],
    });
    expect(signerOnly).toMatchObject({
      status: 'partial',
      message: 'not run: request.verify (not offered); passed: signature.content, signature.sign',
    });
    // offered, but answered unsupported: the step did not run either
    const declines = fixed((op, input) =>
      op === 'signature.sign' ? { unsupported: { reason: 'no HMAC here' } } : reference.call(op, input, 'signature.t'),
    );
    expect(await runCase(loaded(sigCase), declines)).toMatchObject({
      status: 'partial',
      message: 'not run: signature.sign (unsupported: no HMAC here); passed: signature.content, request.verify',
    });
  });

  it('a failing step dominates the steps that did not run', async () => {
    const o = await runCase(
      loaded(sigCase),
      fixed(() => ({ result: { valid: true } }), ['request.verify']),
    );
    expect(o.status).toBe('fail');
    expect(o.message).toBe('request.verify: accepted, but the case is invalid');
  });

  it('reports where content differs, and a refusal to sign', async () => {
    const other = Buffer.from(content.replace('POST', 'post')).toString('base64');
    const o = await runCase(
      loaded(sigCase),
      fixed(() => ({ result: { contentB64: other } }), ['signature.content']),
    );
    expect(o.message).toBe(
      'signature.content: content differs from the expected at byte 11 (part 3, method; expected 34 bytes, got 34)',
    );
    const r = await runCase(
      loaded(sigCase),
      fixed(() => ({ rejected: { reason: 'no' } }), ['signature.sign']),
    );
    expect(r.message).toBe('signature.sign: refused to sign');
  });

  it('treats a rejected verify as a refusal, and a verify without a boolean as an error', async () => {
    const req = {
      ...base,
      id: 'request.t',
      kind: 'request',
      result: 'invalid',
      inputs: { appId: 'a', appSecret: 's', method: 'GET', url: 'https://x/', authorization: null, body: '' },
      expected: { problem: { kind: 'no-authorization' } },
    };
    expect(
      (
        await runCase(
          loaded(req),
          fixed(() => ({ rejected: { reason: 'unsigned' } })),
        )
      ).status,
    ).toBe('pass');
    expect(
      (
        await runCase(
          loaded({ ...req, result: 'valid' }),
          fixed(() => ({ rejected: { reason: 'unsigned' } })),
        )
      ).message,
    ).toBe('request.verify: refused, but the case is valid (rejected: unsigned)');
    expect(
      (
        await runCase(
          loaded(req),
          fixed(() => ({ result: { valid: 'no' } })),
        )
      ).status,
    ).toBe('error');
    const chose = await runCase(
      loaded({ ...req, result: 'acceptable' }),
      fixed(() => ({ result: { valid: true } })),
    );
    expect(chose).toMatchObject({ status: 'pass', choice: 'accepted' });
  });

  it('judges parse: values verbatim, refusals, and acceptable either way', async () => {
    const items = { appId: 'a', sign: 'b', timestamp: '1', nonce: 'n=' };
    const parse = {
      ...base,
      id: 'authorization.t',
      kind: 'authorization',
      op: 'authorization.parse',
      result: 'valid',
      inputs: { header: 'V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n=' },
      expected: { items },
    };
    expect((await runCase(loaded(parse), reference)).status).toBe('pass');
    expect(
      (
        await runCase(
          loaded(parse),
          fixed(() => ({ result: { ...items, nonce: 'n' } })),
        )
      ).message,
    ).toBe(
      'authorization.parse: accepted with appId="a", sign="b", timestamp="1", nonce="n", but R8 allows no such values: it must be accepted with appId="a", sign="b", timestamp="1", nonce="n="',
    );
    expect(
      (
        await runCase(
          loaded({ ...parse, result: 'acceptable' }),
          fixed(() => ({ rejected: { reason: 'strict' } })),
        )
      ).choice,
    ).toBe('refused');
    const bad = { ...parse, result: 'invalid', expected: { problem: { kind: 'missing-item', item: 'nonce' } } };
    expect(
      (
        await runCase(
          loaded(bad),
          fixed(() => ({ result: items })),
        )
      ).status,
    ).toBe('fail');
  });

  it('judges format: the expected header, another order, white space, a wrong value', async () => {
    const items = { appId: 'a', sign: 'b', timestamp: '1', nonce: 'n' };
    const format = {
      ...base,
      id: 'authorization.f',
      kind: 'authorization',
      op: 'authorization.format',
      result: 'valid',
      inputs: { items },
      expected: { header: 'V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n' },
    };
    const answering = (header: unknown): Subject => fixed(() => ({ result: { header } as never }));
    expect((await runCase(loaded(format), reference)).status).toBe('pass');
    expect((await runCase(loaded(format), answering('V2_SHA256 nonce=n,timestamp=1,sign=b,appId=a'))).status).toBe(
      'pass',
    );
    expect((await runCase(loaded(format), answering('V2_SHA256 appId=a, sign=b,timestamp=1,nonce=n'))).message).toBe(
      'authorization.format: header does not follow 5.3 strictly: strict parsing refuses whitespace (R8 leaves it open)',
    );
    expect((await runCase(loaded(format), answering('V2_SHA256 appId=a,sign=c,timestamp=1,nonce=n'))).message).toBe(
      'authorization.format: item sign is "c", not "b"',
    );
    expect((await runCase(loaded(format), answering(5))).message).toBe(
      'authorization.format: no header string in the answer',
    );
  });

  it('checks the decoded payment of an accepted redirect', async () => {
    const red = {
      ...base,
      id: 'redirect.t',
      kind: 'redirect',
      result: 'valid',
      inputs: {
        appId: 'a',
        appSecret: 's',
        returnUrl: 'https://m/r',
        redirectUrl: 'https://m/r?payment=x&authorization=y',
      },
      expected: { payment: '{"a":1}' },
    };
    expect(
      (
        await runCase(
          loaded(red),
          fixed(() => ({ result: { valid: true, payment: '{"a":1}' } })),
        )
      ).status,
    ).toBe('pass');
    expect(
      (
        await runCase(
          loaded(red),
          fixed(() => ({ result: { valid: true, payment: '%7B' } })),
        )
      ).message,
    ).toBe('redirect.verify: accepted, but payment is "%7B", not the decoded "{\\"a\\":1}" (R11)');
  });

  it('refuses a case whose result is unknown', async () => {
    await expect(runCase(loaded({ ...sigCase, result: 'maybe' }), reference)).rejects.toThrow(RangeError);
  });
});
