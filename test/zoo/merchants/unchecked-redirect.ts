/** (e) Does not check the return redirect at all (webhook checked correctly). */
import {
  startMerchant,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({ ...options, verifyRedirect: () => ({ valid: true, reason: 'not checked' }) });
}
