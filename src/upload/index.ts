/**
 * The upload rules (spec §2.1, §2.2, §3, §4.2, §7, §8; readings R13–R16): the
 * credentials request's limits, the form a client builds, and the upload address's check.
 * @module
 */
export { CREDENTIALS_LIMITS, SCENES, SCENE_NAMES, codePointLength, fileExtension, isSceneName } from './scenes.js';
export type { SceneName, SceneRule } from './scenes.js';
export { validateCredentialsRequest } from './credentials-request.js';
export type {
  CredentialsField,
  CredentialsOutcome,
  CredentialsProblem,
  CredentialsRequest,
  CredentialsRule,
} from './credentials-request.js';
export { buildUploadForm } from './form.js';
export type { FormFields, UploadForm, UploadFormInput, UploadFormOptions } from './form.js';
export { MULTIPART_MALFORMED, MultipartError, parseMultipart } from './multipart.js';
export type { MultipartPart, MultipartPartKind } from './multipart.js';
export { FORM_PROBLEMS, checkUploadBody, checkUploadForm } from './form-check.js';
export type { FormCheckOutcome, FormProblem, FormProblemInfo, FormProblemKind } from './form-check.js';
export { escapeFormParam } from './form-param.js';
export { reportedMediaType } from './content-type.js';
