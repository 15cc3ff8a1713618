import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bytesEqual, concatBytes, fromBase64, toBase64, utf8 } from '../../src/scheme/bytes.js';
import { signatureContent } from '../../src/scheme/content.js';
import { sign, signContent } from '../../src/scheme/sign.js';

const parts = {
  appId: 'app_1',
  appSecret: 'sk_1',
  method: 'POST',
  url: 'https://pg.example.com/pg/v2/payment/create?x=1',
  timestamp: '1717171717000',
  nonce: 'a=b',
  body: '{"k":"é"}',
};
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

describe('signatureContent (5.1)', () => {
  it('joins the seven parts, each followed by LF, including the last', () => {
    expect(Buffer.from(signatureContent(parts)).toString('utf8')).toBe(
      'app_1\nsk_1\nPOST\nhttps://pg.example.com/pg/v2/payment/create?x=1\n1717171717000\na=b\n{"k":"é"}\n',
    );
  });
  it('R1: a body ending in LF gives two final LFs, never three', () => {
    expect(text(signatureContent({ ...parts, body: 'x\n' })).endsWith('a=b\nx\n\n')).toBe(true);
  });
  it('R2: an empty body is an empty part still followed by LF', () => {
    expect(text(signatureContent({ ...parts, body: '' })).endsWith('a=b\n\n')).toBe(true);
  });
  it('R3: body bytes are kept as they are (BOM, CRLF, invalid UTF-8)', () => {
    const body = Uint8Array.of(0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0xff);
    const c = signatureContent({ ...parts, body });
    expect([...c.slice(c.length - 7)]).toEqual([0xef, 0xbb, 0xbf, 0x0d, 0x0a, 0xff, 0x0a]);
  });
});

describe('sign (5.2)', () => {
  it('is SHA-256 hex of the content: the FIPS 180-2 "abc" example', () => {
    expect(signContent(utf8('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
  it('signs the content of the parts', () => {
    const expected = createHash('sha256').update('app_1\nsk_1\nGET\nhttps://x/\n1\nn\n\n').digest('hex');
    expect(
      sign({
        appId: 'app_1',
        appSecret: 'sk_1',
        method: 'GET',
        url: 'https://x/',
        timestamp: '1',
        nonce: 'n',
        body: '',
      }),
    ).toBe(expected);
  });
});

describe('bytes helpers', () => {
  it('round-trips base64 and refuses non-canonical text', () => {
    expect(toBase64(fromBase64('aGk='))).toBe('aGk=');
    expect(() => fromBase64('aGk')).toThrow(TypeError);
    expect(() => fromBase64('a b=')).toThrow(/not canonical base64/);
  });
  it('concatenates and compares', () => {
    expect(bytesEqual(concatBytes([utf8('a'), utf8('bc')]), utf8('abc'))).toBe(true);
    expect(bytesEqual(utf8('ab'), utf8('ac'))).toBe(false);
    expect(bytesEqual(utf8('ab'), utf8('abc'))).toBe(false);
  });
});
