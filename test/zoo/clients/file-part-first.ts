/**
 * Client zoo member: the upload form puts the file part first and the formFields after
 * it (§3, §4.2: every formFields entry, then the file part as the last part; R14).
 * @module
 */
import FormData from 'form-data';
import type { Subject } from '../../../src/subjects/subject.js';
import { escapeFormParam } from '../../../src/upload/index.js';
import { ZooClient, clientSubject, type FormField } from './_client.js';

class FileFirstClient extends ZooClient {
  override form(
    fields: readonly FormField[],
    filename: string,
    contentType: string,
    file: Buffer,
  ): { contentType: string; body: Uint8Array } {
    const form = new FormData();
    const boundary = form.getBoundary();
    const type = contentType === '' ? '' : `Content-Type: ${contentType}\r\n`;
    // BUG: "the file is what matters", so it goes in first; the formFields follow
    form.append('file', file, {
      header: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeFormParam(filename)}"\r\n${type}\r\n`,
    });
    for (const [name, value] of fields) form.append(name, value);
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: form.getBuffer() };
  }
}

export function createSubject(): Subject {
  return clientSubject('file-part-first', new FileFirstClient());
}
