/** (d) Validates the webhook payload against a fixed field list and refuses unknown fields (R15). */
import {
  startMerchant,
  verifyWebhook,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

const KNOWN = new Set([
  'amount',
  'createdTime',
  'currency',
  'merchantAttach',
  'merchantTradeNo',
  'paymentNo',
  'refundStatus',
  'status',
]);

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => {
      try {
        const payload = JSON.parse(ctx.body.toString('utf8')) as Record<string, unknown>;
        const unknown = Object.keys(payload).find((k) => !KNOWN.has(k));
        if (unknown !== undefined) return { valid: false, reason: `unexpected field ${unknown}` };
      } catch {
        return { valid: false, reason: 'body is not JSON' };
      }
      return verifyWebhook(ctx);
    },
  });
}
