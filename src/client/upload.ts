/**
 * The whole two-step upload (spec §3, §4.1, §4.2): credentials, then the file.
 * @module
 */
import { requestUploadCredentials, type CredentialsInput } from './credentials.js';
import { uploadFile } from './upload-file.js';

/** The inputs of {@link upload}: those of the credentials request, and the file. */
export interface UploadInput extends Omit<CredentialsInput, 'fileSize'> {
  /** The file's bytes. */
  readonly file: Uint8Array;
}

/** What a successful upload returns (2.4): the file's identifier and the upload number. */
export interface UploadResult {
  readonly storageUri: string;
  readonly uploadNo: string;
}

/**
 * Uploads a file in two steps: {@link requestUploadCredentials} (4.1, verified 5.4),
 * then {@link uploadFile} (4.2). Nothing is uploaded unless the credentials response is
 * an authentic 200 with code OK and complete data.
 * @param input - base URL, credentials, filename, contentType, scene, the file, client options
 * @returns storageUri and uploadNo of the credentials, once the upload answered 204
 * @throws {ClientError} (rejects) any code of the two steps
 * @throws {TypeError} (rejects) when an input has the wrong type
 * @throws {RangeError} (rejects) when an input cannot be sent as written
 * @example
 * const { storageUri } = await upload({ baseUrl, appId, appSecret, filename: 'scan.pdf',
 *   contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE', file: utf8('%PDF-1.7\n') });
 */
export async function upload(input: UploadInput): Promise<UploadResult> {
  if (!(input.file instanceof Uint8Array)) throw new TypeError('file must be a Uint8Array');
  const credentials = await requestUploadCredentials({ ...input, fileSize: input.file.byteLength });
  await uploadFile(
    credentials,
    { filename: input.filename, contentType: input.contentType ?? null, file: input.file },
    input,
  );
  return { storageUri: credentials.storageUri, uploadNo: credentials.uploadNo };
}
