/**
 * Which known mistakes could explain a refusal of a genuine message. A verifier's refusal is
 * one bit: no answer says which mistake made it. But a mistake can only explain the refusal of
 * a message whose content (or sign, or the values its header is read to) it changes; the
 * triage joins a refusal to the group of a mistake diagnosed elsewhere in the run only when
 * that mistake is among these (src/runner/triage.ts).
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { parseAuthorization, type AuthorizationItems } from '../scheme/authorization.js';
import { decodeQueryComponent, queryParameters } from '../scheme/redirect.js';
import { bodyBytes } from '../vectors/fields.js';
import type { VectorCase } from '../vectors/types.js';
import { refused } from './_common.js';
import { PARSER_MISTAKES } from './authorization.js';
import { merchantRefusalCauses } from './merchant.js';
import { differingMistakes, type ByteParts } from './mistakes.js';
import { redirectRefusalCauses } from './redirect.js';

/**
 * The known mistakes whose content, sign or header reading differs from the right one for
 * this case: those that could explain a verifier refusing it.
 * @param c - the case
 * @param outcome - the operation's outcome
 * @returns mistake ids; empty unless the outcome is a failed verify (or parse) step that refused a valid case
 */
export function refusalCauses(c: VectorCase, outcome: OpOutcome): string[] {
  // a merchant's answer is an HTTP answer: what it did is its handling
  if (c.kind === 'merchant') return merchantRefusalCauses(c, outcome);
  if (outcome.status !== 'fail' || c.result !== 'valid' || !refused(outcome.got)) return [];
  switch (c.kind) {
    case 'signature': {
      if (outcome.op !== 'request.verify') return [];
      const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
      return differingMistakes({ appId, appSecret, method, url, timestamp, nonce, body: bodyBytes(c.inputs) }).map((m) => m.id);
    }
    case 'request':
    case 'response':
    case 'webhook': {
      const header = c.inputs.authorization;
      const parsed = header ? parseAuthorization(header) : undefined;
      if (!header || !parsed?.ok) return [];
      const url = c.kind === 'webhook' ? c.inputs.notifyUrl : c.inputs.url;
      const parts: ByteParts = { appId: c.inputs.appId, appSecret: c.inputs.appSecret, method: c.inputs.method, url, timestamp: parsed.items.timestamp, nonce: parsed.items.nonce, body: bodyBytes(c.inputs) };
      const delivery = c.kind === 'webhook' && c.inputs.deliveryUrl !== undefined && c.inputs.deliveryUrl !== c.inputs.notifyUrl ? ['delivery-url'] : [];
      return [...differingMistakes(parts).map((m) => m.id), ...delivery, ...parsersMisreading(header, parsed.items)];
    }
    case 'redirect': {
      const raw = queryParameters(c.inputs.redirectUrl).filter(([n]) => n === 'authorization');
      const header = raw.length === 1 && raw[0] ? decodeQueryComponent(raw[0][1]) : undefined;
      const parsed = header === undefined ? undefined : parseAuthorization(header);
      return [...redirectRefusalCauses(c), ...(header !== undefined && parsed?.ok ? parsersMisreading(header, parsed.items) : [])];
    }
    case 'authorization': {
      const header = 'header' in c.inputs ? c.inputs.header : undefined;
      const parsed = header === undefined ? undefined : parseAuthorization(header);
      return header !== undefined && parsed?.ok ? parsersMisreading(header, parsed.items) : [];
    }
    default:
      return [];
  }
}

// --- internal ---

/** The known wrong parsers that read other values from the header than the right ones (or none). */
function parsersMisreading(header: string, right: AuthorizationItems): string[] {
  return PARSER_MISTAKES.filter(({ read }) => {
    const theirs = read(header);
    return theirs === undefined || (['appId', 'sign', 'timestamp', 'nonce'] as const).some((n) => theirs[n] !== right[n]);
  }).map((m) => m.id);
}
