/**
 * Contents built from the wrong bytes of the text: Latin-1 in its three real-world
 * forms (text within Latin-1; beyond it, the low byte of each UTF-16 unit as Node's
 * Buffer 'latin1' writes, or "?" per character as Java's getBytes and Python's
 * errors='replace' write), and a body that is not UTF-8 re-serialized after a lossy
 * decode (U+FFFD for its bad bytes). Every expected content is written out byte by byte.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/roles/run-case.js';
import type { SignatureCase } from '../../src/vectors/types.js';
import { BASE, failed, sha } from './_support.js';

const HEAD =
  'app_e1\nsk_test_encoding_secret\nPOST\nhttps://pg.example/pg/v2/payment/create\n1718000000000\nnonce-e1\n';
const bytes = (...chunks: Array<string | number[]>): Buffer =>
  Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : Buffer.from(c))));

function signatureCase(body: Buffer): SignatureCase {
  const correct = Buffer.concat([Buffer.from(HEAD, 'utf8'), body, Buffer.from('\n')]);
  return {
    ...BASE,
    id: 'signature.t',
    kind: 'signature',
    result: 'valid',
    inputs: {
      appId: 'app_e1',
      appSecret: 'sk_test_encoding_secret',
      method: 'POST',
      url: 'https://pg.example/pg/v2/payment/create',
      timestamp: '1718000000000',
      nonce: 'nonce-e1',
      bodyB64: body.toString('base64'),
    },
    expected: { contentB64: correct.toString('base64'), sign: sha(correct) },
  };
}

/** The mistakes named for a subject whose content was `content`, and for its sign. */
async function named(c: SignatureCase, content: Buffer): Promise<{ content: string[]; sign: string[] }> {
  const fromContent = await diagnose(
    c,
    failed('signature.content', { result: { contentB64: content.toString('base64') } }),
  );
  const fromSign = await diagnose(c, failed('signature.sign', { result: { sign: sha(content) } }));
  return { content: fromContent.map((d) => d.mistake), sign: fromSign.map((d) => d.mistake) };
}

describe('Latin-1', () => {
  // "Café" is within Latin-1: é is 0xE9 in Latin-1, C3 A9 in UTF-8
  const within = signatureCase(bytes('{"name":"Caf', [0xc3, 0xa9], '"}'));
  // "€ 😀": € is U+20AC (low byte 0xAC), 😀 is U+1F600 = D83D DE00 (low bytes 0x3D 0x00)
  const beyond = signatureCase(bytes('{"note":"', [0xe2, 0x82, 0xac], ' ', [0xf0, 0x9f, 0x98, 0x80], '"}'));

  it('text within Latin-1: latin1, one byte per character', async () => {
    expect(await named(within, bytes(HEAD, '{"name":"Caf', [0xe9], '"}\n'))).toEqual({
      content: ['latin1'],
      sign: ['latin1'],
    });
  });

  it("beyond Latin-1, Node's Buffer 'latin1': the low byte of each UTF-16 unit", async () => {
    expect(await named(beyond, bytes(HEAD, '{"note":"', [0xac], ' ', [0x3d, 0x00], '"}\n'))).toEqual({
      content: ['latin1-low-byte'],
      sign: ['latin1-low-byte'],
    });
  });

  it("beyond Latin-1, Java's getBytes: one '?' per character Latin-1 lacks, the emoji included", async () => {
    expect(await named(beyond, bytes(HEAD, '{"note":"? ?"}\n'))).toEqual({
      content: ['latin1-question-mark'],
      sign: ['latin1-question-mark'],
    });
  });

  it('beyond Latin-1 the within-form does not apply, and within it the other two do not', async () => {
    expect(await named(beyond, bytes(HEAD, '{"note":"', [0xac], ' ', [0x00], '"}\n'))).toEqual({
      content: [],
      sign: [],
    });
    expect(await named(within, bytes(HEAD, '{"name":"Caf?"}\n'))).toEqual({ content: [], sign: [] });
  });

  it('the message names the encoding, not the text', async () => {
    const [d] = await diagnose(
      beyond,
      failed('signature.sign', { result: { sign: sha(bytes(HEAD, '{"note":"? ?"}\n')) } }),
    );
    expect(d).toEqual({
      mistake: 'latin1-question-mark',
      message:
        "your sign equals the sign of the content in which the content was encoded as Latin-1 with '?' for each character Latin-1 lacks (Java's getBytes, Python's errors='replace'), instead of UTF-8",
      ref: '§5.2, R3',
    });
  });
});

describe('re-serialization of a body that is not UTF-8', () => {
  // 0xE9 alone is not UTF-8 (Latin-1 é in a UTF-8 document); the spaces go when re-serialized
  const c = signatureCase(bytes('{"name": "Caf', [0xe9], '", "n": 1}'));

  it('decoded lossily (U+FFFD = EF BF BD), parsed and serialized again: body-reserialized-lossy', async () => {
    const content = bytes(HEAD, '{"name":"Caf', [0xef, 0xbf, 0xbd], '","n":1}\n');
    expect(await named(c, content)).toEqual({
      content: ['body-reserialized-lossy'],
      sign: ['body-reserialized-lossy'],
    });
    const [d] = await diagnose(c, failed('signature.content', { result: { contentB64: content.toString('base64') } }));
    expect(d?.message).toBe(
      'your content is the content in which the body, not valid UTF-8, was decoded with U+FFFD for its bad bytes, then parsed and serialized again (JSON.stringify)',
    );
  });

  it('a UTF-8 body re-serialized is body-reserialized, never the lossy form', async () => {
    const utf8Body = signatureCase(bytes('{"name": "Caf', [0xc3, 0xa9], '"}'));
    expect(await named(utf8Body, bytes(HEAD, '{"name":"Caf', [0xc3, 0xa9], '"}\n'))).toEqual({
      content: ['body-reserialized'],
      sign: ['body-reserialized'],
    });
  });

  it('a body that is not JSON has no re-serialized form: the same bytes are the text conversion alone', async () => {
    const notJson = signatureCase(bytes('name=Caf', [0xe9]));
    const conversion = { content: ['body-invalid-utf8-replaced-fffd'], sign: ['body-invalid-utf8-replaced-fffd'] };
    expect(await named(notJson, bytes(HEAD, 'name=Caf', [0xef, 0xbf, 0xbd], '\n'))).toEqual(conversion);
  });
});
