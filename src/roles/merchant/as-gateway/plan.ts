/**
 * The plan of a merchant-role run: every merchant case's call, in case order, as the
 * run's subject builds them ({@link createCallBuilder}), and the plan hash that names it.
 * @module
 */
import { createHash } from 'node:crypto';
import type { MerchantCase } from '../../../vectors/types.js';
import { createCallBuilder, type BuiltCall, type MerchantTarget } from './call.js';

/** The clock the plan hash is computed at: the hash does not depend on the time of the run. */
export const REFERENCE_TIME = 1_767_225_600_000;

/** One case of the plan and its call. */
export interface PlannedCall {
  readonly id: string;
  readonly built: BuiltCall;
}

/**
 * The calls of some merchant cases, in order.
 * @param cases - merchant cases, in run order
 * @param target - the merchant
 * @param seed - the run's seed
 * @param now - the clock (milliseconds)
 * @returns each case's call (or why it is not applicable)
 * @example
 * const cases = liveCases(set).map((l) => l.case).filter((c) => c.kind === 'merchant');
 * merchantPlan(cases, { appId, appSecret, notifyUrl, returnUrl }, 1, Date.now()).length === cases.length // true
 */
export function merchantPlan(
  cases: readonly MerchantCase[],
  target: MerchantTarget,
  seed: number,
  now: number,
): PlannedCall[] {
  const builder = createCallBuilder(target, seed, now);
  return cases.map((c) => ({ id: c.id, built: builder.build(c) }));
}

/**
 * The "hash of the cases used": SHA-256 (hex) of the plan built at {@link REFERENCE_TIME},
 * with a delivery URL that differs from the registered one replaced by a fixed stand-in. It
 * depends on the cases, the seed, the credentials and the registered URLs, never on the time of
 * the run nor on where the calls are delivered (a local port).
 * @param cases - merchant cases, in run order
 * @param target - the merchant
 * @param seed - the run's seed
 * @returns 64 hex digits
 * @example
 * const cases = liveCases(set).map((l) => l.case).filter((c) => c.kind === 'merchant');
 * planHash(cases, { appId, appSecret, notifyUrl, returnUrl }, 1) ===
 *   planHash(cases, { appId, appSecret, notifyUrl, returnUrl }, 1) // true
 */
export function planHash(cases: readonly MerchantCase[], target: MerchantTarget, seed: number): string {
  const stable: MerchantTarget = {
    ...target,
    deliverTo:
      target.deliverTo !== undefined && target.deliverTo !== target.notifyUrl
        ? 'https://delivery.invalid/webhook'
        : target.notifyUrl,
    returnDeliverTo:
      target.returnDeliverTo !== undefined && target.returnDeliverTo !== target.returnUrl
        ? 'https://delivery.invalid/return'
        : target.returnUrl,
  };
  return createHash('sha256')
    .update(JSON.stringify(merchantPlan(cases, stable, seed, REFERENCE_TIME)))
    .digest('hex');
}
