/**
 * The merchant of `pgv2kit run --merchant` and `pgv2kit certify`: the URLs as registered and
 * where calls are delivered, with the merchant credentials — or, given no URL, the sample
 * merchant (examples/sample-merchant) started on 127.0.0.1 with its demo credentials.
 * @module
 */
import type { MerchantTarget } from '../roles/merchant/as-gateway/call.js';
import { acceptanceProblem, type AcceptanceRule } from '../roles/merchant/as-gateway/acceptance.js';
import { startSampleMerchant } from '../roles/merchant/certify/sample.js';
import { UsageError } from './command.js';
import type { CliIo } from './io.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../env.js';
import { requireReachable } from './_reach.js';
import { Pgv2kitError } from '../errors.js';

/** The options that name the merchant. */
export interface MerchantChoice {
  readonly 'notify-url'?: string;
  readonly 'return-url'?: string;
  readonly 'deliver-to'?: string;
  readonly 'return-deliver-to'?: string;
  readonly 'app-id'?: string;
  readonly secret?: string;
}

/** The options that say what counts as acceptance, per endpoint. */
export interface AcceptanceChoice {
  readonly 'accept-body'?: string;
  readonly 'return-refusal-body'?: string;
  readonly 'return-refusal-location'?: string;
}

/**
 * What counts as acceptance at each endpoint, from the options, checked.
 * @param choice - --accept-body, --return-refusal-body, --return-refusal-location
 * @returns the rule (only the options given)
 * @throws {UsageError} for an empty refusal text or a refusal location that is neither an http(s) URL nor a path
 * @example acceptanceRuleOf({ 'accept-body': 'SUCCESS' }) // { acceptBody: 'SUCCESS' }
 */
export function acceptanceRuleOf(choice: AcceptanceChoice): AcceptanceRule {
  const rule: AcceptanceRule = {
    ...(choice['accept-body'] !== undefined ? { acceptBody: choice['accept-body'] } : {}),
    ...(choice['return-refusal-body'] !== undefined ? { returnRefusalBody: choice['return-refusal-body'] } : {}),
    ...(choice['return-refusal-location'] !== undefined
      ? { returnRefusalLocation: choice['return-refusal-location'] }
      : {}),
  };
  const problem = acceptanceProblem(rule);
  if (problem !== undefined) throw new UsageError(problem);
  return rule;
}

/** A merchant to run against, and what stops it (the sample merchant) if anything. */
export interface ChosenMerchant {
  readonly target: MerchantTarget;
  /** True for the sample merchant. */
  readonly sample: boolean;
  readonly close: (() => Promise<void>) | undefined;
}

/** Thrown when the sample merchant cannot be started (exit 3). */
export class SampleMerchantError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_SAMPLE_MERCHANT';
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  override readonly name = 'SampleMerchantError';
}

/**
 * Checks the merchant options and starts the sample merchant when no URL is given (reach it
 * with {@link reachMerchant} before any call).
 * @param choice - the URL and credential options
 * @param io - the environment (PGV2_APP_ID, PGV2_APP_SECRET)
 * @param command - the command, for messages (`certify`, `run --merchant`)
 * @returns the merchant
 * @throws {UsageError} for one URL without the other, a URL that is not http(s) or has a fragment, missing credentials
 * @throws {SampleMerchantError} when the sample merchant cannot be started
 */
export async function chooseMerchant(
  choice: MerchantChoice,
  io: Pick<CliIo, 'env'>,
  command: string,
): Promise<ChosenMerchant> {
  const given = (['notify-url', 'return-url', 'deliver-to', 'return-deliver-to'] as const).filter(
    (k) => choice[k] !== undefined,
  );
  if (given.length > 0 && (choice['notify-url'] === undefined || choice['return-url'] === undefined)) {
    throw new UsageError(
      'give both --notify-url and --return-url (as registered), or neither to use the sample merchant',
    );
  }
  for (const k of given) {
    const v = choice[k] ?? '';
    if (!/^https?:\/\/[^/]/.test(v)) throw new UsageError(`--${k} must be an http(s):// URL, not ${JSON.stringify(v)}`);
    if (v.includes('#')) throw new UsageError(`--${k} must not have a fragment (a fragment is never sent)`);
  }
  if (given.length === 0) {
    try {
      const s = await startSampleMerchant();
      const { close, ...target } = s;
      return { target, sample: true, close };
    } catch (e) {
      throw new SampleMerchantError(
        `the sample merchant could not be started: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }
  const appId = choice['app-id'] ?? io.env[APP_ID_ENV];
  const appSecret = choice.secret ?? io.env[APP_SECRET_ENV];
  if (!appId || !appSecret)
    throw new UsageError(
      `${command} needs the merchant credentials: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)`,
    );
  return {
    target: {
      appId,
      appSecret,
      notifyUrl: choice['notify-url'] ?? '',
      returnUrl: choice['return-url'] ?? '',
      ...(choice['deliver-to'] !== undefined ? { deliverTo: choice['deliver-to'] } : {}),
      ...(choice['return-deliver-to'] !== undefined ? { returnDeliverTo: choice['return-deliver-to'] } : {}),
    },
    sample: false,
    close: undefined,
  };
}

/**
 * Reaches both of the merchant's endpoints (where calls are delivered) once, before any call.
 * @param m - the merchant
 * @param withinMs - how long reaching each may take
 * @throws {TargetUnreachableError} naming the endpoint not reached, its URL and why
 * @example
 * await reachMerchant(
 *   { target: { notifyUrl: gateway.baseUrl, returnUrl: gateway.baseUrl }, sample: false, close: undefined },
 *   5000,
 * )
 */
export async function reachMerchant(m: ChosenMerchant, withinMs: number): Promise<void> {
  const t = m.target;
  await requireReachable(
    [
      { what: "the merchant's notify endpoint", url: t.deliverTo ?? t.notifyUrl },
      { what: "the merchant's return endpoint", url: t.returnDeliverTo ?? t.returnUrl },
    ],
    withinMs,
  );
}

/**
 * One line naming the merchant and its URLs.
 * @param m - the merchant
 * @returns e.g. `the merchant: notifyUrl https://… (delivered to http://127.0.0.1:…), returnUrl …`
 */
export function describeMerchant(m: ChosenMerchant): string {
  const t = m.target;
  return (
    `${m.sample ? 'the sample merchant' : 'the merchant'}: ` +
    `notifyUrl ${t.notifyUrl}${t.deliverTo ? ` (delivered to ${t.deliverTo})` : ''}, ` +
    `returnUrl ${t.returnUrl}${t.returnDeliverTo ? ` (delivered to ${t.returnDeliverTo})` : ''}`
  );
}
