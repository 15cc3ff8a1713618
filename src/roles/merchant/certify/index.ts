/**
 * Merchant certification: a merchant-role run (the kit playing the gateway against a merchant's
 * notify and return endpoints, spec §5.5, §5.6, §6) mapped to CERTIFIED or NOT CERTIFIED.
 * `pgv2kit/certify`.
 * @example
 * import { runCertification, startSampleMerchant, writeCertificationReports } from 'pgv2kit/certify';
 * // the sample merchant on loopback; yours: { appId, appSecret, notifyUrl, returnUrl } as registered
 * const merchant = await startSampleMerchant();
 * const result = await runCertification({ ...merchant, seed: 1, acceptBody: 'SUCCESS' });
 * await writeCertificationReports(result, { dir: `${tmp}/certification`, secrets: [merchant.appSecret] });
 * await merchant.close();
 * result.verdict // 'CERTIFIED'
 * @module
 */
export { certificationOf, runCertification } from './certify.js';
export type {
  CertificationResult,
  CertificationVerdict,
  CertifyOptions,
  CheckOutcome,
  CheckResult,
  Expectation,
  Judgement,
  RequirementResult,
} from './certify.js';
export type { Handling } from '../as-gateway/handling.js';
export type { HttpCall, MerchantTarget } from '../as-gateway/call.js';
export { createMerchantSubject } from '../subject.js';
export type { MerchantAnswer, MerchantSubjectOptions } from '../subject.js';
export { CERTIFICATION_FILES, verdictLine, writeCertificationReports } from './report.js';
export { SAMPLE_CREDENTIALS, startSampleMerchant } from './sample.js';
export type { StartedSample } from './sample.js';
