import { concatBytes, utf8 } from './bytes.js';
import type { SignatureParts } from './parts.js';

const LF = 0x0a;

/**
 * Builds the V2_SHA256 signature content (spec §5.1): the seven parts in order,
 * each followed by one LF, including the last.
 *
 * Readings: R1 — the body is always followed by exactly one LF, so a body that ends
 * in LF gives content ending in two LFs, never three; R2 — an empty body is the
 * empty part, still followed by LF; R3 — the body's bytes are used as they are (no
 * normalisation, no CRLF conversion, no trimming, a BOM kept); parts 1–6 are
 * encoded as UTF-8 (§5.2).
 *
 * @param parts - the seven parts
 * @returns the content bytes
 * @example
 * const c = signatureContent({ appId: 'a', appSecret: 's', method: 'POST',
 *   url: 'https://x/y', timestamp: '1', nonce: 'n', body: '{}' });
 * new TextDecoder().decode(c) // 'a\ns\nPOST\nhttps://x/y\n1\nn\n{}\n'
 */
export function signatureContent(parts: SignatureParts): Uint8Array {
  return concatBytes([utf8(contentHead(parts)), utf8(parts.body), Uint8Array.of(LF)]);
}

/**
 * Parts 1–6 of the content (§5.1), each followed by LF: all of it before the body.
 * @param parts - the seven parts (the body is not used)
 * @returns the text, to be encoded as UTF-8 (§5.2)
 * @example
 * contentHead({
 *   appId: 'a',
 *   appSecret: 's',
 *   method: 'GET',
 *   url: 'https://x/',
 *   timestamp: '1',
 *   nonce: 'n',
 *   body: '',
 * }) // 'a\ns\nGET\nhttps://x/\n1\nn\n'
 */
export function contentHead(parts: SignatureParts): string {
  return `${parts.appId}\n${parts.appSecret}\n${parts.method}\n${parts.url}\n${parts.timestamp}\n${parts.nonce}\n`;
}
