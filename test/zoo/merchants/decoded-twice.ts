/** (h) Decodes the redirect's payment value twice (a framework decoded it, then the merchant's own urldecode) before verifying (R11). */
import {
  decodeQueryValue,
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
      // as PHP's urldecode: '+' a space, and a '%' that starts no escape left as it is
      const twice = decodeQueryValue(q.payment) ?? q.payment.replace(/\+/g, ' ');
      return verifySignature({
        ...ctx,
        method: 'GET',
        url: ctx.returnUrl,
        authorization: q.authorization,
        body: `payment=${twice}`,
      });
    },
  });
}
