/**
 * (m) Reads the redirect's parameters as Go's `r.URL.Query().Get` and the WHATWG
 * `URLSearchParams.get` do: a repeated name gives its FIRST occurrence, with no check that
 * payment and authorization come once each (R11).
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
      const payment = query.get('payment');
      const authorization = query.get('authorization');
      if (payment === null || authorization === null)
        return { valid: false, reason: 'payment or authorization missing' };
      return verifySignature({ ...ctx, method: 'GET', url: ctx.returnUrl, authorization, body: `payment=${payment}` });
    },
  });
}
