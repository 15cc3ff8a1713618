/**
 * Why the upload address refuses an upload (spec §3, §4.2, §7, §8; readings R13, R14,
 * R16): each rule with the HTTP status and S3 error code it answers with, and the words
 * the record and the XML error use ("formFields entry x-amz-date changed", "file part
 * not last" …). The spec shows no status or body for a failed upload (§7, R16); these
 * follow S3's POST Object errors, whose form clients of presigned POSTs already handle.
 * @module
 */

/** A rule the upload address enforces. */
export type UploadRule =
  | 'no-such-bucket'
  | 'method-not-allowed'
  | 'authorization-header'
  | 'not-multipart'
  | 'malformed-multipart'
  | 'body-too-large'
  | 'file-too-large'
  | 'part-too-large'
  | 'too-many-parts'
  | 'timeout'
  | 'incomplete'
  | 'no-file-part'
  | 'extra-file-part'
  | 'file-part-name'
  | 'file-not-last'
  | 'field-missing'
  | 'field-changed'
  | 'field-added'
  | 'expired'
  | 'file-type'
  | 'file-name'
  | 'file-content-type';

/** What the upload address says about one {@link UploadRule}. */
export interface UploadRuleInfo {
  /** The default HTTP status (a refusal may carry another S3 code, see {@link S3_STATUS}). */
  readonly status: number;
  /** The default S3 error code. */
  readonly s3Code: string;
  readonly title: string;
  readonly description: string;
  readonly sources: readonly string[];
}

/**
 * Every {@link UploadRule}, in the order the upload address checks them.
 * @example UPLOAD_RULES['file-not-last'].title // 'File part not last'
 */
