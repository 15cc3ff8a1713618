/**
 * The comparison of the PHP `strncasecmp($expected, $sign, strlen($sign)) === 0` family
 * (`startsWith`, a prefix regex): the computed sign and the received one compared without
 * regard to case over the length of the RECEIVED sign. A sign of one digit matches 1 time in 16;
 * an empty one always, unless the parser refuses empty values.
 */
import { createHash } from 'node:crypto';
import {
  parseAuthorization,
  signatureContent,
  type Verdict,
  type verifySignature,
} from '../../../examples/sample-merchant/merchant.mjs';

/** The sample's verifySignature input (its appId check kept, always on). */
export type PrefixInput = Omit<Parameters<typeof verifySignature>[0], 'checkAppId'>;

export function verifyByReceivedLength({
  appId,
  appSecret,
  method,
  url,
  authorization,
  body,
  parse = parseAuthorization,
}: PrefixInput): Verdict {
  const parsed = parse(authorization);
  if (!parsed.ok) return { valid: false, reason: parsed.reason };
  const { items } = parsed;
  if (items.appId !== appId) return { valid: false, reason: 'appId is not ours' };
  const expected = createHash('sha256')
    .update(signatureContent({ appId, appSecret, method, url, timestamp: items.timestamp, nonce: items.nonce, body }))
    .digest('hex');
  // strncasecmp stops at the end of the shorter string when it is within n: a longer sign differs
  const n = items.sign.length;
  return expected.slice(0, n).toLowerCase() === items.sign.toLowerCase()
    ? { valid: true, reason: 'ok' }
    : { valid: false, reason: 'signature mismatch' };
}
