/** (h) Reads the Authorization items by position (appId, sign, timestamp, nonce), not by name (R8). */
import {
  startMerchant,
  verifyRedirect,
  verifyWebhook,
  type MerchantOptions,
  type ParseResult,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';

function parseByPosition(header: string | undefined): ParseResult {
  if (header === undefined || !header.startsWith('V2_SHA256 ')) return { ok: false, reason: 'scheme is not V2_SHA256' };
  const values = header
    .slice('V2_SHA256 '.length)
    .split(',')
    .map((item) => item.slice(item.indexOf('=') + 1));
  const [appId, sign, timestamp, nonce] = values;
  if (appId === undefined || sign === undefined || timestamp === undefined || nonce === undefined)
    return { ok: false, reason: 'missing item' };
  return { ok: true, items: { appId, sign, timestamp, nonce } };
}

export function startDefectiveMerchant(options: MerchantOptions): Promise<RunningMerchant> {
  return startMerchant({
    ...options,
    verifyWebhook: (ctx) => verifyWebhook({ ...ctx, parseAuthorization: parseByPosition }),
    verifyRedirect: (ctx) => verifyRedirect({ ...ctx, parseAuthorization: parseByPosition }),
  });
}
