/**
 * The options that name a merchant, shared by `pgv2kit certify` and `pgv2kit run --merchant`,
 * and those that name a gateway or merchant under test in the reports, shared by `certify` and
 * `run --gateway`/`--merchant` (declarations only: no imports, so help loads without the roles).
 * @module
 */
import type { OptionSpecs } from './command.js';

/**
 * --notify-url, --return-url, --deliver-to, --return-deliver-to, and what counts as acceptance per endpoint:
 * --accept-body, --return-refusal-body, --return-refusal-location.
 */
export const merchantOptions = {
  'notify-url': { type: 'string', valueName: '<url>', description: 'The notifyUrl as the merchant registered it' },
  'return-url': {
    type: 'string',
    valueName: '<url>',
    description: 'The returnUrl as the merchant registered it (its own query included)',
  },
  'deliver-to': { type: 'string', valueName: '<url>', description: 'Send webhooks here instead of the notifyUrl' },
  'return-deliver-to': {
    type: 'string',
    valueName: '<url>',
    description: 'Send redirects here instead of the returnUrl (parameters are added to it)',
  },
  'accept-body': {
    type: 'string',
    valueName: '<text>',
    description:
      'Notify endpoint: an accepting answer is a 2xx with this body (e.g. SUCCESS; default: any 2xx). ' +
      "Not the return endpoint's",
  },
  'return-refusal-body': {
    type: 'string',
    valueName: '<text>',
    description:
      'Return endpoint: a 2xx or 3xx whose body contains this text is a refusal ' +
      '(e.g. "could not be verified"; default: only a 4xx is)',
  },
  'return-refusal-location': {
    type: 'string',
    valueName: '<url|/path>',
    description:
      'Return endpoint: a 3xx whose Location starts with this URL, ' +
      "or with this path (/…, the Location's path and query), is a refusal",
  },
} as const satisfies OptionSpecs;

/** --name, --version: how the reports and the default run name call the gateway or merchant under test. */
export const targetNameOptions = {
  name: {
    type: 'string',
    valueName: '<name>',
    description:
      'Gateway and merchant roles: the name of the server under test in the reports and the default run name',
    default: { shown: 'its host, e.g. gateway 127.0.0.1:8080' },
  },
  version: {
    type: 'string',
    valueName: '<version>',
    description: 'Gateway and merchant roles: its version, shown after the name',
    default: { shown: 'none' },
  },
} as const satisfies OptionSpecs;
