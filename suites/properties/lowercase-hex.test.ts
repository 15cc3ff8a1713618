/**
 * The form of the sign (spec §5.2, reading R7), as properties of the subject's
 * signature.sign and request.verify: a signer emits 64 lower-case hex digits for any
 * parts; a verifier may accept or refuse the right digest in upper case, must accept
 * its lower-case form, and must refuse a sign of the wrong length or with a non-hex
 * character. Signs are computed here with node:crypto, headers written here.
 *
 * Replay a failure (fast-check prints seed and path):
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties/lowercase-hex.test.ts -t '<words of the property name>'
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { itemOrderArb, partsArb, wildPartsArb, type ItemName, type Parts } from '../_support/arbitraries.js';
import { loadSubject } from '../_support/subject.js';
import { b64, describeAnswer, expectedSign, header, offers, subjectSign, verdictOf } from './_helpers.js';

const subject = await loadSubject();
const HEX = '0123456789abcdef';

/** Characters that are not hex digits, including look-alikes (full-width, other scripts' digits). */
const nonHexCharArb = fc.constantFrom('g', 'G', 'x', 'z', 'Z', '-', '_', '=', '+', '/', '.', ':', '%', 'é', 'Ａ', '０', '٣', '𝟘', '😀');
/** In place of a digit: its full-width look-alike (U+FF10–U+FF19, U+FF41–U+FF46, U+FF21–U+FF26), which NFKC maps back. */
const LOOK_ALIKE = 'its full-width look-alike';
/** An index into the sign, biased to both ends. */
const positionArb = fc.oneof(fc.constantFrom(0, 63, 64), fc.nat({ max: 64 }));

/** request.verify with the given sign in the header; timestamp and nonce are the parts'. */
function verifyWith(parts: Parts, sign: string, order: readonly ItemName[], caseId: string) {
  const authorization = header({ appId: parts.appId, sign, timestamp: parts.timestamp, nonce: parts.nonce }, order);
  return verdictOf(
    subject,
    'request.verify',
    { appId: parts.appId, appSecret: parts.appSecret, method: parts.method, url: parts.url, authorization, bodyB64: b64(parts.body) },
    caseId,
  );
}

/** One way to spoil a sign's form; always refused (R7). */
type Spoil = { readonly delete: number } | { readonly insert: number; readonly hex: string } | { readonly replace: number; readonly with: string };

/** The spoilers, each with the arbitrary of its edits (plain data, so fast-check prints the counterexample). */
const SPOILERS: ReadonlyArray<readonly [string, fc.Arbitrary<Spoil>]> = [
  ['63 characters (one deleted)', fc.record({ delete: positionArb })],
  ['65 characters (one hex digit inserted)', fc.record({ insert: positionArb, hex: fc.constantFrom(...HEX) })],
  ['a non-hex character in place of one digit', fc.record({ replace: positionArb, with: fc.oneof(nonHexCharArb, fc.constant(LOOK_ALIKE)) })],
];

/** Applies a spoiler to a 64-character sign. */
function spoilSign(sign: string, spoil: Spoil): string {
  if ('delete' in spoil) return sign.slice(0, spoil.delete % 64) + sign.slice((spoil.delete % 64) + 1);
  if ('insert' in spoil) return sign.slice(0, spoil.insert % 65) + spoil.hex + sign.slice(spoil.insert % 65);
  const at = spoil.replace % 64;
  const old = sign.codePointAt(at) ?? 0x30;
  return sign.slice(0, at) + (spoil.with === LOOK_ALIKE ? String.fromCodePoint(old + 0xfee0) : spoil.with) + sign.slice(at + 1);
}

describe('lower-case hex sign (5.2, R7)', () => {
  it.skipIf(!offers(subject, 'signature.sign'))('the sign is always 64 characters of [0-9a-f] (any parts, Unicode and binary bodies)', async () => {
    await fc.assert(
      fc.asyncProperty(wildPartsArb, async (parts) => {
        expect(await subjectSign(subject, parts, 'property.lowercase-hex.form')).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it.skipIf(!offers(subject, 'request.verify'))('an upper-case digest may be accepted or refused; its lower-case form is always valid (R7)', async () => {
    await fc.assert(
      fc.asyncProperty(partsArb(), itemOrderArb, async (parts, order) => {
        const upper = expectedSign(parts).toUpperCase();
        // Either verdict is acceptable (verdictOf fails the property on an answer that is neither).
        await verifyWith(parts, upper, order, 'property.lowercase-hex.uppercase');
        const lower = await verifyWith(parts, upper.toLowerCase(), order, 'property.lowercase-hex.lowercase');
        expect(lower.verdict, `the lower-case sign was refused: ${describeAnswer(lower.answer)}`).toBe('valid');
      }),
    );
  });

  for (const [what, spoilArb] of SPOILERS) {
    it.skipIf(!offers(subject, 'request.verify'))(`a sign of ${what} is refused`, async () => {
      await fc.assert(
        fc.asyncProperty(partsArb(), itemOrderArb, spoilArb, fc.boolean(), async (parts, order, spoil, upper) => {
          const right = expectedSign(parts);
          const sign = spoilSign(upper ? right.toUpperCase() : right, spoil);
          const got = await verifyWith(parts, sign, order, 'property.lowercase-hex.malformed');
          expect(got.verdict, `sign ${JSON.stringify(sign)} was accepted`).toBe('refused');
        }),
      );
    });
  }
});
