/**
 * What the zoo's registry says about vector cases: the parts a case puts into a
 * signature content, the Authorization header it carries, its redirect parameters.
 * Read from the vector files' inputs only (never from a subject), so that `mustFail`
 * predicates state which cases a bug concerns in terms of the vectors.
 * @module
 */
import { decodeQueryComponent, queryParameters } from '../../src/scheme/redirect.js';
import { bodyBytes } from '../../src/vectors/fields.js';
import type { VectorCase } from '../../src/vectors/types.js';

/** The four item names in the order of the spec's example (§5.3). */
export const SPEC_ORDER = ['appId', 'sign', 'timestamp', 'nonce'] as const;

/** Kinds whose cases carry a signed message that a verifier checks. */
const MESSAGE_KINDS = ['request', 'response', 'webhook', 'redirect'] as const;

/**
 * A genuine signed message: a valid request, response, webhook or redirect case (a
 * correct verifier accepts it; a verifier whose content differs refuses it).
 */
export function isGenuineMessage(c: VectorCase): boolean {
  return c.result === 'valid' && (MESSAGE_KINDS as readonly string[]).includes(c.kind);
}

/** Part 4 of the content the case's signer or verifier builds (undefined for kinds without one). */
export function urlPart(c: VectorCase): string | undefined {
  switch (c.kind) {
    case 'signature':
    case 'request':
    case 'response':
      return c.inputs.url;
    case 'webhook':
      return c.inputs.notifyUrl;
    case 'redirect':
      return c.inputs.returnUrl;
    default:
      return undefined;
  }
}

/** The raw (still encoded) value of the only redirect parameter of that name, if there is exactly one. */
export function redirectParam(c: VectorCase, name: 'payment' | 'authorization'): string | undefined {
  if (c.kind !== 'redirect') return undefined;
  const found = queryParameters(c.inputs.redirectUrl).filter(([n]) => n === name);
  return found.length === 1 ? found[0]?.[1] : undefined;
}

/**
 * A redirect parameter's value as read by a handler that decodes the whole query first and
 * then splits it at "&" and the first "=" (undefined: not exactly one such parameter, or
 * the query does not decode).
 */
export function wholeQueryParam(c: VectorCase, name: 'payment' | 'authorization'): string | undefined {
  if (c.kind !== 'redirect') return undefined;
  const landed = c.inputs.redirectUrl.split('#')[0] ?? '';
  const decoded = landed.includes('?') ? decodeQueryComponent(landed.slice(landed.indexOf('?') + 1)) : '';
  const found = (decoded ?? '').split('&').filter((pair) => pair.startsWith(`${name}=`));
  return decoded === undefined || found.length !== 1 ? undefined : found[0]?.slice(name.length + 1);
}

/** Part 7 of the content: the body bytes, or for a redirect `payment=` and the decoded payment. */
export function bodyPart(c: VectorCase): Uint8Array | undefined {
  switch (c.kind) {
    case 'signature':
    case 'request':
    case 'response':
    case 'webhook':
      return bodyBytes(c.inputs);
    case 'redirect': {
      const raw = redirectParam(c, 'payment');
      const decoded = raw === undefined ? undefined : decodeQueryComponent(raw);
      return decoded === undefined ? undefined : Buffer.from(`payment=${decoded}`, 'utf8');
    }
    default:
      return undefined;
  }
}

/** The text parts 1, 2, 4 and 6 the content holds besides the body (appId, secret, URL, nonce). */
export function textParts(c: VectorCase): string[] {
  const url = urlPart(c);
  if (
    url === undefined ||
    c.kind === 'authorization' ||
    c.kind === 'upload' ||
    c.kind === 'gateway' ||
    c.kind === 'merchant'
  )
    return [];
  const header = headerOf(c);
  const nonce = header ? itemPairs(header).find(([n]) => n === 'nonce')?.[1] : undefined;
  return [c.inputs.appId, c.inputs.appSecret, url, ...(nonce === undefined ? [] : [nonce])];
}

/**
 * The Authorization header a case hands a parser or verifier: the header of an
 * authorization.parse case, the message's header, the decoded redirect parameter, or
 * for a signature case the one the check builds (spec order, the candidate's sign).
 */
export function headerOf(c: VectorCase): string | undefined {
  switch (c.kind) {
    case 'authorization':
      return c.op === 'authorization.parse' ? c.inputs.header : undefined;
    case 'signature': {
      const { appId, timestamp, nonce } = c.inputs;
      return `V2_SHA256 appId=${appId},sign=${c.candidate?.sign ?? c.expected.sign},timestamp=${timestamp},nonce=${nonce}`;
    }
    case 'request':
    case 'response':
    case 'webhook':
      return c.inputs.authorization ?? undefined;
    case 'redirect': {
      const raw = redirectParam(c, 'authorization');
      return raw === undefined ? undefined : decodeQueryComponent(raw);
    }
    default:
      return undefined;
  }
}

/** A header's items as [name, value] pairs in order (split at the first "=", white space trimmed). */
export function itemPairs(header: string): Array<[string, string]> {
  const rest = header.trim().replace(/^\S+[ \t]+/, '');
  return rest.split(',').map((raw) => {
    const item = raw.trim();
    const eq = item.indexOf('=');
    return eq < 0 ? [item, ''] : [item.slice(0, eq), item.slice(eq + 1)];
  });
}

/** Whether the header's first four items are not appId, sign, timestamp, nonce in that order. */
export function itemsOutOfSpecOrder(header: string): boolean {
  return itemPairs(header)
    .slice(0, 4)
    .some(([name], i) => name !== SPEC_ORDER[i]);
}

/** Text of UTF-8 bytes, or undefined when they are not UTF-8. */
export function utf8Text(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
