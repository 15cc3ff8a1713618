/**
 * (k) The comparison of prefix-sign.ts (over the received sign's length) with a parser that
 * never checks for empty values: `sign=` compares zero characters, so every forged call gets in.
 */
import {
  readRedirectQuery,
  startMerchant,
  type MerchantOptions,
  type ParseResult,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';
import { verifyByReceivedLength } from './_prefix-compare.js';

const ITEMS = ['appId', 'sign', 'timestamp', 'nonce'] as const;

/** The sample's parser without its empty-value check. */
function parseWithoutEmptyCheck(header: string | undefined): ParseResult {
  const m = header === undefined ? null : /^V2_SHA256\s+(.*)$/s.exec(header.trim());
  if (!m?.[1]) return { ok: false, reason: 'scheme is not V2_SHA256' };
  const items: Partial<Record<(typeof ITEMS)[number], string>> = {};
  for (const raw of m[1].split(',')) {
    const eq = raw.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed item' };
    const name = raw.slice(0, eq).trim() as (typeof ITEMS)[number];
    if (!ITEMS.includes(name)) continue;
    if (items[name] !== undefined) return { ok: false, reason: `duplicate ${name}` };
    items[name] = raw.slice(eq + 1).trim();
  }
  const { appId, sign, timestamp, nonce } = items;
  if (appId === undefined || sign === undefined || timestamp === undefined || nonce === undefined)
    return { ok: false, reason: 'missing item' };
  return { ok: true, items: { appId, sign, timestamp, nonce } };
}

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => verifyByReceivedLength({ ...ctx, url: ctx.notifyUrl, parse: parseWithoutEmptyCheck }),
    verifyRedirect: (ctx) => {
      const q = readRedirectQuery(ctx.url);
      if (!q.ok) return { valid: false, reason: q.reason };
      return verifyByReceivedLength({
        ...ctx,
        method: 'GET',
        url: ctx.returnUrl,
        authorization: q.authorization,
        body: `payment=${q.payment}`,
        parse: parseWithoutEmptyCheck,
      });
    },
  });
}
