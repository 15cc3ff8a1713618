/**
 * issuedUpload and rewriteUploadUrl (src/live/issued.ts) with answers that issue nothing usable: not JSON, not
 * UTF-8, formFields that are not all strings, an uploadUrl member written with escapes or not there at all. Each
 * says "nothing issued" (undefined) instead of guessing; what is issued keeps the answer's order and bytes.
 */
import { describe, expect, it } from 'vitest';
import { issuedUpload, rewriteUploadUrl } from '../../src/live/issued.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));
const ASKED = bytes('{"filename":"a.pdf","contentType":"application/pdf"}');
const answer = (data: string) => bytes(`{"code":"OK","errorMessage":null,"data":${data}}`);

describe('issuedUpload: an answer that issues nothing usable', () => {
  it('a request or answer that is not JSON, or not UTF-8: nothing issued', () => {
    const good = answer('{"uploadUrl":"http://s/b","formFields":{}}');
    expect(issuedUpload(bytes('filename=a.pdf'), good)).toBeUndefined();
    expect(issuedUpload(ASKED, bytes('<Error/>'))).toBeUndefined();
    expect(issuedUpload(ASKED, new Uint8Array([0x7b, 0xff, 0x7d]))).toBeUndefined();
    expect(issuedUpload(ASKED, good)).toEqual({
      uploadUrl: 'http://s/b',
      formFields: [],
      filename: 'a.pdf',
      contentType: 'application/pdf',
    });
  });

  it('formFields with a value not a string, or no string uploadUrl: nothing issued', () => {
    expect(issuedUpload(ASKED, answer('{"uploadUrl":"http://s/b","formFields":{"key":"k","size":5}}'))).toBe(undefined);
    expect(issuedUpload(ASKED, answer('{"uploadUrl":null,"formFields":{}}'))).toBeUndefined();
    expect(issuedUpload(ASKED, answer('{"uploadUrl":"http://s/b","formFields":[["key","k"]]}'))).toBeUndefined();
    expect(issuedUpload(ASKED, answer('null'))).toBeUndefined();
  });
});

describe('rewriteUploadUrl: only the member as issued is rewritten', () => {
  it('a string literal JSON refuses is passed over; the next member with the URL issued is rewritten', () => {
    const said = bytes('{"x":{"uploadUrl":"\\q"},"data":{"uploadUrl" : "http://s/b"}}');
    expect(text(rewriteUploadUrl(said, 'http://s/b', 'http://p/1'))).toBe(
      '{"x":{"uploadUrl":"\\q"},"data":{"uploadUrl" : "http://p/1"}}',
    );
  });

  it('a member of another URL only, or none: undefined, not a guess', () => {
    expect(rewriteUploadUrl(bytes('{"data":{"uploadUrl":"http://s/other"}}'), 'http://s/b', 'http://p/1')).toBe(
      undefined,
    );
    expect(rewriteUploadUrl(bytes('{"data":{"upload\\u0055rl":"http://s/b"}}'), 'http://s/b', 'http://p/1')).toBe(
      undefined,
    );
  });
});
