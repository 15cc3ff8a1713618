/** (j) Compares the sign case-insensitively over the length of the sign it received (strncasecmp, startsWith); its parser refuses empty values. */
import {
  readRedirectQuery,
  startMerchant,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';
import { verifyByReceivedLength } from './_prefix-compare.js';

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => verifyByReceivedLength({ ...ctx, url: ctx.notifyUrl }),
    verifyRedirect: (ctx) => {
      const q = readRedirectQuery(ctx.url);
      if (!q.ok) return { valid: false, reason: q.reason };
      return verifyByReceivedLength({
        ...ctx,
        method: 'GET',
        url: ctx.returnUrl,
        authorization: q.authorization,
        body: `payment=${q.payment}`,
      });
    },
  });
}
