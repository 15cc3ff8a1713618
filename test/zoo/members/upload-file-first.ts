/**
 * Zoo member: the upload form puts the file part first and the formFields after it
 * (§4.2: every formFields entry, then the file part as the last part; R14).
 * @module
 */
import FormData from 'form-data';
import type { Subject } from '../../../src/subjects/subject.js';
import { escapeFormParam } from '../../../src/upload/index.js';
import { ZooSdk, zooSubject, type FormField } from './_sdk.js';

class FileFirstSdk extends ZooSdk {
  override buildForm(
    fields: readonly FormField[],
    filename: string,
    contentType: string,
    file: Buffer,
  ): { contentType: string; body: Buffer } {
    const form = new FormData();
    const boundary = form.getBoundary();
    const type = contentType === '' ? '' : `Content-Type: ${contentType}\r\n`;
    // BUG: "the file is what matters", so it goes in first
    form.append('file', file, {
      header: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeFormParam(filename)}"\r\n${type}\r\n`,
    });
    for (const [name, value] of this.formFieldsToSend(fields)) form.append(name, value);
    return { contentType: `multipart/form-data; boundary=${boundary}`, body: form.getBuffer() };
  }
}

/** The operations the bug reaches. */
export const routed = ['upload.form'] as const;

export function createSubject(): Subject {
  return zooSubject('upload-file-first', new FileFirstSdk(), routed);
}