export const UPLOAD_RULES: Readonly<Record<UploadRule, UploadRuleInfo>> = Object.freeze({
  'no-such-bucket': {
    status: 404,
    s3Code: 'NoSuchBucket',
    title: 'No upload address here',
    description: 'The path is not an uploadUrl this gateway issues.',
    sources: ['4.2'],
  },
  'method-not-allowed': {
    status: 405,
    s3Code: 'MethodNotAllowed',
    title: 'Method not POST',
    description: 'The upload is sent with the httpMethod of the credentials, POST.',
    sources: ['2.4', '4.2'],
  },
  'authorization-header': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'Authorization header sent',
    description:
      "The upload carries an Authorization header. The gateway's V2_SHA256 header signs another request (the " +
      'credentials request) and is never sent to the upload address, where it could be replayed (R14); S3 reads ' +
      'an Authorization header as its own and refuses it (Unsupported Authorization Type).',
    sources: ['4.2', 'R14'],
  },
  'not-multipart': {
    status: 412,
    s3Code: 'PreconditionFailed',
    title: 'Not multipart/form-data',
    description: 'The Content-Type is not multipart/form-data with a boundary.',
    sources: ['4.2'],
  },
  'malformed-multipart': {
    status: 400,
    s3Code: 'MalformedPOSTRequest',
    title: 'Malformed multipart body',
    description: 'busboy cannot read the body (a malformed part header, a body that ends before its close delimiter).',
    sources: ['4.2'],
  },
  'body-too-large': {
    status: 400,
    s3Code: 'EntityTooLarge',
    title: 'Body too large',
    description:
      'The whole body is larger than the file limit plus 1 MiB for the fields; refused before or as soon as it is ' +
      'crossed.',
    sources: ['8', 'R13'],
  },
  'file-too-large': {
    status: 400,
    s3Code: 'EntityTooLarge',
    title: 'File over the size limit',
    description:
      'The file is larger than the content-length-range of the policy, 2 MB read as 2,097,152 bytes (R13); refused ' +
      'as soon as the limit is crossed, never buffered past it.',
    sources: ['2.2', '8', 'R13'],
  },
  'part-too-large': {
    status: 400,
    s3Code: 'MaxPostPreDataLengthExceeded',
    title: 'Text part too large',
    description: 'A text part (or its name) is longer than 16 KiB.',
    sources: ['4.2'],
  },
  'too-many-parts': {
    status: 400,
    s3Code: 'MaxPostPreDataLengthExceeded',
    title: 'Too many parts',
    description: 'The form has more than 100 parts.',
    sources: ['4.2'],
  },
  timeout: {
    status: 400,
    s3Code: 'RequestTimeout',
    title: 'Body stopped arriving',
    description: 'The body stopped half-way for longer than the body timeout.',
    sources: [],
  },
  incomplete: {
    status: 400,
    s3Code: 'IncompleteBody',
    title: 'Connection closed half-way',
    description: 'The client closed the connection before the body ended; nothing could be answered.',
    sources: [],
  },
  'no-file-part': {
    status: 400,
    s3Code: 'IncorrectNumberOfFilesInPostRequest',
    title: 'No file part',
    description: 'No part carries a filename: the file part is missing.',
    sources: ['4.2', 'R14'],
  },
  'extra-file-part': {
    status: 400,
    s3Code: 'IncorrectNumberOfFilesInPostRequest',
    title: 'More than one file part',
    description: 'More than one part carries a filename; an upload holds exactly one file.',
    sources: ['4.2', 'R14'],
  },
  'file-part-name': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'File part not named file',
    description: 'The part carrying the file is named otherwise than file.',
    sources: ['4.2', 'R14'],
  },
  'file-not-last': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'File part not last',
    description:
      'A part follows the file part. Fields after the file are ignored as S3 does, so the fields that should ' +
      'precede it fail their conditions (403), or, when every field came first, the part is refused (400).',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-missing': {
    status: 403,
    s3Code: 'AccessDenied',
    title: 'formFields entry missing',
    description: 'A field of the policy (or the policy or signature itself) is not among the parts before the file.',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-changed': {
    status: 403,
    s3Code: 'AccessDenied',
    title: 'formFields entry changed',
    description:
      'A field differs from its condition in the policy, or the policy or signature was changed (the signature no ' +
      'longer matches).',
    sources: ['3', '4.2', '7', 'R14'],
  },
  'field-added': {
    status: 403,
    s3Code: 'AccessDenied',
    title: 'Part added',
    description: 'A text part that the policy has no condition for, or a repeated one.',
    sources: ['4.2', 'R14'],
  },
  expired: {
    status: 403,
    s3Code: 'AccessDenied',
    title: 'uploadUrl expired',
    description: 'The policy expired: more than 10 minutes after the credentials were issued.',
    sources: ['2.4', '3', '8'],
  },
  'file-type': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'File type not accepted',
    description:
      "The file part's filename extension is not an accepted type of the scene (compared case-insensitively, R13).",
    sources: ['2.2', '8', 'R13'],
  },
  'file-name': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'File name changed',
    description: 'The file part carries a filename other than the one of the credentials request.',
    sources: ['4.2', 'R14'],
  },
  'file-content-type': {
    status: 400,
    s3Code: 'InvalidArgument',
    title: 'File content type changed',
    description:
      'The file part carries a content type other than the one of the credentials request (as busboy reports it: ' +
      'lower case, parameters dropped).',
    sources: ['4.2', 'R14'],
  },
});

/**
 * The HTTP status of each S3 error code the upload address answers with.
 * @example S3_STATUS['SignatureDoesNotMatch'] // 403
 */
export const S3_STATUS: Readonly<Record<string, number>> = Object.freeze({
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
  InvalidAccessKeyId: 403,
  InvalidArgument: 400,
  InvalidPolicyDocument: 400,
});

/**
 * The rule in the words of the record: what the client did.
 * @param rule - the rule
 * @param field - the formFields entry or part concerned
 * @returns e.g. `formFields entry x-amz-date changed`, `part note added`, `file part not last`
 * @example ruleMessage('field-changed', 'x-amz-date') // 'formFields entry x-amz-date changed'
 */
export function ruleMessage(rule: UploadRule, field?: string): string {
  switch (rule) {
    case 'field-missing':
      return `formFields entry ${String(field)} missing`;
    case 'field-changed':
      return `formFields entry ${String(field)} changed`;
    case 'field-added':
      return `part ${String(field)} added`;
    case 'part-too-large':
      return `part ${String(field)} too large`;
    case 'extra-file-part':
      return `part ${String(field)} is a second file part`;
    case 'file-part-name':
      return `file part named ${String(field)}, not file`;
    case 'authorization-header':
      return 'an Authorization header sent (R14: never sent to the upload address)';
    default: {
      const title = UPLOAD_RULES[rule].title;
      return title.charAt(0).toLowerCase() + title.slice(1);
    }
  }
}
