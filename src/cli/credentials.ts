/**
 * A merchant's credentials as every command takes them: `--app-id` and `--secret`, or {@link APP_ID_ENV} and
 * {@link APP_SECRET_ENV}; without an appId, the demo merchant (a published test credential). Shared by `serve`,
 * `check` and `proxy`.
 * @module
 */
import { DEMO_MERCHANT, type Merchant } from '../gateway/merchants.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../env.js';
import { UsageError, type OptionSpecs } from './command.js';

/** --app-id, --secret (the secret masked in every output). */
export const credentialOptions = {
  'app-id': { type: 'string', valueName: '<id>', description: 'The merchant appId', env: APP_ID_ENV },
  secret: {
    type: 'string',
    valueName: '<secret>',
    description: 'The merchant secret',
    env: APP_SECRET_ENV,
    secret: true,
  },
} as const satisfies OptionSpecs;

/**
 * The merchant the options (or the environment) name, else the demo merchant.
 * @param values - `--app-id` and `--secret` as given
 * @param env - the environment
 * @returns the merchant and where its secret came from, in words
 * @throws {UsageError} for a secret without an appId, an appId without a secret, an appId the header cannot carry
 * @example merchantFrom({}, {}).merchant.appId // 'pgv2kit-demo'
 */
export function merchantFrom(
  values: { readonly 'app-id'?: string | undefined; readonly secret?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): { merchant: Merchant; source: string } {
  const appId = values['app-id'] || env[APP_ID_ENV];
  const secret = values.secret || env[APP_SECRET_ENV];
  if (appId === undefined || appId === '') {
    if (values.secret) throw new UsageError(`--secret needs an appId: give --app-id or set ${APP_ID_ENV}`);
    return { merchant: DEMO_MERCHANT, source: `the demo merchant's: a published test credential, never a real one` };
  }
  if (secret === undefined || secret === '')
    throw new UsageError(`appId ${JSON.stringify(appId)} needs a secret: set ${APP_SECRET_ENV} (or pass --secret)`);
  if (/[,\s]/.test(appId))
    throw new UsageError(
      `appId ${JSON.stringify(appId)} holds a comma or white space, which the Authorization header cannot carry (R8)`,
    );
  const source = values.secret ? 'from --secret' : `from ${APP_SECRET_ENV}`;
  // the demo merchant given by hand (docs/guide/gateway.md exports it): the same published credential, which no
  // command masks (masked, its 12 bytes in common with the demo appId masked the appId)
  const demo = appId === DEMO_MERCHANT.appId && secret === DEMO_MERCHANT.appSecret;
  return { merchant: demo ? DEMO_MERCHANT : { appId, appSecret: secret }, source };
}

/**
 * The passwords a merchant's registered URLs carry (`https://user:password@shop.example/hooks`, a webhook endpoint
 * behind basic auth): secrets like the merchant's own, masked in every output — the URL itself must be kept whole,
 * as webhooks and redirects are signed over it (R10, R11).
 * @param urls - the notifyUrl(s) and returnUrl(s) as given
 * @returns each password, percent-decoded (the masker finds its encoded forms too)
 * @example urlPasswords(['https://hooks:s3cret-pw@shop.example/n', 'https://shop.example/r']) // ['s3cret-pw']
 */
export function urlPasswords(urls: readonly string[]): string[] {
  const found: string[] = [];
  for (const url of urls) {
    try {
      const { password } = new URL(url);
      if (password !== '') found.push(decodeURIComponent(password));
    } catch {
      // not a URL, or a password that does not decode: the command refuses the URL, or it has none to mask
    }
  }
  return found;
}

/**
 * The secrets a command given this merchant masks in every output: its secret — but the demo merchant's, which is
 * published (`pgv2kit serve` prints it) and holds the demo appId, which masking it would mask everywhere.
 * @param merchant - the merchant from {@link merchantFrom}
 * @returns the secrets to declare
 * @example merchantSecrets(DEMO_MERCHANT) // []
 */
export function merchantSecrets(merchant: Merchant): string[] {
  return merchant === DEMO_MERCHANT ? [] : [merchant.appSecret];
}
