/** (i) Never compares the header's appId with its own (R9): signs with its own appId and stops there. */
import {
  startMerchant,
  verifyRedirect,
  verifyWebhook,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => verifyWebhook({ ...ctx, checkAppId: false }),
    verifyRedirect: (ctx) => verifyRedirect({ ...ctx, checkAppId: false }),
  });
}
