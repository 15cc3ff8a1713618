/**
 * How a merchant-role call writes its Authorization (the webhook's header, the redirect's
 * authorization parameter): correctly (5.3), or changed in one of the forgery classes a
 * vector names — the sign cut to a prefix, extended, a digit changed, not hex, another
 * message's sign; an item missing, empty, twice with another value, or given a new value
 * after signing; another scheme; none at all (R7, R8). Every change is one that every
 * reading refuses, or (upper-case hex, padding) one the case's result says is allowed; the
 * merchant check holds each call to what the readings allow (src/roles/merchant/as-gateway/expectation.ts).
 * @module
 */
import { ITEM_NAMES, type ItemName } from '../../../scheme/authorization.js';
import type { MerchantInputs } from '../../../vectors/types.js';

/** The Authorization changes of a merchant case's inputs. */
export type AuthorizationForm = MerchantInputs['authorization'];

/** The values a forged Authorization may need besides the genuine items. */
export interface ForgeryValues {
  /** Another merchant's appId. */
  readonly otherAppId: string;
  /** The genuine sign of another message (another payment; the same appId, timestamp and nonce). */
  readonly otherContentSign: string;
  /** A nonce the gateway never signed. */
  readonly otherNonce: string;
}

/**
 * The sign a case sends, from the genuine one.
 * @param genuine - the 64 lower-case hex digits of the right sign
 * @param change - the change the case names
 * @param otherContentSign - the sign of another message, for `other-content`
 * @returns the sign written in the header
 * @example changeSign('0123…', 'prefix-2', '') // '01'
 */
export function changeSign(
  genuine: string,
  change: NonNullable<NonNullable<AuthorizationForm>['sign']>,
  otherContentSign: string,
): string {
  switch (change) {
    case 'one-digit':
      return `${genuine.slice(0, 10)}${otherDigit(genuine[10])}${genuine.slice(11)}`;
    case 'zeros':
      return '0'.repeat(64);
    case 'short':
      return genuine.slice(1);
    case 'upper-case':
      return genuine.toUpperCase();
    case 'extra-digit':
      return `${genuine}0`;
    case 'first-digit':
      return `${otherDigit(genuine[0])}${genuine.slice(1)}`;
    case 'last-digit':
      return `${genuine.slice(0, 63)}${otherDigit(genuine[63])}`;
    case 'non-hex':
      // each digit as a letter g–v: 64 characters, none a hex digit (R7: non-hex is invalid)
      return [...genuine].map((d) => 'ghijklmnopqrstuv'[parseInt(d, 16)]).join('');
    case 'other-content':
      return otherContentSign;
    default:
      return genuine.slice(0, Number(change.slice('prefix-'.length)));
  }
}

/**
 * The Authorization value the inputs ask for, from the genuine items.
 * @param items - the genuine items (appId, sign, timestamp, nonce of the signature)
 * @param form - the case's changes (none: the correct header)
 * @param values - the other values a forgery uses
 * @returns the value, or undefined for no Authorization at all
 * @example
 * writeAuthorization(
 *   { appId: 'a', sign: '00', timestamp: '1', nonce: 'n' },
 *   { empty: 'sign' },
 *   { otherAppId: 'b', otherContentSign: '11', otherNonce: 'm' },
 * ) // 'V2_SHA256 appId=a,sign=,timestamp=1,nonce=n'
 */
export function writeAuthorization(
  items: Readonly<Record<ItemName, string>>,
  form: AuthorizationForm,
  values: ForgeryValues,
): string | undefined {
  const a = form ?? {};
  if (a.absent) return undefined;
  const it: Record<ItemName, string> = { ...items };
  if (a.appId) it.appId = values.otherAppId;
  if (a.sign) it.sign = changeSign(items.sign, a.sign, values.otherContentSign);
  if (a.empty) it[a.empty] = '';
  if (a.refreshed) it[a.refreshed] = otherValue(a.refreshed, items, values);
  if (a.form === 'bearer') return `Bearer ${it.sign}`;
  const order = a.order ?? ITEM_NAMES;
  let text = writeItems(
    it,
    order.filter((n) => n !== a.missing),
  );
  if (a.duplicate === 'sign') text = `${writeItems({ ...it, sign: '0'.repeat(64) }, order)},sign=${it.sign}`;
  if (a.duplicate === 'nonce') text = `${text},nonce=${it.nonce}`;
  if (a.twice) {
    const { item, genuine } = a.twice;
    const other = otherValue(item, items, values);
    const [first, last] = genuine === 'first' ? [it[item], other] : [other, it[item]];
    text = `${writeItems({ ...it, [item]: first }, order)},${item}=${last}`;
  }
  if (a.scheme) text = text.replace(/^V2_SHA256/, a.scheme);
  if (a.padded) text = ` ${text}\t`;
  return text;
}

// --- internal ---

/** `V2_SHA256 name=value,…` as written, values unchecked (a forged header may carry an empty one). */
function writeItems(items: Readonly<Record<ItemName, string>>, order: readonly ItemName[]): string {
  return `V2_SHA256 ${order.map((n) => `${n}=${items[n]}`).join(',')}`;
}

function otherDigit(d: string | undefined): string {
  return d === '0' ? '1' : '0';
}

/** Another value of an item than the genuine one: never equal to it. */
function otherValue(item: ItemName, items: Readonly<Record<ItemName, string>>, values: ForgeryValues): string {
  switch (item) {
    case 'appId':
      return values.otherAppId;
    case 'sign':
      return `${items.sign.slice(0, 63)}${otherDigit(items.sign[63])}`;
    case 'timestamp':
      return String(Number(items.timestamp) + 60_000);
    case 'nonce':
      return values.otherNonce;
  }
}
