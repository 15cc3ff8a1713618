/** (b) Verifies the webhook over JSON.stringify(JSON.parse(body)) instead of the raw bytes (5.4/5.5). */
import {
  startMerchant,
  verifyWebhook,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => {
      let body: string;
      try {
        body = JSON.stringify(JSON.parse(ctx.body.toString('utf8')));
      } catch {
        return { valid: false, reason: 'body is not JSON' };
      }
      return verifyWebhook({ ...ctx, body });
    },
  });
}
