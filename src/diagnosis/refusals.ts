/**
 * The refusals a verifier or parser must make, by the reference's problem kind (and the
 * header problem kinds of src/scheme/authorization.ts): what the diagnosis says when an
 * implementation accepts what the case expected it to refuse (mistake `accepts-<kind>`).
 * @module
 */

/**
 * One line per refusal, "you accept …".
 * @example REFUSALS['duplicate-item'] // 'you accept a header with a duplicated item (R8)'
 */
export const REFUSALS: Readonly<Record<string, string>> = Object.freeze({
  'no-authorization': 'you accept a message without Authorization',
  'malformed-authorization': 'you accept an Authorization header that R8 refuses',
  'app-id-mismatch': 'you accept a header whose appId is not your own: its appId is not checked (R9)',
  'malformed-sign': 'you accept a sign that is not 64 hex digits (R7)',
  'uppercase-sign': 'you accept upper-case hex (allowed by R7; only reported)',
  'sign-mismatch': 'you accept a sign that does not match the content',
  'status-not-verified': 'you accept a response whose status is not 200 as authentic (R9)',
  'redirect-parameter': 'you accept a redirect without exactly one payment and one authorization parameter (R11)',
  'redirect-encoding': 'you accept a redirect parameter that is not valid percent-encoded UTF-8 (R11)',
  'empty-header': 'you accept an empty Authorization header (R8)',
  'wrong-scheme': 'you accept a header whose scheme is not V2_SHA256 (R8)',
  'no-items': 'you accept a header without items (R8)',
  'malformed-item': 'you accept a header with an item that is not name=value (R8)',
  'empty-value': 'you accept a header with an empty item value (R8)',
  'duplicate-item': 'you accept a header with a duplicated item (R8)',
  'missing-item': 'you accept a header with an item missing (R8)',
});
