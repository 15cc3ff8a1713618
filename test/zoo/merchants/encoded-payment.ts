/** (f) Verifies the redirect over the payment value as it stands in the query, still percent-encoded (R11). */
import {
  readRedirectQuery,
  startMerchant,
  verifySignature,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyRedirect: (ctx) => {
      const q = readRedirectQuery(ctx.url);
      if (!q.ok) return { valid: false, reason: q.reason };
      return verifySignature({
        ...ctx,
        method: 'GET',
        url: ctx.returnUrl,
        authorization: q.authorization,
        body: `payment=${q.rawPayment}`,
      });
    },
  });
}
