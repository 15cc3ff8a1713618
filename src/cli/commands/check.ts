/**
 * `pgv2kit check <file.har>`: judges every signed exchange of a HAR (issue 26) — from `pgv2kit proxy`, a browser's
 * devtools, mitmproxy, Charles or Proxyman — with the judgement of the rest of the kit, and writes the live
 * session's reports (src/live/session.ts).
 * @module
 */
import { credentialOptions } from '../credentials.js';
import { merchantOptions } from '../merchant-options.js';
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { parseBytes } from '../../bytes.js';
import { optionLabel } from '../_args.js';
import { parseOption } from '../_numbers.js';
import { defineCommand, UsageError, type OptionSpecs } from '../command.js';

/** The options of `pgv2kit check`. */
export const checkOptions = {
  ...credentialOptions,
  'notify-url': {
    type: 'string',
    valueName: '<url>[,<url>…]',
    list: 'URLs',
    description: 'The notifyUrl(s) as the merchant registered them: a POST to one is a webhook (5.5)',
  },
  'return-url': {
    type: 'string',
    valueName: '<url>[,<url>…]',
    list: 'URLs',
    description: 'The returnUrl(s) as the merchant registered them: a GET to one is a return redirect (5.6)',
  },
  // what the merchant's answers mean, as certify reads them
  'accept-body': merchantOptions['accept-body'],
  'return-refusal-body': merchantOptions['return-refusal-body'],
  'return-refusal-location': merchantOptions['return-refusal-location'],
  'report-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Write results.json, report.html and traffic.har here',
    default: { shown: 'reports/<name>' },
  },
  name: {
    type: 'string',
    valueName: '<name>',
    description: 'The name of the session in the reports and of its default report folder',
    default: { shown: 'check-<HAR file name>' },
  },
  json: {
    type: 'boolean',
    description:
      'Print one JSON summary on stdout (verdict, counts, reportsDir, exitCode); the line per exchange goes to stderr',
  },
  'max-har-size': {
    type: 'string',
    valueName: '<bytes>',
    description: 'Largest HAR file read (256MiB unless set): bytes, or K, M, G (1024-based)',
    parse: harBytes,
  },
  'max-har-entries': {
    type: 'string',
    valueName: '<n>',
    description: 'Most entries a HAR file may hold (100000 unless set)',
    parse: parseOption.positiveInteger,
  },
} as const satisfies OptionSpecs;

export const checkCommand = defineCommand({
  name: 'check',
  summary: 'Judge every signed exchange of a HAR file (devtools, mitmproxy, Charles, the proxy): verdicts and reports',
  usage:
    'pgv2kit check <file.har> [--app-id <id> --secret <secret>] [--notify-url <url>] [--return-url <url>] [options]',
  arguments: [{ name: 'file.har', description: 'A HAR 1.2 file' }],
  description: [
    "Reads the HAR and judges each exchange the kit knows, in the HAR's order, with the judgement",
    'of the rest of the kit: an API request (its signature over the URL it addressed and the',
    "exact body bytes, 4.1's headers, the body rules) and the gateway's answer (R9, 2.3/2.4);",
    "an upload against the formFields the HAR's own credentials answer issued (4.2, R14); a",
    'webhook or return redirect (5.5, 5.6, R10, R11) to a --notify-url or --return-url.',
    'A body the HAR does not hold byte-exact (devtools often re-encodes or truncates one) is',
    'not judged, with the reason, never guessed. Entries of other traffic are skipped.',
    '',
    'One line per exchange: its verdict and, when a known mistake explains a finding, its',
    'name and docs page. Then the report folder: results.json (`exchanges` in order, each',
    'with its verdict, findings and the messages as sent, secrets masked), report.html and',
    'traffic.har (the exchanges with their judgements, bodies byte-exact). A report folder',
    'that holds files the kit did not write is refused.',
    '',
    `The merchant comes from --app-id and --secret, or ${APP_ID_ENV} and ${APP_SECRET_ENV};`,
    'without them, the demo merchant of `pgv2kit serve`.',
  ].join('\n'),
  options: checkOptions,
  exitCodes: {
    0: 'every exchange judged was conformant, and at least one was judged',
    1: 'an exchange was not conformant, or nothing was judged (no exchange, or none the HAR holds byte-exact)',
    2: 'usage error: a HAR that cannot be read or is not HAR 1.2, over a limit, a report folder refused',
  },
  examples: [
    'pgv2kit check traffic.har',
    `${APP_ID_ENV}=app_9f2c ${APP_SECRET_ENV}=… pgv2kit check devtools.har --report-dir reports/devtools`,
    'pgv2kit check mitm.har --notify-url https://shop.example/notify --json',
  ],
  run: async (context) => (await import('./check.run.js')).runCheck(context),
});

/** A byte count option (`--max-har-size`). */
function harBytes(text: string, name: string): number {
  const n = parseBytes(text);
  if (n === undefined || n <= 0)
    throw new UsageError(
      `${optionLabel(name)} must be a byte count such as 1048576, 512K or 16MiB, not ${JSON.stringify(text)}`,
    );
  return n;
}
