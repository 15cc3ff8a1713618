/**
 * Bodies that are not UTF-8, put through a text conversion before signing or verifying:
 * every ill-formed part replaced by U+FFFD (EF BF BD) or by "?" (3F). Each expected body
 * below is written out by hand from the Unicode rule (Unicode §3.9, "U+FFFD Substitution
 * of Maximal Subparts", which the WHATWG UTF-8 decoder makes normative): at a position
 * where no well-formed sequence starts, the longest prefix of one (Unicode table 3-7) is
 * replaced once, at least one byte. Where converters cut otherwise (Java: an encoded
 * surrogate as one; Go: one per byte of a truncated sequence), that form is written out
 * too. Node's TextDecoder is checked against the hand-written bytes, not used for them.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import { MISTAKES, mistakenContents } from '../../src/diagnosis/mistakes.js';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { authenticateRequest } from '../../src/gateway/request-auth.js';
import type { Operation } from '../../src/protocol/operations.js';
import type { RequestCase, ResponseCase, SignatureCase, WebhookCase } from '../../src/vectors/types.js';
import { ACCEPTED, BASE, REFUSED, failed, sha } from './_support.js';

const FFFD_ID = 'body-invalid-utf8-replaced-fffd';
const QM_ID = 'body-invalid-utf8-replaced-question-mark';

const APP = 'app_u8';
const SECRET = 'sk_test_utf8_replacement';
const URL_ = 'https://pg.example/pg/v2/payment/create';
const TS = '1718000000001';
const NONCE = 'nonce-u8';
const HEAD = `${APP}\n${SECRET}\nPOST\n${URL_}\n${TS}\n${NONCE}\n`;

/** Bytes from ASCII text and byte lists. */
const b = (...chunks: Array<string | number[]>): Buffer =>
  Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'ascii') : Buffer.from(c))));
const R = [0xef, 0xbf, 0xbd]; // U+FFFD in UTF-8
const content = (body: Buffer): Buffer => Buffer.concat([Buffer.from(HEAD, 'ascii'), body, Buffer.from('\n')]);

/**
 * [what, body, body with U+FFFD (maximal subparts), body with "?" (maximal subparts),
 *  other forms: [converter, body with U+FFFD, body with "?"]]
 */
