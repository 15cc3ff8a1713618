/**
 * Zoo member: the credentials-request check counts lengths in UTF-16 code units
 * (`string.length`), not code points (R13), so text with characters outside the BMP
 * (emoji) is refused early.
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject } from './_sdk.js';

class Utf16LengthSdk extends ZooSdk {
  override textLength(text: string): number {
    return text.length; // BUG: UTF-16 code units
  }
}

/** The operations the bug reaches. */
export const routed = ['upload.validate'] as const;

export function createSubject(): Subject {
  return zooSubject('upload-utf16-length', new Utf16LengthSdk(), routed);
}
