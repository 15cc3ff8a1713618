/**
 * Every verify vector's result against readings R7–R9 (src/scheme/verify-answers.ts): a case
 * is valid only when every allowed parse of its header verifies, invalid only when none
 * does, acceptable otherwise. Two flags widen a result on purpose, each by a reading of its
 * own: Replay (R12: an old timestamp may be refused) and UrlEquivalent (the candidate's URL
 * names the same request). A case whose result conflicts was superseded, never edited.
 */
import { describe, expect, it } from 'vitest';
import { formatAuthorization } from '../../src/scheme/authorization.js';
import { redirectValues } from '../../src/scheme/redirect.js';
import { verifyAnswers, verifyResult, type VerifyResult } from '../../src/scheme/verify-answers.js';
import { bodyBytes } from '../../src/vectors/fields.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { VectorCase } from '../../src/vectors/types.js';

const WIDENING = ['Replay', 'UrlEquivalent'];

function engineResult(c: VectorCase): VerifyResult | undefined {
  switch (c.kind) {
    case 'signature': {
      const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
      const header = formatAuthorization({ appId, sign: c.candidate?.sign ?? c.expected.sign, timestamp, nonce });
      return verifyResult(verifyAnswers({ appId, appSecret, method, url, body: bodyBytes(c.inputs) }, header));
    }
    case 'request':
      return verifyResult(verifyAnswers({ ...c.inputs, body: bodyBytes(c.inputs) }, c.inputs.authorization));
    case 'response':
      if (c.inputs.status !== 200) return 'invalid';
      return verifyResult(verifyAnswers({ ...c.inputs, body: bodyBytes(c.inputs) }, c.inputs.authorization));
    case 'webhook':
      return verifyResult(
        verifyAnswers({ ...c.inputs, url: c.inputs.notifyUrl, body: bodyBytes(c.inputs) }, c.inputs.authorization),
      );
    case 'redirect': {
      const values = redirectValues(c.inputs.redirectUrl);
      if ('problem' in values) return 'invalid';
      const { appId, appSecret, returnUrl } = c.inputs;
      return verifyResult(
        verifyAnswers(
          { appId, appSecret, method: 'GET', url: returnUrl, body: `payment=${values.payment}` },
          values.authorization,
        ),
      );
    }
    default:
      return undefined;
  }
}

describe('verify vectors agree with R7–R9 over every allowed parse of their header', () => {
  const cases = liveCases(loadVectorSet())
    .map((l) => l.case)
    .filter((c) => engineResult(c) !== undefined);

  it('has verify cases of every kind', () => {
    expect(new Set(cases.map((c) => c.kind))).toEqual(
      new Set(['signature', 'request', 'response', 'webhook', 'redirect']),
    );
  });

  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => {
    const engine = engineResult(c);
    const widened = c.flags.some((f) => WIDENING.includes(f));
    if (widened && c.result === 'acceptable') return;
    expect(c.result).toBe(engine);
  });

  it('widens exactly these cases from a strict result to acceptable', () => {
    const widened = cases
      .filter((c) => c.result !== engineResult(c))
      .map((c) => `${c.id}: ${engineResult(c)} -> ${c.result}`);
    expect(widened.sort()).toEqual([
      'redirect.old-timestamp: valid -> acceptable',
      'request.old-timestamp: valid -> acceptable',
      'signature.url-normalized.default-port-verifier-either: invalid -> acceptable',
      'signature.url-normalized.percent-case-verifier-either: invalid -> acceptable',
      'webhook.replayed-old-timestamp: valid -> acceptable',
    ]);
  });
});
