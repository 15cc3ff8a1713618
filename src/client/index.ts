/**
 * The reference client (spec §4, §5): signed requests with undici, responses verified
 * over their raw bytes before anything in them is used (5.4, R9), the two-step upload
 * with the form of 4.2 (R14), payment creation, and a low-level signed request with one
 * mutation for the gateway-role checks.
 * @module
 */
export { CLIENT_ERRORS, CLIENT_ERROR_CODES, ClientError } from './errors.js';
export type { ClientErrorCode, ClientErrorDetails, ClientErrorInfo } from './errors.js';
export { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from './options.js';
export type { ClientOptions } from './options.js';
export { signedRequest } from './signed-request.js';
export type { Mutation, MutationKind, SignedExchange, SignedParts, SignedRequestInput } from './signed-request.js';
export type { WireRequest, WireResponse } from './_http.js';
export { CREDENTIALS_PATH, requestUploadCredentials } from './credentials.js';
export type { CredentialsInput, UploadCredentials } from './credentials.js';
export { uploadFile } from './upload-file.js';
export type { UploadFileInput } from './upload-file.js';
export { upload } from './upload.js';
export type { UploadInput, UploadResult } from './upload.js';
export { PAYMENT_CREATE_PATH, createPayment } from './create-payment.js';
export type { CreatePaymentInput, CreatePaymentResult } from './create-payment.js';
