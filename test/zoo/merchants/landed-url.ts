/**
 * (g) Puts the URL the browser landed on into part 4 of the redirect content, the gateway's
 * added parameters (payment, authorization, paymentNo, merchantTradeNo) included (5.6).
 * Scheme, host and path are the registered ones, so this is the only difference.
 */
import {
  startMerchant,
  verifyRedirect,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyRedirect: (ctx) => {
      const base = ctx.returnUrl.split('?')[0] ?? ctx.returnUrl;
      const landed = ctx.url.split('#')[0] ?? ctx.url;
      const q = landed.indexOf('?');
      return verifyRedirect({ ...ctx, returnUrl: q < 0 ? base : base + landed.slice(q) });
    },
  });
}
