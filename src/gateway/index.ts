/**
 * The reference gateway (spec §4, §5; readings R4, R9, R13–R16): `startGateway()` runs
 * the API and the upload address on loopback, plays scenarios for client-role cases
 * and records what each client sent. A heavy, optional part of the kit, kept out of the
 * main entry: `pgv2kit/gateway`. What it exports is what a client's tests need — start it,
 * give each case its scenario's base URL, read what the client sent — and nothing of how it
 * signs, checks or stores (those are the kit's own modules).
 * @example
 * import { startGateway } from 'pgv2kit/gateway';
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
export { scenarioPrefix, splitScenarioPath } from './scenario-routing.js';
export type { ScenarioPath, ScenarioSource } from './scenario-routing.js';
export type { Recorder } from './recorder.js';
export type {
  RecordedPart,
  RecordedRequest,
  RecordedUpload,
  RecorderLimits,
  RequestVerification,
  ScenarioRecord,
  UploadOutcomeProblem,
} from './recorder.js';
export type { GatewayStorage } from './storage.js';
export type { IncomingObject, ObjectMeta, StoredObject } from './storage.js';
export { API_FAILURES } from './failures.js';
export type { ApiFailure, FailureCode, FailureInfo } from './failures.js';
export { S3_STATUS, UPLOAD_RULES } from './upload-problems.js';
export type { UploadRule, UploadRuleInfo } from './upload-problems.js';
export { API_BODY_LIMIT, API_PATHS } from './api-listener.js';
export { MAX_FIELD_SIZE, MAX_FILE_SIZE, MAX_PARTS, MAX_UPLOAD_BODY } from './upload-listener.js';
