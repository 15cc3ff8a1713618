/**
 * pgv2kit's public API: the V2_SHA256 scheme (spec §5), the upload rules (§2, §4.2,
 * §8), the vectors, the subjects and the checks that run vectors against them, and the
 * testee protocol's line checks. Named exports only; types with `export type`.
 * @example
 * import { createReferenceSubject, loadVectorSet, liveCases, runCase } from 'pgv2kit';
 * const outcome = await runCase(liveCases(loadVectorSet())[0]!, createReferenceSubject());
 * @module
 */

// --- the kit ---
export { KIT_NAME, kitVersion } from './version.js';
export { Pgv2kitError, type ErrorExit } from './errors.js';

// --- the scheme (spec §5) ---
export {
  AUTH_SCHEME,
  ITEM_NAMES,
  describeHeaderProblem,
  formatAuthorization,
  isItemName,
  parseAuthorization,
} from './scheme/authorization.js';
export type {
  AuthorizationItems,
  HeaderProblem,
  HeaderProblemKind,
  ItemName,
  ParseOptions,
  ParseOutcome,
  Tolerance,
} from './scheme/authorization.js';
export { bytesEqual, concatBytes, fromBase64, toBase64, utf8 } from './scheme/bytes.js';
export { signEquals } from './scheme/constant-time.js';
export { signatureContent } from './scheme/content.js';
export { maskSecret, redact } from './scheme/mask.js';
export { PART_NAMES } from './scheme/parts.js';
export type { PartName, SignatureParts } from './scheme/parts.js';
export { REDIRECT_PARAMETERS, decodeQueryComponent, queryParameters, verifyRedirect } from './scheme/redirect.js';
export type { RedirectOutcome, ReturnRedirect } from './scheme/redirect.js';
export { sign, signContent } from './scheme/sign.js';
export { describeVerifyProblem, verifyRequest, verifyResponse, verifySigned, verifyWebhook } from './scheme/verify.js';
export type {
  Credentials,
  SignedRequest,
  SignedResponse,
  SignedWebhook,
  VerifyOptions,
  VerifyOutcome,
  VerifyProblem,
  VerifyProblemKind,
} from './scheme/verify.js';

// --- the upload rules (spec §2.1, §2.2, §4.2, §8) ---
export {
  CREDENTIALS_LIMITS,
  FORM_PROBLEMS,
  MULTIPART_MALFORMED,
  MultipartError,
  SCENES,
  SCENE_NAMES,
  buildUploadForm,
  checkUploadBody,
  checkUploadForm,
  codePointLength,
  escapeFormParam,
  fileExtension,
  isSceneName,
  parseMultipart,
  reportedMediaType,
  validateCredentialsRequest,
} from './upload/index.js';
export type {
  CredentialsField,
  CredentialsOutcome,
  CredentialsProblem,
  CredentialsRequest,
  CredentialsRule,
  FormCheckOutcome,
  FormFields,
  FormProblem,
  FormProblemInfo,
  FormProblemKind,
  MultipartPart,
  MultipartPartKind,
  SceneName,
  SceneRule,
  UploadForm,
  UploadFormInput,
  UploadFormOptions,
} from './upload/index.js';

// --- the reference client (spec §4, §5.4): signed requests, verified responses, the two-step upload ---
export {
  CLIENT_ERRORS,
  CLIENT_ERROR_CODES,
  CREDENTIALS_PATH,
  ClientError,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  PAYMENT_CREATE_PATH,
  createPayment,
  requestUploadCredentials,
  signedRequest,
  upload,
  uploadFile,
} from './client/index.js';
export type {
  ClientErrorCode,
  ClientErrorDetails,
  ClientErrorInfo,
  ClientOptions,
  CreatePaymentInput,
  CreatePaymentResult,
  CredentialsInput as ClientCredentialsInput,
  Mutation,
  MutationKind,
  SignedExchange,
  SignedParts,
  SignedRequestInput,
  UploadCredentials,
  UploadFileInput,
  UploadInput,
  UploadResult,
  WireRequest,
  WireResponse,
} from './client/index.js';

// --- the vectors ---
export { bodyBytes, contentBytes, fileBytes, partData } from './vectors/fields.js';
export {
  DEFAULT_VECTORS_DIR,
  VectorSchemaError,
  VectorSetError,
  formatProblem,
  liveCases,
  loadVectorSet,
} from './vectors/load.js';
export type { VectorProblem } from './vectors/load.js';
export { VECTOR_KINDS } from './roles/registry.js';
export type {
  AuthorizationCase,
  BodyField,
  CaseBase,
  ContentField,
  ExpectedPart,
  ExpectedResult,
  FileField,
  FlagNote,
  FormFieldPairs,
  ItemsField,
  LoadedCase,
  Provenance,
  RedirectCase,
  RequestCase,
  ResponseCase,
  SignatureCase,
  UploadCase,
  VectorCase,
  VectorKind,
  VectorSet,
  VerifyExpected,
} from './vectors/types.js';
export { INVISIBLE, hasInvisible, visibleScalar } from './vectors/visible-text.js';
export { stringifyVectorFile } from './vectors/write.js';

// --- subjects: implementations under test ---
export { KIT_OPERATIONS, PROTOCOL_OPERATIONS, isOperation } from './protocol/operations.js';
export type { Operation, ProtocolOperation } from './protocol/operations.js';
export { createReferenceSubject } from './subjects/reference.js';
export type { ReferenceOptions } from './subjects/reference.js';
export type { Answer, Implementation, Json, OperationInput, Subject } from './subjects/subject.js';

// --- checks: running vectors against a subject ---
export { CHECKS, caseOperations, diagnose, runCase } from './roles/run-case.js';
export { END_TO_END_KINDS, KIND_INFO, ROLES, roleNamed } from './roles/registry.js';
export { defineRole } from './roles/role.js';
export type { CaseOf, KindInfo, Role, RoleName } from './roles/role.js';
export { callOp, defineCheck, judge, judgeValid, nonResult } from './checks/check.js';
export type { Check } from './checks/check.js';
export { STATUS_INFO, worstStatus } from './checks/outcome.js';
export type { CaseOutcome, Choice, OpOutcome, Status } from './checks/outcome.js';
export { firstDifference } from './checks/signature.js';

// --- testee protocol 1 ---
export { PROTOCOL_SCHEMA, PROTOCOL_VERSION, validateRunnerLine, validateTesteeLine } from './protocol/validate.js';
export type { LineExpectation, LineValidation } from './protocol/validate.js';
