/**
 * The shapes of a certification plan: its requirements, their checks, each check's call and
 * expectation (a module of its own: the plan builds them, the expectations check them).
 * @module
 */

/**
 * What the merchant must do with a call: `accept` it, `refuse` it, either
 * (`acceptable`, reported), or anything (`advisory`, reported, never failed).
 */
export type Expectation = 'accept' | 'refuse' | 'acceptable' | 'advisory';

/** One exact HTTP call: sent as written, headers in order, body bytes = UTF-8 of `body`. */
export interface HttpCall {
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body?: string;
}

/** One check: a call and the expected handling. */
export interface PlannedCheck {
  /** Stable id, e.g. `webhook.scheme.bearer`. */
  readonly id: string;
  /** What is sent, in words. */
  readonly title: string;
  readonly expect: Expectation;
  readonly call: HttpCall;
  /** Set when the check cannot be made with these URLs; it is then not sent. */
  readonly notApplicable?: string;
}

/** One requirement: spec sections → checks. */
export interface Requirement {
  /** Stable id, e.g. `webhook.body-changed`. */
  readonly id: string;
  readonly title: string;
  /** Spec sections, e.g. `§5.5`. */
  readonly sections: readonly string[];
  /** Readings of readings.md, e.g. `R10`. */
  readonly readings: readonly string[];
  readonly checks: readonly PlannedCheck[];
}

/** Inputs of {@link buildPlan}. */
export interface PlanOptions {
  readonly appId: string;
  readonly appSecret: string;
  /** notifyUrl as the merchant registered it (signed as part 4, R10). */
  readonly notifyUrl: string;
  /** returnUrl as the merchant registered it (signed as part 4, R11). */
  readonly returnUrl: string;
  /** Where webhooks are actually sent (default: notifyUrl). */
  readonly deliverTo?: string;
  /** Where redirects are actually sent, before the added parameters (default: returnUrl). */
  readonly returnDeliverTo?: string;
  readonly seed: number;
}

/** The plan of a run. */
export interface Plan {
  readonly seed: number;
  readonly requirements: readonly Requirement[];
}
