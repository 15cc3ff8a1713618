/**
 * The merchant role: a merchant's notify and return endpoints, the kit playing the gateway —
 * webhooks and return redirects, genuine and forged (spec §5.5, §5.6, §6); certification maps it.
 * @module
 */
import { merchantCheck } from './check.js';
import { diagnoseMerchant, merchantPattern, merchantRefusalCauses } from './diagnosis.js';
import { defineRole } from '../role.js';

/**
 * The merchant role.
 * @example merchantRole.kinds.merchant.check.kind // 'merchant'
 */
export const merchantRole = defineRole({
  name: 'merchant',
  title: "a merchant's notify and return endpoints, the kit playing the gateway",
  endToEnd: true,
  // in case order, one at a time: a replay follows the call it repeats
  target: { option: 'merchant', concurrency: 1 },
  // a forged call the merchant accepted, by the forgery (the run's pattern decides: merchantPattern)
  kinds: {
    merchant: {
      check: merchantCheck,
      diagnose: diagnoseMerchant,
      couldExplain: merchantRefusalCauses,
      implementation: { verifies: true },
    },
  },
  // a merchant is a black box: its mistakes show in the pattern of its answers over the whole run
  pattern: (cases, caseOf) =>
    merchantPattern(cases, (id) => {
      const c = caseOf(id);
      return c?.kind === 'merchant' ? c : undefined;
    }),
});
