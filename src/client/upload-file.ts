/**
 * Step 2 of the upload (spec §4.2): send the file to the upload address with the form
 * the credentials prescribe.
 * @module
 */
import { buildUploadForm } from '../upload/form.js';
import { exchange } from './_http.js';
import { bodyText, fail } from './_response.js';
import type { UploadCredentials } from './credentials.js';
import type { ClientOptions } from './options.js';

/** The file sent by {@link uploadFile}: the filename and contentType of the credentials request, and the bytes. */
export interface UploadFileInput {
  /** The filename of the credentials request. */
  readonly filename: string;
  /**
   * The contentType of the credentials request; null or undefined when it gave none (the file part then has no
   * Content-Type).
   */
  readonly contentType?: string | null;
  /** The file's bytes. */
  readonly file: Uint8Array;
}

/**
 * Uploads a file (spec §4.2, reading R14): sends a multipart/form-data body with
 * `httpMethod` to `uploadUrl` — every formFields entry as a text part, name and value
 * exactly as received and in the order received, then the part named `file`, last,
 * carrying the filename and the content type of the credentials request (the form of
 * `buildUploadForm`). Only the multipart Content-Type is sent: no Authorization (5.7, R14).
 * Success is HTTP 204 (4.2); anything else fails.
 * @param credentials - the verified credentials ({@link requestUploadCredentials})
 * @param file - filename, contentType and bytes
 * @param options - timeouts, dispatcher, response size limit (clock, nonce and verify are not used: nothing is signed)
 * @throws {ClientError} (rejects) PGV2_CLIENT_UPLOAD_FAILED with the status and the storage's
 *   error text; PGV2_CLIENT_NETWORK, PGV2_CLIENT_TIMEOUT, PGV2_CLIENT_RESPONSE_TOO_LARGE
 * @throws {TypeError} (rejects) when an input has the wrong type
 * @throws {RangeError} (rejects) when the form cannot carry a name, the filename or the content type as written
 * (buildUploadForm)
 * @example
 * const credentials = await requestUploadCredentials({
 *   baseUrl,
 *   appId,
 *   appSecret,
 *   filename: 'evidence.pdf',
 *   contentType: 'application/pdf',
 *   scene: 'DISPUTE_EVIDENCE',
 * });
 * await uploadFile(credentials, {
 *   filename: 'evidence.pdf',
 *   contentType: 'application/pdf',
 *   file: utf8('%PDF-1.7\n'),
 * });
 */
export async function uploadFile(
  credentials: UploadCredentials,
  file: UploadFileInput,
  options: ClientOptions = {},
): Promise<void> {
  const form = buildUploadForm({
    formFields: credentials.formFields,
    filename: file.filename,
    contentType: file.contentType ?? '',
    file: file.file,
  });
  const r = await exchange(
    {
      method: credentials.httpMethod,
      url: credentials.uploadUrl,
      headers: [['Content-Type', form.contentType]],
      body: form.body,
    },
    options,
  );
  if (r.status !== 204) {
    const text = bodyText(r.body);
    const said = text === '' ? ' with no body' : `: ${JSON.stringify(text)}`;
    throw fail(
      'PGV2_CLIENT_UPLOAD_FAILED',
      `the upload address answered HTTP ${r.status}, not 204${said}; the file is not stored (4.2)`,
      [],
      { status: r.status },
    );
  }
}
