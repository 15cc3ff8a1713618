/**
 * The reference gateway (spec §4, §5; readings R4, R9, R13–R16): `startGateway()` runs
 * the API and the upload address on loopback, plays scenarios for client-role cases
 * and records what each client sent. A heavy, optional part of the kit, kept out of the
 * main entry (a `pgv2kit/gateway` subpath export fits it).
 * @example
 * import { startGateway } from './gateway/index.js';
 * const gateway = await startGateway({ merchants: [{ appId: 'app_1', appSecret: 's3cr3t' }] });
 * console.log(gateway.baseUrl, gateway.uploadUrl);
 * await gateway.close();
 * @module
 */
export { startGateway } from './gateway.js';
export type { Clock, Gateway, GatewayOptions } from './gateway.js';
export { DEMO_MERCHANT, MerchantBook } from './merchants.js';
export type { Merchant } from './merchants.js';
export type { ResponseBytes, ResponseSignature, Scenario } from '../vectors/scenario.js';
export { checkScenario, lookupScenario, scenarioPrefix, splitScenarioPath } from './scenario-routing.js';
export type { ScenarioPath, ScenarioSource } from './scenario-routing.js';
export { Recorder } from './recorder.js';
export type { RecordedPart, RecordedRequest, RecordedUpload, RequestVerification, ScenarioRecord, UploadOutcomeProblem } from './recorder.js';
export { GatewayStorage } from './storage.js';
export type { IncomingObject, ObjectMeta, StoredObject } from './storage.js';
export { API_FAILURES, failure } from './failures.js';
export type { ApiFailure, FailureCode, FailureInfo } from './failures.js';
export { S3_STATUS, UPLOAD_RULES, ruleMessage } from './upload-problems.js';
export type { UploadRule, UploadRuleInfo } from './upload-problems.js';
export { API_BODY_LIMIT, API_PATHS } from './api-listener.js';
export { MAX_FIELD_SIZE, MAX_FILE_SIZE, MAX_PARTS, MAX_UPLOAD_BODY } from './upload-listener.js';
export { OrderedPairs, envelopeBytes, foreignMerchant, responseAuthorization } from './envelope.js';
export type { Envelope, EnvelopeExtras, JsonOut, ResponseToSign } from './envelope.js';
export { GATEWAY_MISTAKES, authenticateRequest } from './request-auth.js';
export type { AuthOutcome, AuthProblem, ReceivedRequest } from './request-auth.js';
export { CREDENTIALS_REQUEST_SCHEMA, checkCredentialsBody } from './credentials-schema.js';
export type { CredentialsBodyOutcome, CredentialsBodyProblem } from './credentials-schema.js';
export { PAYMENT_CREATE_SCHEMA, checkPaymentBody, createdPayment } from './payment.js';
export type { PaymentBodyOutcome, PaymentProblem, PaymentRequest, PaymentRule } from './payment.js';
export { POLICY_VALIDITY_MS, STORAGE_SERVICE, algorithmOf, amzDate, checkPostPolicy, decodePolicy, policySignature, presignPost, signingKey } from './policy.js';
export type { PolicyCondition, PolicyDocument, PolicyOutcome, PolicyProblem, PresignInput, PresignedPost, StorageSigner } from './policy.js';
export { IssuedUploads, credentialsData, issueUpload } from './upload-credentials.js';
export type { CredentialsInput, IssueContext, IssuedUpload } from './upload-credentials.js';
