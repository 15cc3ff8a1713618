/**
 * Merchant certification: the kit plays the gateway against a merchant's notify and
 * return endpoints (spec §5.5, §5.6, §6).
 * @module
 */
export { runCertification } from './certify.js';
export type { CertificationResult, CertifyOptions, CheckOutcome, RequirementResult, Verdict } from './certify.js';
export { HANDLING_TITLES, handlingOf, judge } from './judge.js';
export type { CheckResult, Handling, Judgement } from './judge.js';
export { compactJson, createRng, makePayment, nonCanonicalJson, webhookPayload } from './payloads.js';
export type { Payment, Rng } from './payloads.js';
export { OLD_TIMESTAMP_MS, REFERENCE_TIME, addQuery, buildPlan, planHash } from './plan.js';
export type { Expectation, HttpCall, Plan, PlanOptions, PlannedCheck, Requirement } from './plan.js';
export { CERTIFICATION_FILES, CertificationReportError, certificationHtml, certificationJunit, certificationMarkdown, verdictLine, writeCertificationReports } from './report.js';
export { SAMPLE_CREDENTIALS, SAMPLE_MODULE, SAMPLE_REGISTERED, localDelivery, startSampleMerchant } from './sample.js';
export type { StartedSample } from './sample.js';
export { MAX_BODY_CHARS, createSender } from './send.js';
export type { SendErrorKind, SendOutcome, Sender } from './send.js';
