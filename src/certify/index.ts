/**
 * Merchant certification: the kit plays the gateway against a merchant's notify and
 * return endpoints (spec §5.5, §5.6, §6). `pgv2kit/certify`.
 * @example
 * import { runCertification, writeCertificationReports } from 'pgv2kit/certify';
 * const result = await runCertification({ notifyUrl: 'https://shop.test/hooks/pg', returnUrl: 'https://shop.test/thanks', appId: 'app_1', appSecret: process.env.PGV2_APP_SECRET ?? '', seed: 1 });
 * await writeCertificationReports(result, { dir: 'reports/certification', secrets: [] });
 * console.log(result.verdict); // 'CERTIFIED' or 'NOT CERTIFIED'
 * @module
 */
export { runCertification } from './certify.js';
export type { CertificationResult, CertifyOptions, CheckOutcome, RequirementResult, Verdict } from './certify.js';
export type { CheckResult, Handling, Judgement } from './judge.js';
export type { Expectation, HttpCall, PlanOptions, PlannedCheck, Requirement } from './plan-types.js';
export { CERTIFICATION_FILES, CertificationReportError, verdictLine, writeCertificationReports } from './report.js';
export { SAMPLE_CREDENTIALS, startSampleMerchant } from './sample.js';
export type { StartedSample } from './sample.js';
