/**
 * `pgv2kit proxy`: a judging proxy for live traffic (issue 26, items 1 and 2). `--upstream <gateway>`: between a real
 * client and a real gateway (src/live/proxy.ts); `--merchant <merchant>`: in front of a merchant's notifyUrl and
 * returnUrl (src/live/merchant-proxy.ts). Each exchange is judged, printed as it happens and streamed to the live
 * session's reports (src/live/session.ts), written when the proxy is stopped.
 * @module
 */
import { APP_ID_ENV, APP_SECRET_ENV } from '../../env.js';
import { optionLabel } from '../_args.js';
import { parseOption } from '../_numbers.js';
import { defineCommand, UsageError, type OptionSpecs } from '../command.js';
import { credentialOptions } from '../credentials.js';
import { merchantOptions } from '../merchant-options.js';

/** The options of `pgv2kit proxy`. */
export const proxyOptions = {
  upstream: {
    type: 'string',
    valueName: '<url>',
    description: "The gateway's base URL (its sandbox): a client uses the proxy's URL instead",
    conflicts: ['merchant'],
  },
  upload: {
    type: 'boolean',
    description: "Point the credentials answers' uploadUrl through the proxy and judge the uploads (4.2, R14)",
    requires: ['upstream'],
  },
  'upload-port': {
    type: 'string',
    valueName: '<n>',
    description: 'The port of the upload listener',
    default: { shown: '0, a free port, printed' },
    requires: ['upload'],
    parse: portOption,
  },
  merchant: {
    type: 'string',
    valueName: '<url>',
    description: "The merchant's base URL: webhooks and return redirects are judged and forwarded unchanged",
  },
  'notify-url': {
    type: 'string',
    valueName: '<url>',
    description: 'With --merchant: the notifyUrl as the merchant registers it (R10); a POST to its path is a webhook',
    requires: ['merchant'],
  },
  'return-url': {
    type: 'string',
    valueName: '<url>',
    description:
      'With --merchant: the returnUrl as the merchant registers it (R11); a GET to its path is a return redirect',
    requires: ['merchant'],
  },
  // what the merchant's answers mean, as certify reads them: a merchant refusing with 200 FAIL is no acceptance
  'accept-body': { ...merchantOptions['accept-body'], requires: ['merchant'] },
  'return-refusal-body': { ...merchantOptions['return-refusal-body'], requires: ['merchant'] },
  'return-refusal-location': { ...merchantOptions['return-refusal-location'], requires: ['merchant'] },
  ...credentialOptions,
  port: {
    type: 'string',
    valueName: '<n>',
    description: "The proxy's port",
    default: { shown: '0, a free port, printed' },
    parse: portOption,
  },
  host: {
    type: 'string',
    valueName: '<host>',
    description: 'The address to listen on',
    default: { shown: '127.0.0.1, loopback only' },
  },
  timeout: {
    type: 'string',
    valueName: '<seconds>',
    description: 'How long the gateway or merchant may take to answer (and a sender to send a body)',
    default: { shown: '30 (--upstream), 10 (--merchant)' },
    parse: parseOption.seconds,
  },
  'report-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Write results.json, report.html and traffic.har here when the proxy stops',
    default: { shown: 'reports/<name>' },
  },
  name: {
    type: 'string',
    valueName: '<name>',
    description: 'The name of the session in the reports and of its default report folder',
    default: { shown: 'proxy-<date>-<time>' },
  },
  json: {
    type: 'boolean',
    description:
      "Print the proxy's URL as the first JSON line on stdout and the summary as the last; the line per " +
      'exchange goes to stderr',
  },
} as const satisfies OptionSpecs;

export const proxyCommand = defineCommand({
  name: 'proxy',
  summary: 'Judge live traffic: a proxy before a gateway (--upstream) or a merchant (--merchant), then the reports',
  usage:
    'pgv2kit proxy --upstream <url> [--upload] [options]\n' +
    '       pgv2kit proxy --merchant <url> --notify-url <url> --return-url <url> [options]',
  description: [
    '--upstream: a client (an SDK, its integration tests) uses the proxy URL as its gateway',
    'base URL and works unchanged. Each request is judged as the client sent it (its',
    'signature over the URL it addressed and the exact body bytes, the header grammar, the',
    'headers of 4.1, the body rules), then forwarded to the upstream signed for the upstream',
    "URL with the merchant's credentials — but only when the client's own signature verified:",
    'a bad request meets the refusal it would have met. The answer is judged (status, R9,',
    'the envelope of 2.3/2.4) and returned signed for the URL the client addressed. An',
    'exchange with no answer (the upstream down or too slow) has its request judged alone, and',
    'passes nothing: `not judged` unless the request did something wrong. A request body over',
    '64 KiB (an upload over 3 MiB: the 2 MiB file and its form) is refused, not forwarded and',
    'not judged.',
    "--upload: the credentials answer's uploadUrl points through the proxy, and each upload is",
    'judged against the formFields issued (4.2, R14) before it is forwarded.',
    '',
    '--merchant: put the proxy where the gateway reaches the merchant (your tunnel points at',
    'it); each webhook to the path of --notify-url and each return redirect to the path of',
    "--return-url is judged (5.5, 5.6, R10, R11) and forwarded unchanged, the merchant's",
    'answer recorded beside the verdict: a merchant that accepts a forged message is a',
    'finding. Other requests are passed through, not judged. A body over 2 MiB, either way, is',
    'refused (413 to the caller, 502 for an answer), not forwarded and not judged.',
    '',
    'One line per exchange as it happens: its verdict and, when a known mistake explains a',
    'finding, its name and docs page. Stop with Ctrl-C (SIGINT) or SIGTERM: the exchanges in',
    'flight end, then the reports are written — results.json (`exchanges` in order, each with',
    'its verdict, findings and the messages as sent, secrets masked), report.html and',
    'traffic.har (byte-exact, `pgv2kit check` judges it again) — and the proxy exits with the',
    'verdict: stopping is how a proxy ends, not an interruption. A second signal exits at once',
    '(130, 143) without reports.',
    '',
    `The merchant comes from --app-id and --secret, or ${APP_ID_ENV} and ${APP_SECRET_ENV};`,
    'without them, the demo merchant of `pgv2kit serve`. The proxy listens on loopback only',
    'unless --host is given.',
  ].join('\n'),
  options: proxyOptions,
  exitCodes: {
    0: 'stopped (SIGINT, SIGTERM): every exchange judged was conformant, and at least one was judged',
    1: 'stopped: an exchange was not conformant, or nothing was judged',
    2: 'usage error: not exactly one of --upstream and --merchant, a bad URL or port, a report folder refused',
    3: 'the proxy could not start (a port in use, an address not available)',
    130: 'a second Ctrl-C (SIGINT) while stopping: exited at once, no reports',
    143: 'a second SIGTERM while stopping: exited at once, no reports',
  },
  examples: [
    `${APP_ID_ENV}=app_9f2c ${APP_SECRET_ENV}=… pgv2kit proxy --upstream https://sandbox.gateway.example --port 8787`,
    'pgv2kit proxy --upstream http://127.0.0.1:8080 --upload --json',
    'pgv2kit proxy --merchant http://127.0.0.1:3000 --notify-url https://shop.example/pgv2/notify ' +
      '--return-url https://shop.example/pgv2/return --port 8788',
  ],
  run: async (context) => (await import('./proxy.run.js')).runProxy(context),
});

/** A port option: 0 to 65535. */
function portOption(text: string, name: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535)
    throw new UsageError(`${optionLabel(name)} must be a port number from 0 to 65535, not ${JSON.stringify(text)}`);
  return Number(text);
}
