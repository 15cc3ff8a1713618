/**
 * Which known mistakes could explain a refusal of a genuine message. A verifier's refusal is
 * one bit: no answer says which mistake made it. But a mistake can only explain the refusal of
 * a message whose content (or sign, or the values its header is read to) it changes; the
 * triage joins a refusal to the group of a mistake diagnosed elsewhere in the run only when
 * that mistake is among these (src/runner/triage.ts). One function per kind, each its role's
 * (src/roles/<role>/role.ts: `couldExplain`); the merchant's is in ./merchant.ts.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { parseAuthorization, type AuthorizationItems } from '../scheme/authorization.js';
import { decodeQueryComponent, queryParameters } from '../scheme/redirect.js';
import { bodyBytes } from '../vectors/fields.js';
import type { VectorCase } from '../vectors/types.js';
import { refused } from './common.js';
import { PARSER_MISTAKES } from './authorization.js';
import { differingMistakes, type ByteParts } from './mistakes.js';
import { redirectRefusalCauses } from './redirect.js';

/**
 * The signature kind's: a verify step that refused a valid case, the mistakes whose content differs.
 * @param c - the case
 * @param outcome - the step's outcome
 * @returns mistake ids; empty unless a verify step refused a valid case
 * @example
 * signatureRefusalCauses(vectorCase('signature.payment-create'), {
 *   op: 'request.verify',
 *   status: 'fail',
 *   expected: { valid: true },
 *   got: { result: { valid: false } },
 *   message: 'refused',
 * }).slice(0, 2) // ['no-final-lf', 'extra-final-lf']
 */
export function signatureRefusalCauses(c: Extract<VectorCase, { kind: 'signature' }>, outcome: OpOutcome): string[] {
  if (!refusedGenuine(c, outcome) || outcome.op !== 'request.verify') return [];
  const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
  return differingMistakes({ appId, appSecret, method, url, timestamp, nonce, body: bodyBytes(c.inputs) }).map(
    (m) => m.id,
  );
}

/**
 * The request, response and webhook kinds': the mistakes whose content differs for the message,
 * the delivery URL when it is not the notifyUrl, and the wrong parsers that misread its header.
 * @param c - the case
 * @param outcome - the step's outcome
 * @returns mistake ids; empty unless a verify step refused a valid case
 * @example
 * messageRefusalCauses(vectorCase('webhook.behind-proxy'), {
 *   op: 'webhook.verify',
 *   status: 'fail',
 *   expected: { valid: true },
 *   got: { result: { valid: false } },
 *   message: 'refused',
 * }).includes('delivery-url') // true
 */
export function messageRefusalCauses(
  c: Extract<VectorCase, { kind: 'request' | 'response' | 'webhook' }>,
  outcome: OpOutcome,
): string[] {
  if (!refusedGenuine(c, outcome)) return [];
  const header = c.inputs.authorization;
  const parsed = header ? parseAuthorization(header) : undefined;
  if (!header || !parsed?.ok) return [];
  const url = c.kind === 'webhook' ? c.inputs.notifyUrl : c.inputs.url;
  const parts: ByteParts = {
    appId: c.inputs.appId,
    appSecret: c.inputs.appSecret,
    method: c.inputs.method,
    url,
    timestamp: parsed.items.timestamp,
    nonce: parsed.items.nonce,
    body: bodyBytes(c.inputs),
  };
  const delivery =
    c.kind === 'webhook' && c.inputs.deliveryUrl !== undefined && c.inputs.deliveryUrl !== c.inputs.notifyUrl
      ? ['delivery-url']
      : [];
  return [...differingMistakes(parts).map((m) => m.id), ...delivery, ...parsersMisreading(header, parsed.items)];
}

/**
 * The redirect kind's: the redirect mistakes whose content differs, and the parsers that misread its authorization.
 * @param c - the case
 * @param outcome - the step's outcome
 * @returns mistake ids; empty unless a verify step refused a valid case
 * @example
 * redirectCaseRefusalCauses(vectorCase('redirect.basic'), {
 *   op: 'redirect.verify',
 *   status: 'fail',
 *   expected: { valid: true },
 *   got: { result: { valid: false } },
 *   message: 'refused',
 * }).length > 0 // true
 */
export function redirectCaseRefusalCauses(c: Extract<VectorCase, { kind: 'redirect' }>, outcome: OpOutcome): string[] {
  if (!refusedGenuine(c, outcome)) return [];
  const raw = queryParameters(c.inputs.redirectUrl).filter(([n]) => n === 'authorization');
  const header = raw.length === 1 && raw[0] ? decodeQueryComponent(raw[0][1]) : undefined;
  const parsed = header === undefined ? undefined : parseAuthorization(header);
  return [
    ...redirectRefusalCauses(c),
    ...(header !== undefined && parsed?.ok ? parsersMisreading(header, parsed.items) : []),
  ];
}

/**
 * The authorization kind's: the wrong parsers that read other values from a valid header (or none).
 * @param c - the case
 * @param outcome - the step's outcome
 * @returns mistake ids; empty unless a parse step refused a valid header
 * @example
 * authorizationRefusalCauses(vectorCase('authorization.order-appid-sign-nonce-timestamp'), {
 *   op: 'authorization.parse',
 *   status: 'fail',
 *   expected: null,
 *   got: { rejected: { reason: 'no' } },
 *   message: 'refused',
 * }).includes('items-by-position') // true
 */
export function authorizationRefusalCauses(
  c: Extract<VectorCase, { kind: 'authorization' }>,
  outcome: OpOutcome,
): string[] {
  if (!refusedGenuine(c, outcome)) return [];
  const header = 'header' in c.inputs ? c.inputs.header : undefined;
  const parsed = header === undefined ? undefined : parseAuthorization(header);
  return header !== undefined && parsed?.ok ? parsersMisreading(header, parsed.items) : [];
}

// --- internal ---

/** A failed step that refused a valid case: the only refusal a mistake can explain. */
function refusedGenuine(c: VectorCase, outcome: OpOutcome): boolean {
  return outcome.status === 'fail' && c.result === 'valid' && refused(outcome.got);
}

/** The known wrong parsers that read other values from the header than the right ones (or none). */
function parsersMisreading(header: string, right: AuthorizationItems): string[] {
  return PARSER_MISTAKES.filter(({ read }) => {
    const theirs = read(header);
    return (
      theirs === undefined || (['appId', 'sign', 'timestamp', 'nonce'] as const).some((n) => theirs[n] !== right[n])
    );
  }).map((m) => m.id);
}
