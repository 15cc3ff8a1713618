/**
 * The fuzz oracle: the reference parser with reading R8 decides what any parser must
 * do with a header — accept it with the reference's values, refuse it, or either
 * (R8's "either way" rows: white space, unknown extra items, scheme case).
 * @module
 */
import { parseAuthorization, type AuthorizationItems, type HeaderProblem, type Tolerance } from '../scheme/authorization.js';

/** What R8 requires of a parser given a header. */
export type OracleVerdict =
  | { readonly verdict: 'must-accept'; readonly items: AuthorizationItems }
  | { readonly verdict: 'must-refuse'; readonly problem: HeaderProblem; readonly message: string }
  | { readonly verdict: 'either'; readonly items: AuthorizationItems; readonly tolerated: readonly Tolerance[] };

/**
 * Decides what R8 requires for a header.
 * @param header - the header value
 * @returns must-accept (parses with no tolerated deviation, with these values),
 *   must-refuse (the reference refuses it), or either (parses only with a tolerated deviation;
 *   a parser that accepts must give these values)
 * @example oracle('V2_SHA256 nonce=n,appId=a,sign=00,timestamp=1').verdict // 'must-accept'
 */
export function oracle(header: string): OracleVerdict {
  const parsed = parseAuthorization(header);
  if (!parsed.ok) return { verdict: 'must-refuse', problem: parsed.problem, message: parsed.message };
  if (parsed.tolerated.length === 0) return { verdict: 'must-accept', items: parsed.items };
  return { verdict: 'either', items: parsed.items, tolerated: parsed.tolerated };
}
