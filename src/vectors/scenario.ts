/**
 * Scenarios: how the reference gateway behaves for one client-role case. A client
 * under test is given a base URL with the scenario in its path
 * (`http://127.0.0.1:<port>/s/<scenario id>`), so the gateway knows which behaviour
 * to play and records what that client sent under the scenario's id.
 * @module
 */

/** How the 2.3 envelope's bytes are written (all valid JSON, only the first canonical). */
export type ResponseBytes = 'compact' | 'pretty' | 'reordered' | 'unicode-escapes' | 'null-fields' | 'extra-fields';

/** How the response is signed (5.4). */
export type ResponseSignature = 'valid' | 'tampered' | 'foreign-app-id' | 'wrong-secret' | 'missing';

/** What the gateway does for one scenario. Every field is optional: the default is the plain, correct gateway. */
export interface Scenario {
  /** The credentials response (and the payment/create response). */
  readonly response?: {
    readonly bytes?: ResponseBytes;
    readonly signature?: ResponseSignature;
  };
  /** The formFields of 2.4. */
  readonly formFields?: {
    /** The vendor of the x-<vendor>-* entries. Default `amz`. */
    readonly vendor?: string;
    /** Entries added after the usual ones, as [name, value]. */
    readonly extra?: ReadonlyArray<readonly [string, string]>;
    /** Give values with spaces, "+", "/", "=" (in key and tagging). */
    readonly specialValues?: boolean;
  };
  /** The upload listener. */
  readonly upload?: {
    /** The uploadUrl is already expired when issued (the clock moved past 10 minutes). */
    readonly expired?: boolean;
  };
}
