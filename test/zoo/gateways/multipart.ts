/**
 * Multipart bodies for the zoo's upload bugs: read into parts (busboy, as an upload address would), and
 * written back (form-data) after a bug changed them.
 */
import busboy from 'busboy';
import FormData from 'form-data';
import { Readable } from 'node:stream';
import { header, withHeader, type Message } from './proxy.js';

/** One part: a text field, or a file. */
export interface Part {
  readonly name: string;
  readonly value?: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly data?: Buffer;
}

/**
 * The parts of a multipart upload, in order; undefined when the body is not multipart.
 * @param m - the upload
 * @returns the parts
 */
export async function partsOf(m: Message): Promise<Part[] | undefined> {
  const type = header(m, 'content-type') ?? '';
  if (!/^multipart\/form-data/i.test(type)) return undefined;
  return new Promise((resolve) => {
    const parts: Part[] = [];
    const pending: Array<Promise<void>> = [];
    const bb = busboy({ headers: { 'content-type': type }, limits: { fileSize: 8 * 1024 * 1024 } });
    bb.on('field', (name, value) => parts.push({ name, value }));
    bb.on('file', (name, stream, info) => {
      const at = parts.length;
      parts.push({ name });
      pending.push(
        new Promise((done) => {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            parts[at] = { name, filename: info.filename, contentType: info.mimeType, data: Buffer.concat(chunks) };
            done();
          });
        }),
      );
    });
    bb.on('close', () => void Promise.all(pending).then(() => resolve(parts)));
    bb.on('error', () => resolve(undefined));
    Readable.from([m.body]).pipe(bb);
  });
}

/**
 * The upload with its body written again from parts (a new boundary, the Content-Type header to match).
 * @param m - the upload
 * @param parts - the parts, in order
 * @returns the new upload
 */
export function withParts(m: Message, parts: readonly Part[]): Message {
  const form = new FormData();
  for (const p of parts)
    if (p.data !== undefined)
      form.append(p.name, p.data, {
        ...(p.filename !== undefined ? { filename: p.filename } : {}),
        ...(p.contentType !== undefined ? { contentType: p.contentType } : {}),
      });
    else form.append(p.name, p.value ?? '');
  return { ...withHeader(m, 'Content-Type', form.getHeaders()['content-type'] as string), body: form.getBuffer() };
}
