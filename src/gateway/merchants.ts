/**
 * The merchants the reference gateway knows: appId → application secret (spec §5;
 * "the source of AppSecret: not shown", so the gateway is simply given them).
 * @module
 */

/** A merchant's credentials as the gateway holds them. */
export interface Merchant {
  readonly appId: string;
  readonly appSecret: string;
}

/**
 * The demo merchant `pgv2kit serve` uses when given no credentials. Not a secret: it is
 * printed masked like any secret, and documented in `pgv2kit serve --help`.
 * @example DEMO_MERCHANT.appId // 'pgv2kit-demo'
 */
export const DEMO_MERCHANT: Merchant = Object.freeze({ appId: 'pgv2kit-demo', appSecret: 'pgv2kit-demo-secret' });

/**
 * The merchants of one gateway, by appId. The gateway looks the header's appId up here
 * (§5.3); an unknown appId is refused before any sign is computed.
 * @example
 * const book = new MerchantBook([{ appId: 'app_1', appSecret: 's3cr3t' }]);
 * book.get('app_1')?.appSecret // 's3cr3t'
 */
export class MerchantBook {
  readonly #byAppId = new Map<string, Merchant>();

  /**
   * @param merchants - the initial merchants
   * @throws {TypeError} when an appId or secret is not a string
   * @throws {RangeError} when an appId or secret is empty, or an appId holds a comma or white space (R8 could not
   * carry it)
   */
  constructor(merchants: Iterable<Merchant> = []) {
    for (const m of merchants) this.add(m);
  }

  /**
   * Adds a merchant, or replaces the secret of a known appId.
   * @param merchant - appId and appSecret
   * @returns this book
   * @throws {TypeError} when an appId or secret is not a string
   * @throws {RangeError} when an appId or secret is empty, or an appId holds a comma or white space
   * @example new MerchantBook([]).add({ appId: 'app_2', appSecret: 'other' }).get('app_2')?.appSecret // 'other'
   */
  add(merchant: Merchant): this {
    const { appId, appSecret } = merchant;
    if (typeof appId !== 'string' || typeof appSecret !== 'string')
      throw new TypeError('a merchant needs a string appId and a string appSecret');
    if (appId === '' || appSecret === '') throw new RangeError('a merchant appId and appSecret must not be empty');
    if (/[,\s]/.test(appId))
      throw new RangeError(
        `appId ${JSON.stringify(appId)} holds a comma or white space, which the Authorization header cannot carry (R8)`,
      );
    this.#byAppId.set(appId, Object.freeze({ appId, appSecret }));
    return this;
  }

  /**
   * The merchant of an appId.
   * @param appId - the appId read from a header
   * @returns the merchant, or undefined when unknown
   * @example new MerchantBook([DEMO_MERCHANT]).get('nobody') // undefined
   */
  get(appId: string): Merchant | undefined {
    return this.#byAppId.get(appId);
  }

  /**
   * Every merchant, in the order added.
   * @returns the merchants
   * @example new MerchantBook([DEMO_MERCHANT]).list().map((m) => m.appId) // ['pgv2kit-demo']
   */
  list(): Merchant[] {
    return [...this.#byAppId.values()];
  }
}