type Row = [string, Buffer, Buffer, Buffer, Array<[string, Buffer, Buffer]>];
const ROWS: Row[] = [
  ['a lone 0xFF between ASCII', b('note=x', [0xff], 'y'), b('note=x', R, 'y'), b('note=x?y'), []],
  // E9 leads a 3-byte sequence; "&" is no continuation byte: E9 alone is the subpart
  ['Latin-1 é (0xE9) before ASCII', b('name=caf', [0xe9], '&n=1'), b('name=caf', R, '&n=1'), b('name=caf?&n=1'), []],
  // € is E2 82 AC: E2 82 is the maximal subpart (one), Go reads two bytes that fit nothing
  [
    'a truncated 3-byte sequence (€ without its last byte)',
    b('price=', [0xe2, 0x82], ' EUR'),
    b('price=', R, ' EUR'),
    b('price=? EUR'),
    [['per byte', b('price=', R, R, ' EUR'), b('price=?? EUR')]],
  ],
  [
    'a truncated 3-byte sequence at the very end, after a valid é',
    b('x=', [0xc3, 0xa9, 0xe2, 0x82]),
    b('x=', [0xc3, 0xa9], R),
    b('x=', [0xc3, 0xa9], '?'),
    [['per byte', b('x=', [0xc3, 0xa9], R, R), b('x=', [0xc3, 0xa9], '??')]],
  ],
  // C0 never starts a sequence, AF is a continuation byte without a lead: two
  ['an overlong "/" (C0 AF)', b('path=a', [0xc0, 0xaf], 'b'), b('path=a', R, R, 'b'), b('path=a??b'), []],
  // after E0 the next byte must be A0..BF: E0, 80, 80 are three subparts
  ['an overlong 3-byte NUL (E0 80 80)', b('z=', [0xe0, 0x80, 0x80], '.'), b('z=', R, R, R, '.'), b('z=???.'), []],
  // after ED the next byte must be 80..9F (no surrogates): ED, A0, 80 are three subparts; Java replaces the three as one
  [
    'a surrogate encoded in UTF-8 (ED A0 80, U+D800)',
    b('s=', [0xed, 0xa0, 0x80], '!'),
    b('s=', R, R, R, '!'),
    b('s=???!'),
    [['Java', b('s=', R, '!'), b('s=?!')]],
  ],
  // 😀 as CESU-8 (Java's modified UTF-8, MySQL's utf8): D83D DE00 as ED A0 BD ED B8 80
  [
    'an emoji as two encoded surrogates (CESU-8)',
    b('e=', [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80]),
    b('e=', R, R, R, R, R, R),
    b('e=??????'),
    [['Java', b('e=', R, R), b('e=??')]],
  ],
  // 😀 is F0 9F 98 80: F0 9F 98 is one subpart
  [
    'a truncated 4-byte emoji',
    b('hi ', [0xf0, 0x9f, 0x98], ' there'),
    b('hi ', R, ' there'),
    b('hi ? there'),
    [['per byte', b('hi ', R, R, R, ' there'), b('hi ??? there')]],
  ],
  // after F4 the next byte must be 80..8F: F4, 90, 80, 80 are four subparts
  [
    'a code point above U+10FFFF (F4 90 80 80)',
    b('cp=', [0xf4, 0x90, 0x80, 0x80]),
    b('cp=', R, R, R, R),
    b('cp=????'),
    [],
  ],
  // a BOM, é, € and a stray continuation byte: only the last is replaced, the BOM is kept
  [
    'valid text around (a BOM, é, €) and one stray continuation byte',
    b([0xef, 0xbb, 0xbf], 'name=Caf', [0xc3, 0xa9], ' ', [0xe2, 0x82, 0xac, 0xa9]),
    b([0xef, 0xbb, 0xbf], 'name=Caf', [0xc3, 0xa9], ' ', [0xe2, 0x82, 0xac], R),
    b([0xef, 0xbb, 0xbf], 'name=Caf', [0xc3, 0xa9], ' ', [0xe2, 0x82, 0xac], '?'),
    [],
  ],
];

function signatureCase(body: Buffer, candidate?: Buffer): SignatureCase {
  const correct = content(body);
  return {
    ...BASE,
    id: 'signature.t',
    kind: 'signature',
    result: candidate ? 'invalid' : 'valid',
    inputs: {
      appId: APP,
      appSecret: SECRET,
      method: 'POST',
      url: URL_,
      timestamp: TS,
      nonce: NONCE,
      bodyB64: body.toString('base64'),
    },
    expected: { contentB64: correct.toString('base64'), sign: sha(correct) },
    ...(candidate
      ? { candidate: { contentB64: content(candidate).toString('base64'), sign: sha(content(candidate)) } }
      : {}),
  };
}

/** The mistakes named for a signer whose content was HEAD + `signedBody` + LF, from its content and from its sign. */
async function named(body: Buffer, signedBody: Buffer): Promise<{ content: string[]; sign: string[] }> {
  const c = signatureCase(body);
  const mine = content(signedBody);
  const fromContent = await diagnose(
    c,
    failed('signature.content', { result: { contentB64: mine.toString('base64') } }),
  );
  const fromSign = await diagnose(c, failed('signature.sign', { result: { sign: sha(mine) } }));
  return { content: fromContent.map((d) => d.mistake), sign: fromSign.map((d) => d.mistake) };
}

const only = (id: string): { content: string[]; sign: string[] } => ({ content: [id], sign: [id] });

