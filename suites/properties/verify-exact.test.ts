/**
 * Verification accepts exactly what was signed (spec §5.1–§5.5; readings R3–R6, R9,
 * R10), as properties of the subject's request.verify, response.verify and
 * webhook.verify. The sign is computed here with node:crypto over the test's own
 * concatenation and the header written here; the subject only verifies.
 *
 * Replay a failure (fast-check prints seed and path):
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties/verify-exact.test.ts -t '<words of the property name>'
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  byteDeltaArb,
  changeByteAt,
  changeCharAt,
  itemOrderArb,
  merchantUrlArb,
  partsArb,
  replacementArb,
  type Replacement,
  type ItemName,
  type Parts,
} from '../_support/arbitraries.js';
import type { Answer } from '../../src/subjects/subject.js';
import { loadSubject } from '../_support/subject.js';
import { b64, describeAnswer, expectedSign, header, offers, verdictOf, type Verdict } from './_helpers.js';

const subject = await loadSubject();

/** What a verifier receives: its own appId and secret, the message, and the header's items. */
interface Received {
  merchantAppId: string;
  appSecret: string;
  method: string;
  url: string;
  body: Uint8Array;
  headerAppId: string;
  timestamp: string;
  nonce: string;
}

/** What the verifier receives when nothing was changed after signing. */
function asSigned(p: Parts): Received {
  return {
    merchantAppId: p.appId,
    appSecret: p.appSecret,
    method: p.method,
    url: p.url,
    body: p.body,
    headerAppId: p.appId,
    timestamp: p.timestamp,
    nonce: p.nonce,
  };
}

/** The Authorization header of a received message, signed over `signed`. */
function authorizationOf(r: Received, signed: Parts, order: readonly ItemName[]): string {
  return header({ appId: r.headerAppId, sign: expectedSign(signed), timestamp: r.timestamp, nonce: r.nonce }, order);
}

async function verifyRequest(signed: Parts, r: Received, order: readonly ItemName[], caseId: string) {
  return verdictOf(
    subject,
    'request.verify',
    { appId: r.merchantAppId, appSecret: r.appSecret, method: r.method, url: r.url, authorization: authorizationOf(r, signed, order), bodyB64: b64(r.body) },
    caseId,
  );
}

async function verifyResponse(signed: Parts, r: Received, order: readonly ItemName[], caseId: string) {
  return verdictOf(
    subject,
    'response.verify',
    {
      appId: r.merchantAppId,
      appSecret: r.appSecret,
      method: r.method,
      url: r.url,
      status: 200,
      authorization: authorizationOf(r, signed, order),
      bodyB64: b64(r.body),
    },
    caseId,
  );
}

async function verifyWebhook(signed: Parts, r: Received, order: readonly ItemName[], caseId: string) {
  return verdictOf(
    subject,
    'webhook.verify',
    { appId: r.merchantAppId, appSecret: r.appSecret, notifyUrl: r.url, method: r.method, authorization: authorizationOf(r, signed, order), bodyB64: b64(r.body) },
    caseId,
  );
}

/** A one-character (string parts) or one-byte (body) change made after signing. */
type Tamper = (r: Received, at: number, c: Replacement, delta: number) => Received;

const TAMPERS: ReadonlyArray<readonly [string, Tamper]> = [
  ['body (one byte)', (r, at, _c, delta) => ({ ...r, body: changeByteAt(r.body, at, delta) })],
  ['full URL', (r, at, c) => ({ ...r, url: changeCharAt(r.url, at, c) })],
  ['HTTP method', (r, at, c) => ({ ...r, method: changeCharAt(r.method, at, c) })],
  ['timestamp (in the header)', (r, at, c) => ({ ...r, timestamp: changeCharAt(r.timestamp, at, c) })],
  ['nonce (in the header)', (r, at, c) => ({ ...r, nonce: changeCharAt(r.nonce, at, c) })],
  ["appId in the header (the merchant's stays)", (r, at, c) => ({ ...r, headerAppId: changeCharAt(r.headerAppId, at, c) })],
  ["merchant's appId (the header's stays)", (r, at, c) => ({ ...r, merchantAppId: changeCharAt(r.merchantAppId, at, c) })],
  ['appId in both the header and the merchant (signed over the old one)', (r, at, c) => {
    const appId = changeCharAt(r.headerAppId, at, c);
    return { ...r, headerAppId: appId, merchantAppId: appId };
  }],
];

