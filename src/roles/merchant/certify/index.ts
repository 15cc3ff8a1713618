/**
 * Merchant certification: a merchant-role run (the kit playing the gateway against a merchant's
 * notify and return endpoints, spec §5.5, §5.6, §6) mapped to CERTIFIED or NOT CERTIFIED.
 * `pgv2kit/certify`.
 * @example
 * import { runCertification, writeCertificationReports } from 'pgv2kit/certify';
 * const result = await runCertification({ notifyUrl: 'https://shop.test/hooks/pg', returnUrl: 'https://shop.test/thanks', appId: 'app_1', appSecret: process.env.PGV2_APP_SECRET ?? '', seed: 1 });
 * await writeCertificationReports(result, { dir: 'reports/certification', secrets: [] });
 * console.log(result.verdict); // 'CERTIFIED' or 'NOT CERTIFIED'
 * @module
 */
export { certificationOf, runCertification } from './certify.js';
export type { CertificationResult, CertificationVerdict, CertifyOptions, CheckOutcome, CheckResult, Expectation, Judgement, RequirementResult } from './certify.js';
export type { Handling } from '../as-gateway/handling.js';
export type { HttpCall, MerchantTarget } from '../as-gateway/call.js';
export { createMerchantSubject } from '../subject.js';
export type { MerchantAnswer, MerchantSubjectOptions } from '../subject.js';
export { CERTIFICATION_FILES, verdictLine, writeCertificationReports } from './report.js';
export { SAMPLE_CREDENTIALS, startSampleMerchant } from './sample.js';
export type { StartedSample } from './sample.js';
