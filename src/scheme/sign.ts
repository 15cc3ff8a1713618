import { createHash, hash } from 'node:crypto';
import { utf8 } from './bytes.js';
import { contentHead } from './content.js';
import type { SignatureParts } from './parts.js';

/**
 * The sign of given content bytes (spec §5.2): SHA-256, 64 lower-case hex digits.
 * @param content - the signature content bytes (§5.1)
 * @returns 64 lower-case hex digits
 * @example signContent(new Uint8Array()) // 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'
 */
export function signContent(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Signs the seven parts (spec §5.1 and §5.2; readings R1–R7).
 * @param parts - the seven parts
 * @returns the sign: 64 lower-case hex digits
 * @example sign({ appId: 'a', appSecret: 's', method: 'GET', url: 'https://x/', timestamp: '1', nonce: 'n', body: '' })
 */
export function sign(parts: SignatureParts): string {
  // The bytes hashed are exactly signatureContent(parts); they are not built as a new array.
  const head = contentHead(parts);
  const body = utf8(parts.body);
  const headLength = Buffer.byteLength(head, 'utf8');
  const length = headLength + body.byteLength + 1;
  if (length < Buffer.poolSize >>> 1) {
    // Small content: one buffer from Node's pool, one call (createHash's own cost dominates small inputs).
    const content = Buffer.allocUnsafe(length);
    content.write(head, 0, 'utf8');
    content.set(body, headLength);
    content[length - 1] = LF;
    return hash('sha256', content, 'hex');
  }
  return createHash('sha256').update(head, 'utf8').update(body).update(LF_BYTES).digest('hex');
}

const LF = 0x0a;
const LF_BYTES = Uint8Array.of(LF);
