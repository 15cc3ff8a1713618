import { createHash } from 'node:crypto';
import { signatureContent } from './content.js';
import type { SignatureParts } from './parts.js';

/**
 * The sign of given content bytes (spec §5.2): SHA-256, 64 lower-case hex digits.
 * @param content - the signature content bytes (§5.1)
 * @returns 64 lower-case hex digits
 * @example signContent(new Uint8Array()) // 'e3b0c442…b855'
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
  return signContent(signatureContent(parts));
}
