/**
 * Zoo member: the verifier "cleans" the body it received before verifying it, as
 * `mb_convert_encoding($body, 'UTF-8', 'UTF-8')` does with PHP's default substitute
 * character: each ill-formed part becomes "?" (§5.1, §5.4: the raw bytes; R3). Its
 * signer is correct.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject, type Creds, type Verdict } from './_sdk.js';

class CleaningVerifierSdk extends ZooSdk {
  override verify(creds: Creds, method: string, url: string, authorization: string | null, body: Buffer): Verdict {
    return super.verify(creds, method, url, authorization, toValidUtf8(body)); // BUG: not the bytes received
  }
}

/**
 * Valid UTF-8 out of any bytes, the way PHP's mbstring decoder walks them: a lead byte
 * says how many continuation bytes follow; at the first one that does not fit, one "?"
 * for what was read so far, and that byte is read again.
 */
function toValidUtf8(body: Buffer): Buffer {
  const out: number[] = [];
  const isCont = (x: number | undefined): boolean => x !== undefined && (x & 0xc0) === 0x80;
  let p = 0;
  while (p < body.length) {
    const c = body[p++] ?? 0;
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c < 0x80) need = 0;
    else if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // above U+10FFFF
    } else {
      out.push(0x3f);
      continue;
    }
    const start = p - 1;
    let read = 0;
    while (read < need) {
      const x = body[p];
      const fits = read === 0 ? x !== undefined && x >= lo && x <= hi : isCont(x);
      if (!fits) break;
      p++;
      read++;
    }
    if (read === need) for (let k = start; k < p; k++) out.push(body[k] ?? 0);
    else out.push(0x3f);
  }
  return Buffer.from(out);
}

/** The operations the bug reaches: the verifiers of a received body. */
export const routed = ['request.verify', 'response.verify', 'webhook.verify'] as const;

export function createSubject(): Subject {
  return zooSubject('received-body-text-converted', new CleaningVerifierSdk(), routed);
}
