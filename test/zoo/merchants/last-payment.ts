/**
 * (l) Reads the redirect's parameters as PHP's `$_GET` does: a repeated name keeps its LAST
 * occurrence, with no check that payment and authorization come once each (R11).
 */
import {
  startMerchant,
  verifySignature,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyRedirect: (ctx) => {
      const query = new URL(ctx.url).searchParams;
      const get: Record<string, string> = {};
      for (const [name, value] of query) get[name] = value;
      if (get.payment === undefined || get.authorization === undefined)
        return { valid: false, reason: 'payment or authorization missing' };
      return verifySignature({
        ...ctx,
        method: 'GET',
        url: ctx.returnUrl,
        authorization: get.authorization,
        body: `payment=${get.payment}`,
      });
    },
  });
}
