/**
 * The sign written in hex without zero padding (§5.2): a digest with bytes below 0x10,
 * written out by hand with its unpadded and its leading-zeros-dropped forms (never built
 * by the catalogue), named for a signer's sign and for a verifier that accepts it.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { RequestCase, SignatureCase } from '../../src/vectors/types.js';
import { ACCEPTED, BASE, failed, sha } from './_support.js';

const BODY = '{"filename":"evidence-0901.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
const INPUTS = {
  appId: 'app_7f3a9c',
  appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
  method: 'POST',
  url: 'https://pg.example.com/pg/v2/file/generateUploadUrl',
  timestamp: '1725150001102',
  nonce: 'unpadded-hex_2',
  body: BODY,
};
const CONTENT = `app_7f3a9c\nsk_test_4eC39HqLyjWDarjtT1zdp7dc\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1725150001102\nunpadded-hex_2\n${BODY}\n`;
/** Its digest: bytes 02, 03, 00 and 06 below 0x10. */
const RIGHT = '02539503f94f0098901eef6fccbe7e453f1551c979d6a148d27e068da1fbb2b9';
/** Each byte as one or two digits: 2 53 95 3 f9 4f 0 98 … 7e 6 8d …: 60 digits. */
const UNPADDED = '253953f94f098901eef6fccbe7e453f1551c979d6a148d27e68da1fbb2b9';
/** The digest as one number: its first zero dropped, 63 digits. */
const NUMBER = '2539503f94f0098901eef6fccbe7e453f1551c979d6a148d27e068da1fbb2b9';

const signatureCase: SignatureCase = {
  ...BASE,
  id: 'signature.t',
  kind: 'signature',
  result: 'valid',
  inputs: INPUTS,
  expected: { content: CONTENT, sign: RIGHT },
};

describe('hex without zero padding', () => {
  it("the digest written by hand is the content's", () => {
    expect(sha(CONTENT)).toBe(RIGHT);
    expect([UNPADDED.length, NUMBER.length]).toEqual([60, 63]);
  });

  it('a sign with each byte below 0x10 as one digit: hex-unpadded', async () => {
    expect(await diagnose(signatureCase, failed('signature.sign', { result: { sign: UNPADDED } }))).toEqual([
      {
        mistake: 'hex-unpadded',
        message:
          'your sign is the sign of the right content in which each byte of the digest below 0x10 was written as one hex digit, without its leading zero (fewer than 64 digits)',
        ref: '§5.2',
      },
    ]);
  });

  it('the digest as one hex number: hex-leading-zeros-dropped', async () => {
    expect(
      (await diagnose(signatureCase, failed('signature.sign', { result: { sign: NUMBER } }))).map((d) => d.mistake),
    ).toEqual(['hex-leading-zeros-dropped']);
  });

  it('a verifier that accepts the unpadded sign (a malformed sign, R7) compares its own unpadded hex', async () => {
    const c: RequestCase = {
      ...BASE,
      id: 'request.t',
      kind: 'request',
      result: 'invalid',
      inputs: {
        ...INPUTS,
        authorization: `V2_SHA256 appId=app_7f3a9c,sign=${UNPADDED},timestamp=1725150001102,nonce=unpadded-hex_2`,
      },
      expected: { problem: { kind: 'malformed-sign' } },
    };
    expect((await diagnose(c, failed('request.verify', ACCEPTED))).map((d) => d.message)).toEqual([
      'you accept the sign of the right content in which each byte of the digest below 0x10 was written as one hex digit, without its leading zero (fewer than 64 digits)',
    ]);
  });

  it('the digest in base64 (xxd -r -p | base64 of the digest above): sign-base64, as written only', async () => {
    const base64 = 'AlOVA/lPAJiQHu9vzL5+RT8VUcl51qFI0n4GjaH7srk=';
    expect(
      (await diagnose(signatureCase, failed('signature.sign', { result: { sign: base64 } }))).map((d) => d.message),
    ).toEqual(['your sign is the sign of the right content in which the digest was written in base64, not in hex']);
    expect(await diagnose(signatureCase, failed('signature.sign', { result: { sign: base64.toLowerCase() } }))).toEqual(
      [],
    );
  });

  it('another short sign is no such mistake', async () => {
    expect(await diagnose(signatureCase, failed('signature.sign', { result: { sign: UNPADDED.slice(1) } }))).toEqual(
      [],
    );
  });
});