function expectVerdict(got: { verdict: Verdict; answer: Answer }, want: Verdict, what: string): void {
  expect(got.verdict, `${what}: ${describeAnswer(got.answer)}`).toBe(want);
}

describe('request.verify accepts exactly what was signed (5.1–5.3)', () => {
  const skip = !offers(subject, 'request.verify');

  it.skipIf(skip)('a request signed over its parts verifies (any item order)', async () => {
    await fc.assert(
      fc.asyncProperty(partsArb(), itemOrderArb, async (parts, order) => {
        expectVerdict(await verifyRequest(parts, asSigned(parts), order, 'property.verify-exact.request-valid'), 'valid', 'a genuine request was refused');
      }),
    );
  });

  for (const [what, tamper] of TAMPERS) {
    it.skipIf(skip)(`a change to the ${what} is refused`, async () => {
      await fc.assert(
        fc.asyncProperty(partsArb({ minBodyLength: 1 }), itemOrderArb, fc.nat(), replacementArb, byteDeltaArb, async (parts, order, at, c, delta) => {
          const received = tamper(asSigned(parts), at, c, delta);
          expectVerdict(await verifyRequest(parts, received, order, 'property.verify-exact.request-tampered'), 'refused', `a changed ${what} was accepted`);
        }),
      );
    });
  }
});

describe('response.verify with status 200 (5.4, R9)', () => {
  const skip = !offers(subject, 'response.verify');

  it.skipIf(skip)('a response signed over its parts verifies', async () => {
    await fc.assert(
      fc.asyncProperty(partsArb(), itemOrderArb, async (parts, order) => {
        expectVerdict(await verifyResponse(parts, asSigned(parts), order, 'property.verify-exact.response-valid'), 'valid', 'a genuine response was refused');
      }),
    );
  });

  it.skipIf(skip)('a one-byte change to the response body is refused', async () => {
    await fc.assert(
      fc.asyncProperty(partsArb({ minBodyLength: 1 }), itemOrderArb, fc.nat(), byteDeltaArb, async (parts, order, at, delta) => {
        const received = { ...asSigned(parts), body: changeByteAt(parts.body, at, delta) };
        expectVerdict(await verifyResponse(parts, received, order, 'property.verify-exact.response-tampered'), 'refused', 'a changed response body was accepted');
      }),
    );
  });
});

describe('webhook.verify, notifyUrl in part 4 (5.5, R10)', () => {
  const skip = !offers(subject, 'webhook.verify');
  const webhookArb = (minBodyLength: number) => partsArb({ minBodyLength, url: merchantUrlArb }).map((p) => ({ ...p, method: 'POST' }));

  it.skipIf(skip)('a webhook signed over its parts verifies', async () => {
    await fc.assert(
      fc.asyncProperty(webhookArb(0), itemOrderArb, async (parts, order) => {
        expectVerdict(await verifyWebhook(parts, asSigned(parts), order, 'property.verify-exact.webhook-valid'), 'valid', 'a genuine webhook was refused');
      }),
    );
  });

  it.skipIf(skip)('a one-byte change to the webhook body is refused', async () => {
    await fc.assert(
      fc.asyncProperty(webhookArb(1), itemOrderArb, fc.nat(), byteDeltaArb, async (parts, order, at, delta) => {
        const received = { ...asSigned(parts), body: changeByteAt(parts.body, at, delta) };
        expectVerdict(await verifyWebhook(parts, received, order, 'property.verify-exact.webhook-tampered'), 'refused', 'a changed webhook body was accepted');
      }),
    );
  });
});
