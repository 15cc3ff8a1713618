/**
 * The client check with a gateway given beside the SDK (`run --testee X --gateway URL`): what the SDK is handed for a
 * plain case, and how its answer is judged when the kit sees nothing of the exchange. A stub SDK answers as told; no
 * network.
 */
import { describe, expect, it } from 'vitest';
import { clientCheck, runsAgainstGivenGateway } from '../../src/roles/client/check.js';
import type { Answer, OperationInput, Subject } from '../../src/subjects/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { ClientCase } from '../../src/vectors/types.js';
import type { Operation } from '../../src/protocol/operations.js';

const cases = liveCases(loadVectorSet())
  .map((l) => l.case)
  .filter((c): c is ClientCase => c.kind === 'client');
const byId = (id: string): ClientCase => cases.find((c) => c.id === id)!;
const GIVEN = { baseUrl: 'https://sandbox.pg.example', appId: 'app_sb', appSecret: 'sk_sb_secret' };

/** A stub SDK: answers every call with `answer`, and keeps what it was handed. */
function stub(answer: Answer): Subject & { inputs: OperationInput[] } {
  const inputs: OperationInput[] = [];
  return {
    implementation: { name: 'stub', version: '1', language: 'ts' },
    operations: ['client.upload', 'client.createPayment'],
    inputs,
    call: (_op: Operation, input: OperationInput) => {
      inputs.push(input);
      return Promise.resolve(answer);
    },
  };
}

describe('client cases against a given gateway', () => {
  it('the rule: valid cases with nothing staged go there, the rest stay with the kit', () => {
    // written out from the vectors' scenarios, not from the rule
    expect(runsAgainstGivenGateway(byId('client.upload-pdf'))).toBe(true);
    expect(runsAgainstGivenGateway(byId('client.create-payment'))).toBe(true);
    expect(runsAgainstGivenGateway(byId('client.response-pretty'))).toBe(false);
    expect(runsAgainstGivenGateway(byId('client.formfields-other-vendor'))).toBe(false);
    expect(runsAgainstGivenGateway(byId('client.upload-url-expired'))).toBe(false);
    expect(runsAgainstGivenGateway(byId('client.upload-over-size-limit'))).toBe(false);
    expect(runsAgainstGivenGateway(byId('client.upload-2mib'))).toBe(false);
    expect(runsAgainstGivenGateway(byId('client.create-payment-response-tampered'))).toBe(false);
  });

  it("the SDK is handed the given base URL and credentials, not the case's", async () => {
    const sdk = stub({ result: { storageUri: 's3://b/dispute/1/abc.pdf', uploadNo: '1-a' } });
    const c = byId('client.upload-pdf');
    const outcome = await clientCheck.run(c, 'client.upload', sdk, { givenGateway: GIVEN });
    expect(outcome.status).toBe('pass');
    expect(outcome.message).toMatch(/^against https:\/\/sandbox\.pg\.example: uploaded/);
    expect(sdk.inputs[0]).toMatchObject({ baseUrl: GIVEN.baseUrl, appId: 'app_sb', appSecret: 'sk_sb_secret' });
    expect(sdk.inputs[0]?.['filename']).toBe('evidence-0412.pdf');
  });

  it.each([
    [{ rejected: { reason: 'credentials: HTTP 401 sign does not match' } }, 'refused: credentials: HTTP 401'],
    [{ result: { storageUri: 'abc.pdf', uploadNo: '1-a' } }, 'storageUri "abc.pdf" is not <scheme>://'],
    [
      { result: { storageUri: 's3://b/k/no-extension', uploadNo: '1-a' } },
      'storageUri "s3://b/k/no-extension" is not <scheme>://',
    ],
    [{ result: { storageUri: 's3://b/k/a.pdf' } }, 'the result needs string storageUri and uploadNo'],
  ] as Array<[Answer, string]>)('an upload answered %j fails', async (answer, message) => {
    const outcome = await clientCheck.run(byId('client.upload-pdf'), 'client.upload', stub(answer), {
      givenGateway: GIVEN,
    });
    expect(outcome.status).toBe('fail');
    expect(outcome.message).toContain(`against ${GIVEN.baseUrl}: ${message}`);
  });

  it('a payment passes with code OK and a paymentNo, fails on another code', async () => {
    const c = byId('client.create-payment');
    const ok = await clientCheck.run(c, 'client.createPayment', stub({ result: { code: 'OK', paymentNo: 'P1' } }), {
      givenGateway: GIVEN,
    });
    expect(ok.status).toBe('pass');
    const other = await clientCheck.run(c, 'client.createPayment', stub({ result: { code: 'E42', paymentNo: null } }), {
      givenGateway: GIVEN,
    });
    expect(other.status).toBe('fail');
    expect(other.message).toContain('code "E42"');
  });

  it('an operation the SDK does not offer is skipped, never passed', async () => {
    const outcome = await clientCheck.run(
      byId('client.upload-pdf'),
      'client.upload',
      stub({ unsupported: { reason: 'no HTTP client' } }),
      { givenGateway: GIVEN },
    );
    expect(outcome.status).toBe('skip');
  });
});
