/**
 * The options that name a merchant, shared by `pgv2kit certify` and `pgv2kit run --merchant`
 * (declarations only: no imports, so help loads without the merchant role).
 * @module
 */
import type { OptionSpecs } from './command.js';

/** --notify-url, --return-url, --deliver-to, --return-deliver-to, --accept-body. */
export const merchantOptions = {
  'notify-url': { type: 'string', valueName: '<url>', description: 'The notifyUrl as the merchant registered it' },
  'return-url': { type: 'string', valueName: '<url>', description: 'The returnUrl as the merchant registered it (its own query included)' },
  'deliver-to': { type: 'string', valueName: '<url>', description: 'Send webhooks here instead of the notifyUrl' },
  'return-deliver-to': { type: 'string', valueName: '<url>', description: 'Send redirects here instead of the returnUrl (parameters are added to it)' },
  'accept-body': { type: 'string', valueName: '<text>', description: 'An accepting answer is a 2xx with this body (e.g. SUCCESS)' },
} as const satisfies OptionSpecs;
