/**
 * The upload credentials a credentials exchange issued (4.1, 2.4), read for the live judge: the answer's uploadUrl,
 * formFields in the order of the answer's text (R14: read in source order, so integer-like names keep their place),
 * httpMethod, with the filename and contentType the request asked for — and, for `pgv2kit proxy --upload`, the
 * answer's bytes with only the uploadUrl's value replaced, every other byte as the gateway wrote it.
 * @module
 */
import { isOrderedObject, parseOrderedJson } from '../client/ordered-json.js';
import type { IssuedUpload } from './exchange.js';

/**
 * The upload a credentials request and its answer issued, or undefined when the answer issued none (not JSON, no
 * data object, no string uploadUrl, formFields not an object of strings, or a request without a filename).
 * @param request - the credentials request's body bytes (2.1: filename, contentType)
 * @param answer - the answer's body bytes (2.3, 2.4)
 * @returns the issued upload, formFields in the order of the answer's text
 * @example
 * const asked = new TextEncoder().encode('{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}');
 * const data = '{"uploadUrl":"http://u/b","formFields":{"b":"1","0":"2"}}';
 * const said = new TextEncoder().encode(`{"code":"OK","data":${data}}`);
 * issuedUpload(asked, said)?.formFields // [['b', '1'], ['0', '2']]
 */
export function issuedUpload(request: Uint8Array, answer: Uint8Array): IssuedUpload | undefined {
  const asked = parse(request);
  const said = parse(answer);
  if (!isOrderedObject(asked) || !isOrderedObject(said)) return undefined;
  const data = said.get('data');
  const filename = asked.get('filename');
  if (!isOrderedObject(data) || typeof filename !== 'string') return undefined;
  const uploadUrl = data.get('uploadUrl');
  const fields = data.get('formFields');
  if (typeof uploadUrl !== 'string' || !isOrderedObject(fields)) return undefined;
  const formFields: Array<readonly [string, string]> = [];
  for (const [name, value] of fields) {
    if (typeof value !== 'string') return undefined;
    formFields.push([name, value]);
  }
  const contentType = asked.get('contentType');
  const httpMethod = data.get('httpMethod');
  return {
    uploadUrl,
    formFields,
    filename,
    ...(typeof contentType === 'string' ? { contentType } : {}),
    ...(typeof httpMethod === 'string' ? { httpMethod } : {}),
  };
}

/**
 * A credentials answer's bytes with the value of `data.uploadUrl` replaced: the first `"uploadUrl": "…"` member of
 * the text whose string is the uploadUrl issued is written anew (JSON.stringify of the new URL); every other byte
 * stays as received. Undefined when no such member is found as written (a name written with escapes, say).
 * @param answer - the answer's bytes
 * @param issued - the uploadUrl the answer issued
 * @param replacement - the URL to put in its place
 * @returns the new bytes, or undefined
 * @example
 * const said = new TextEncoder().encode('{"data":{"uploadUrl":"http:\\/\\/u\\/b","formFields":{}}}');
 * const text = new TextDecoder().decode(rewriteUploadUrl(said, 'http://u/b', 'http://p/1'));
 * text // '{"data":{"uploadUrl":"http://p/1","formFields":{}}}'
 */
export function rewriteUploadUrl(answer: Uint8Array, issued: string, replacement: string): Uint8Array | undefined {
  const text = Buffer.from(answer).toString('utf8');
  for (const m of text.matchAll(MEMBER)) {
    const literal = m[2] as string;
    let value: unknown;
    try {
      value = JSON.parse(literal);
    } catch {
      continue;
    }
    if (value !== issued) continue;
    const at = (m.index ?? 0) + (m[1] as string).length;
    return new TextEncoder().encode(text.slice(0, at) + JSON.stringify(replacement) + text.slice(at + literal.length));
  }
  return undefined;
}

// --- internal ---

/** A member named uploadUrl with a string value: the name and colon, then the string literal. */
const MEMBER = /("uploadUrl"[ \t\n\r]*:[ \t\n\r]*)("(?:[^"\\]|\\.)*")/g;

function parse(bytes: Uint8Array): ReturnType<typeof parseOrderedJson> | undefined {
  try {
    return parseOrderedJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}
