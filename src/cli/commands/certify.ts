/**
 * `pgv2kit certify`: the kit plays the gateway against a merchant's webhook (notify)
 * and return-redirect endpoints and writes a certification report.
 * @module
 */
import { defineCommand, UsageError, type OptionSpecs } from '../command.js';
import { merchantOptions, targetNameOptions } from '../merchant-options.js';
import { deadlineOption, parseOption } from '../_numbers.js';
import { credentialOptions } from '../credentials.js';

/** --seed: 0 to 2^32 - 1. */
function seedOf(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 2 ** 32 - 1)
    throw new UsageError(`--seed must be an integer from 0 to 4294967295, not ${JSON.stringify(text)}`);
  return Number(text);
}

/** The options of `pgv2kit certify`. */
export const certifyOptions = {
  'notify-url': merchantOptions['notify-url'],
  'return-url': merchantOptions['return-url'],
  'deliver-to': merchantOptions['deliver-to'],
  'return-deliver-to': merchantOptions['return-deliver-to'],
  ...credentialOptions,
  'accept-body': merchantOptions['accept-body'],
  'return-refusal-body': merchantOptions['return-refusal-body'],
  'return-refusal-location': merchantOptions['return-refusal-location'],
  name: {
    ...targetNameOptions.name,
    description: 'The name of the merchant in the reports',
    default: { shown: 'merchant <host of the notifyUrl>, or sample-merchant' },
  },
  version: {
    ...targetNameOptions.version,
    description: "The merchant's version, shown after its name",
    default: { shown: 'none' },
  },
  seed: {
    type: 'string',
    valueName: '<n>',
    description: 'Seed of the payloads and nonces, 0 to 4294967295',
    default: { shown: 'random, printed' },
    parse: seedOf,
  },
  timeout: {
    type: 'string',
    valueName: '<seconds>',
    description: 'Limit for each call',
    default: 5,
    parse: parseOption.seconds,
  },
  'report-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Write the report here',
    default: { shown: 'reports/<run name>' },
  },
  'run-name': {
    type: 'string',
    valueName: '<name>',
    description: 'Name of the run',
    default: { shown: 'certify-<date>-<time>' },
  },
  json: {
    type: 'boolean',
    description:
      'Print one JSON summary on stdout (verdict, reasons, requirements, exit code, reports); ' +
      'every other line goes to stderr',
  },
  ...deadlineOption,
} as const satisfies OptionSpecs;

export const certifyCommand = defineCommand({
  name: 'certify',
  summary: "Certify a merchant's webhook and return-redirect handling, the kit playing the gateway",
  usage:
    'pgv2kit certify [--notify-url <url> --return-url <url>] [--deliver-to <url>] ' +
    '[--return-deliver-to <url>] [options]',
  description: [
    'The kit plays the gateway: signed webhooks (POST, JSON) to the notify endpoint and return',
    'redirects (GET returnUrl + paymentNo, merchantTradeNo, payment, authorization) to the return',
    'endpoint, valid and forged, and checks which the merchant accepts (spec 5.5, 5.6, 6; readings',
    'R7-R12, R15, R16). --notify-url and --return-url are the URLs as the merchant registered them',
    '(they are signed); --deliver-to and --return-deliver-to are where the calls actually go when',
    'that differs (a proxy, a local port). What counts, per endpoint: the notify endpoint accepts',
    'with any 2xx (with --accept-body, only a 2xx with that body) and refuses with any other answer;',
    'the return endpoint answers a browser with a page: it accepts with a 2xx or 3xx and refuses',
    'with a 4xx, or with the refusal page that --return-refusal-body (a text its body contains) or',
    '--return-refusal-location (where it redirects) names. A genuine call must be accepted, a',
    'forged one refused; a 5xx counts as a refusal, reported as an advisory (to a genuine call it',
    'fails: R16). Upper-case hex is reported, never failed (R7); replay (the same call twice, an',
    'old timestamp) is advisory (R12).',
    'Every call has a timeout; redirects are never followed.',
    '',
    'With no URLs, the sample merchant (examples/sample-merchant) is started on 127.0.0.1 with',
    'demo credentials and certified. Reports go to reports/<run name>/ (or --report-dir):',
    'certification.html, certification.md, certification.json, junit.xml — secrets masked (a',
    'folder another pgv2kit is writing is refused: exit 2, its pid named). The same --seed gives',
    'the same calls (timestamps aside) and the same plan hash.',
  ].join('\n'),
  options: certifyOptions,
  exitCodes: {
    0: 'CERTIFIED: every requirement passed',
    1: 'NOT CERTIFIED: a requirement failed (the report names it), timeouts and answers that never came included',
    2: 'usage error: options, URLs, credentials, a refusal page option that names nothing, a report folder in use',
    3:
      'an endpoint of the merchant could not be reached (checked before any call; the report says NOT CERTIFIED ' +
      'and why), --deadline passed, or the sample merchant could not be started',
    130:
      'interrupted by Ctrl-C (SIGINT): no call started after it, the reports of what ran written, NOT CERTIFIED ' +
      '(interrupted); a second Ctrl-C stops at once',
    143: 'terminated (SIGTERM): as 130',
  },
  examples: [
    'pgv2kit certify',
    'PGV2_APP_ID=app_1 PGV2_APP_SECRET=… pgv2kit certify --notify-url https://shop.example/pay/notify ' +
      '--return-url https://shop.example/pay/done',
    'pgv2kit certify --notify-url https://shop.example/n --deliver-to http://127.0.0.1:8080/n ' +
      '--return-url https://shop.example/r --return-deliver-to http://127.0.0.1:8080/r --accept-body SUCCESS --seed 42',
    'pgv2kit certify --notify-url https://shop.example/n --return-url https://shop.example/r --accept-body SUCCESS ' +
      '--return-refusal-body "could not be verified"',
  ],
  run: async (context) => (await import('./certify.run.js')).runCertify(context),
});
