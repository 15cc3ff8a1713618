/**
 * The environment variables the kit reads for a merchant's credentials: the gateway and merchant
 * roles, `serve`, `generate`, `explain` and `fuzz` over HTTP. The secret's variable is the kit's
 * own: masked in everything printed, and never passed to a testee.
 * @module
 */

/** The merchant appId. */
export const APP_ID_ENV = 'PGV2_APP_ID';

/** The merchant secret. */
export const APP_SECRET_ENV = 'PGV2_APP_SECRET';
