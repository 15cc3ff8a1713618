/** (a) Accepts every webhook and every redirect: the verification was never written. */
import {
  startMerchant,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: () => ({ valid: true, reason: 'not checked' }),
    verifyRedirect: () => ({ valid: true, reason: 'not checked' }),
  });
}
