/**
 * Reading byte-valued fields of cases: text fields are UTF-8, `…B64` fields base64.
 * @module
 */
import { fromBase64, utf8 } from '../scheme/bytes.js';
import type { BodyField, ContentField, ExpectedPart, FileField } from './types.js';

/**
 * The body bytes of a case's inputs.
 * @param field - an object with body or bodyB64
 * @returns the bytes
 * @example bodyBytes({ body: '{}' }) // utf8('{}')
 */
export function bodyBytes(field: BodyField): Uint8Array {
  return field.bodyB64 !== undefined ? fromBase64(field.bodyB64) : utf8(field.body ?? '');
}

/**
 * The content bytes of a case's expected or candidate content, if it gives one.
 * @param field - an object with content or contentB64
 * @returns the bytes, or undefined when neither is given
 * @example contentBytes({ content: 'a\n' }) // utf8('a\n')
 */
export function contentBytes(field: ContentField): Uint8Array | undefined {
  if (field.contentB64 !== undefined) return fromBase64(field.contentB64);
  return field.content !== undefined ? utf8(field.content) : undefined;
}

/**
 * The file bytes of an upload case's inputs.
 * @param field - an object with file or fileB64
 * @returns the bytes
 * @example fileBytes({ file: '%PDF' }) // utf8('%PDF')
 */
export function fileBytes(field: FileField): Uint8Array {
  return field.fileB64 !== undefined ? fromBase64(field.fileB64) : utf8(field.file ?? '');
}

/**
 * The data bytes of an expected file part.
 * @param part - the expected part
 * @returns the bytes, or undefined for a text part
 * @example partData({ name: 'file', filename: 'a.pdf', contentType: 'application/pdf', data: 'x' })
 */
export function partData(part: ExpectedPart): Uint8Array | undefined {
  if (!('filename' in part)) return undefined;
  return part.dataB64 !== undefined ? fromBase64(part.dataB64) : utf8(part.data ?? '');
}