describe('the expected bytes, checked against real decoders', () => {
  it.each(ROWS)("%s: Node's TextDecoder writes the U+FFFD body as written by hand", (_, body, fffd) => {
    expect(Buffer.from(new TextDecoder('utf-8', { ignoreBOM: true }).decode(body), 'utf8').toString('hex')).toBe(
      fffd.toString('hex'),
    );
  });

  it.each(ROWS)("%s: the '?' body is the U+FFFD body with each U+FFFD as '?'", (_, body, fffd, question) => {
    expect(body.includes(Buffer.from(R))).toBe(false); // so every EF BF BD of the U+FFFD body is a replacement
    expect(Buffer.from(fffd.toString('utf8').replaceAll('\ufffd', '?'), 'utf8').toString('hex')).toBe(
      question.toString('hex'),
    );
  });
});

describe('a signer that converted a body that is not UTF-8', () => {
  it.each(ROWS)('%s: U+FFFD for each maximal subpart, body-invalid-utf8-replaced-fffd', async (_, body, fffd) => {
    expect(await named(body, fffd)).toEqual(only(FFFD_ID));
  });

  it.each(ROWS)(
    "%s: '?' for each maximal subpart, body-invalid-utf8-replaced-question-mark",
    async (_, body, _fffd, question) => {
      expect(await named(body, question)).toEqual(only(QM_ID));
    },
  );

  const otherForms = ROWS.flatMap(([what, body, , , forms]) =>
    forms.map(([converter, fffd, question]) => [`${what}, ${converter}`, body, fffd, question] as const),
  );
  it.each(otherForms)('%s: the same two mistakes', async (_, body, fffd, question) => {
    expect(await named(body, fffd)).toEqual(only(FFFD_ID));
    expect(await named(body, question)).toEqual(only(QM_ID));
  });

  it("a form no covered converter writes (one U+FFFD for a run of bad bytes, as Go's strings.ToValidUTF8): not named", async () => {
    expect(await named(b('z=', [0xe0, 0x80, 0x80], '.'), b('z=', R, '.'))).toEqual({ content: [], sign: [] });
    expect(await named(b('z=', [0xe0, 0x80, 0x80], '.'), b('z=?.'))).toEqual({ content: [], sign: [] });
  });

  it('bad bytes dropped, or replaced by the other character than the one counted: not these mistakes', async () => {
    expect(await named(b('note=x', [0xff], 'y'), b('note=xy'))).toEqual({ content: [], sign: [] });
    expect(await named(b('s=', [0xed, 0xa0, 0x80], '!'), b('s=', R, '??!'))).toEqual({ content: [], sign: [] });
  });

  it('the body as sent is never a mistake, and a body that is UTF-8 has no replaced form', () => {
    // a valid body holding U+FFFD and "?" of its own: nothing to replace
    const valid = b('a', R, 'b?', [0xc3, 0xa9]);
    const ids = (body: Buffer): string[] =>
      mistakenContents({
        appId: APP,
        appSecret: SECRET,
        method: 'POST',
        url: URL_,
        timestamp: TS,
        nonce: NONCE,
        body,
      }).map((m) => m.mistake.id);
    expect(ids(valid)).not.toContain(FFFD_ID);
    expect(ids(valid)).not.toContain(QM_ID);
    expect(ids(b('note=x', [0xff], 'y'))).toEqual(expect.arrayContaining([FFFD_ID, QM_ID]));
  });

  it('the message names the conversion, never the body', async () => {
    const [d] = await diagnose(
      signatureCase(b('name=caf', [0xe9], '&n=1')),
      failed('signature.sign', { result: { sign: sha(content(b('name=caf?&n=1'))) } }),
    );
    expect(d).toEqual({
      mistake: QM_ID,
      message:
        "your sign equals the sign of the content in which the body went through a text conversion before signing (bytes that are not UTF-8 were replaced by '?', as PHP's mb_convert_encoding and mb_scrub do by default, or a decoder set to replace with '?')",
      ref: '§5.1, R3',
    });
    const fffd = MISTAKES.find((m) => m.id === FFFD_ID);
    expect(fffd?.description).toMatch(
      /^the body went through a text conversion before signing \(bytes that are not UTF-8 were replaced by U\+FFFD, EF BF BD, /,
    );
    expect(fffd?.ref).toBe('§5.1, R3');
  });
});

describe('a verifier that converted the body it received', () => {
  const body = b('name=caf', [0xe9], ' ', [0xe2, 0x82], '!');
  const overFffd = content(b('name=caf', R, ' ', R, '!'));
  const overQuestion = content(b('name=caf? ?!'));

  it("accepts a signature case's candidate signed over the converted body: that mistake", async () => {
    const c = signatureCase(body, b('name=caf? ?!'));
    expect((await diagnose(c, failed('request.verify', ACCEPTED))).map((d) => d.message)).toEqual([
      "you accept the sign of the content in which the body went through a text conversion before signing (bytes that are not UTF-8 were replaced by '?', as PHP's mb_convert_encoding and mb_scrub do by default, or a decoder set to replace with '?')",
    ]);
    expect(await diagnose(c, failed('request.verify', REFUSED))).toEqual([]);
  });

  const header = (signed: Buffer): string =>
    `V2_SHA256 appId=${APP},sign=${sha(signed)},timestamp=${TS},nonce=${NONCE}`;
  const message = (
    kind: 'request' | 'response' | 'webhook',
    signed: Buffer,
  ): RequestCase | ResponseCase | WebhookCase => {
    const common = {
      appId: APP,
      appSecret: SECRET,
      method: 'POST',
      authorization: header(signed),
      bodyB64: body.toString('base64'),
    };
    const base = {
      ...BASE,
      id: `${kind}.t`,
      result: 'invalid' as const,
      expected: { problem: { kind: 'sign-mismatch' as const } },
    };
    if (kind === 'webhook') return { ...base, kind, inputs: { ...common, notifyUrl: URL_ } };
    if (kind === 'response') return { ...base, kind, inputs: { ...common, url: URL_, status: 200 } };
    return { ...base, kind, inputs: { ...common, url: URL_ } };
  };
  const table: Array<['request' | 'response' | 'webhook', Operation, Buffer, string]> = [
    ['request', 'request.verify', overQuestion, QM_ID],
    ['response', 'response.verify', overQuestion, QM_ID],
    ['webhook', 'webhook.verify', overQuestion, QM_ID],
    ['request', 'request.verify', overFffd, FFFD_ID],
    ['response', 'response.verify', overFffd, FFFD_ID],
    ['webhook', 'webhook.verify', overFffd, FFFD_ID],
  ];

  it.each(table)('%s verifier accepts a sign over the converted body: %s names it', async (kind, op, signed, id) => {
    const c = message(kind, signed);
    const got = await diagnose(c, failed(op, ACCEPTED));
    expect(got.map((d) => d.mistake)).toEqual([id]);
    expect(got[0]?.message).toMatch(
      /^you accept the sign of the content in which the body went through a text conversion before signing /,
    );
    expect(await diagnose(c, failed(op, REFUSED))).toEqual([]);
  });
});

describe("the gateway's refusal of a client that signed the converted body", () => {
  it('names the mistake in its message (sign does not match: …)', () => {
    const body = b('{"merchantAttach":"caf', [0xe9], '"}');
    const signed = content(b('{"merchantAttach":"caf?"}'));
    const outcome = authenticateRequest(new MerchantBook([{ appId: APP, appSecret: SECRET }]), {
      method: 'POST',
      url: URL_,
      authorization: `V2_SHA256 appId=${APP},sign=${sha(signed)},timestamp=${TS},nonce=${NONCE}`,
      body,
    });
    expect(outcome.valid).toBe(false);
    if (outcome.valid) return;
    expect(outcome.mistakes.map((m) => m.id)).toEqual([QM_ID]);
    expect(outcome.message).toBe(
      "sign does not match: body signed differs from body sent — the body went through a text conversion before signing (bytes that are not UTF-8 were replaced by '?', as PHP's mb_convert_encoding and mb_scrub do by default, or a decoder set to replace with '?') (§5.1, R3)",
    );
    expect(outcome.message).not.toContain(SECRET);
  });
});
