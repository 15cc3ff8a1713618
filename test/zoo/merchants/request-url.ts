/** (c) Puts the URL the webhook arrived on into part 4 instead of the registered notifyUrl (R10). */
import {
  startMerchant,
  verifyWebhook,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({ ...options, verifyWebhook: (ctx) => verifyWebhook({ ...ctx, notifyUrl: ctx.requestUrl }) });
}
