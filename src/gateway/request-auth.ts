/**
 * The gateway's verification of a signed request (spec §5.1–§5.3; readings R3–R8,
 * R12): the header's appId is looked up among the merchants, then the request is
 * verified with the reference verifier ({@link verifyRequest}) over the method, the full
 * URL as the client sent it and the exact body bytes received. When the sign does not
 * match, the known signer mistakes are tried ({@link findMistakes}, plus two only the
 * gateway knows: the URL without the scenario prefix, and https for http) so that the
 * refusal and the record say what the client did wrong.
 *
 * Choices where the readings leave room: the header is read leniently (R8 "either
 * way": white space, extra items and a lower-case scheme are tolerated and recorded);
 * an upper-case sign is refused (R7: signers emit lower case); the timestamp and the
 * nonce are not checked against the clock or for reuse (R12).
 * @module
 */
import {
  parseAuthorization,
  type AuthorizationItems,
  type ParseOptions,
  type Tolerance,
} from '../scheme/authorization.js';
import { signatureContent } from '../scheme/content.js';
import { signContent } from '../scheme/sign.js';
import { describeVerifyProblem, verifyRequest, type VerifyProblem } from '../scheme/verify.js';
import { findMistakes, mistakeSummary, type Mistake } from '../diagnosis/mistakes.js';
import type { Merchant, MerchantBook } from './merchants.js';
import { clip } from '../scheme/text.js';

/** Why a request's signature was refused. */
export type AuthProblem = VerifyProblem | { readonly kind: 'unknown-app-id'; readonly appId: string };

/** The outcome of {@link authenticateRequest}. */
export type AuthOutcome =
  | {
      readonly valid: true;
      readonly merchant: Merchant;
      readonly items: AuthorizationItems;
      readonly tolerated: readonly Tolerance[];
    }
  | {
      readonly valid: false;
      readonly problem: AuthProblem;
      /** Why, in words; for a sign mismatch, with the mistake that reproduces the sign. */
      readonly message: string;
      /** The known mistakes that reproduce the sign (sign mismatch only; may be empty). */
      readonly mistakes: readonly FoundMistake[];
      /** The merchant, when the header named a known appId. */
      readonly merchant?: Merchant;
    };

/** A request as the gateway received it. */
export interface ReceivedRequest {
  /** The method as sent (R5). */
  readonly method: string;
  /** The full URL as the client sent it (R4). */
  readonly url: string;
  /** The Authorization header, or undefined. */
  readonly authorization: string | undefined;
  /** The body bytes as received (R3). */
  readonly body: Uint8Array;
  /** The `/s/<id>` prefix the path carried, if any (tried as a known mistake). */
  readonly scenarioPrefix?: string;
}

/**
 * Verifies a request's signature as the gateway does.
 * @param merchants - the merchants the gateway knows
 * @param request - the request as received
 * @param header - the header parser's further R8 choices (empty elements ignored, names folded); default neither
 * @returns valid with the merchant, or the problem with a message and the mistakes found
 * @example
 * authenticateRequest(new MerchantBook([{ appId, appSecret }]), { method: 'POST', url, authorization, body }).valid
 */
export function authenticateRequest(
  merchants: MerchantBook,
  request: ReceivedRequest,
  header: HeaderChoices = {},
): AuthOutcome {
  const refused = (
    problem: AuthProblem,
    message: string,
    mistakes: readonly FoundMistake[] = [],
    merchant?: Merchant,
  ): AuthOutcome => ({
    valid: false,
    problem,
    message,
    mistakes,
    ...(merchant ? { merchant } : {}),
  });
  const value = request.authorization;
  if (value === undefined)
    return refused({ kind: 'no-authorization' }, 'no Authorization header: every request is signed (V2_SHA256, 5.3)');
  const parsed = parseAuthorization(value, header);
  if (!parsed.ok)
    return refused(
      { kind: 'malformed-authorization', header: parsed.problem },
      `Authorization refused: ${parsed.message} (5.3, R8)`,
    );
  const merchant = merchants.get(parsed.items.appId);
  if (!merchant)
    return refused(
      { kind: 'unknown-app-id', appId: parsed.items.appId },
      `unknown appId ${JSON.stringify(clip(parsed.items.appId, 40))}: no merchant has it`,
    );
  const outcome = verifyRequest(
    { ...merchant, method: request.method, url: request.url, authorization: value, body: request.body },
    { header },
  );
  if (outcome.valid) return { valid: true, merchant, items: outcome.items, tolerated: outcome.tolerated };
  if (outcome.problem.kind !== 'sign-mismatch')
    return refused(outcome.problem, `${describeVerifyProblem(outcome.problem)} (5.2, R7)`, [], merchant);
  const { timestamp, nonce, sign } = parsed.items;
  const parts = {
    appId: merchant.appId,
    appSecret: merchant.appSecret,
    method: request.method,
    url: request.url,
    timestamp,
    nonce,
    body: request.body,
  };
  const mistakes = [...findMistakes(parts, sign), ...gatewayMistakes(parts, sign, request.scenarioPrefix)];
  const first = mistakes[0];
  const message = first
    ? `sign does not match: ${summary(first)} — ${first.description} (${first.ref})`
    : 'sign does not match the signature content of this request (5.1, 5.2); ' +
      'no known mistake reproduces it (wrong secret?)';
  return refused(outcome.problem, message, mistakes, merchant);
}

/**
 * Mistakes only the gateway can try, because only it knows how the URL was reached.
 * @example GATEWAY_MISTAKES.map((m) => m.id) // ['url-without-scenario-prefix', 'url-https']
 */
export const GATEWAY_MISTAKES: readonly GatewayMistake[] = [
  {
    id: 'url-without-scenario-prefix',
    ref: 'R4',
    description: 'part 4 was the URL without the /s/<scenario id> prefix the request was sent to',
    summary: 'the URL signed differs from the URL sent',
  },
  {
    id: 'url-https',
    ref: 'R4',
    description: 'part 4 was the URL with https:// while the request was sent over http://',
    summary: 'the URL signed differs from the URL sent',
  },
];

/** The gateway's choices where R8 (d) and (e) leave the header parser free. */
export type HeaderChoices = Pick<ParseOptions, 'ignoreEmpty' | 'foldNames'>;

/** A mistake only the gateway tries (no vector flags it): its summary is its own. */
export type GatewayMistake = Omit<Mistake, 'flag'> & { readonly summary: string };

/** A mistake that reproduced a sign: one of the catalogue's, or the gateway's own. */
export type FoundMistake = Mistake | GatewayMistake;

// --- internal ---

type Parts = Parameters<typeof findMistakes>[0];

function gatewayMistakes(parts: Parts, headerSign: string, prefix: string | undefined): GatewayMistake[] {
  const wanted = headerSign.toLowerCase();
  const urls: Array<[GatewayMistake | undefined, string | undefined]> = [
    // The prefix is a path segment: its first occurrence in the URL is the one sent.
    [GATEWAY_MISTAKES[0], prefix ? parts.url.replace(prefix, '') : undefined],
    [GATEWAY_MISTAKES[1], parts.url.startsWith('http://') ? `https://${parts.url.slice('http://'.length)}` : undefined],
  ];
  return urls
    .filter(([m, url]) => m && url !== undefined && signContent(signatureContent({ ...parts, url })) === wanted)
    .map(([m]) => m as GatewayMistake);
}

/** What kind of difference a mistake is, in the words of the record: its kind's summary in the catalogue. */
function summary(m: FoundMistake): string {
  return 'flag' in m ? mistakeSummary(m) : m.summary;
}
