/**
 * The merchant panel: correct merchants written from the docs alone (gateway-spec.md,
 * readings.md, docs/guide/merchant-certification.md), differing in every way the readings allow —
 * upper-case hex accepted or refused (R7), white space trimmed or kept and item names folded or
 * not (R8 a, e), unknown items ignored or refused (R8 b), empty list elements ignored (R8 d),
 * refusals as 400, 401, 403 or 200 + "FAIL", a thank-you page or a 302 on the return (R16).
 * Each file's header comment states its choices. Each must be CERTIFIED, with the options its
 * author wrote down for how it answers, and give `fuzz --merchant-notify` no finding.
 */
import { fileURLToPath } from 'node:url';
import {
  startMerchant,
  type MerchantOptions,
  type RunningMerchant,
} from '../../../examples/sample-merchant/merchant.mjs';
import type { AcceptanceRule } from '../../../src/roles/merchant/as-gateway/acceptance.js';
import { startMerchantProcess } from '../../_merchant-process.js';
// @ts-expect-error -- plain-JS panel members have no types: they are the code a merchant writes
import * as nodeWeb from './node-web.mjs';
// @ts-expect-error -- as above
import * as nodeMiddleware from './node-middleware.mjs';

export interface PanelMerchant {
  readonly name: string;
  readonly language: 'node' | 'python';
  /** how it answers, in one line (the rest is in its file's header) */
  readonly choices: string;
  /** what certification needs to read its answers (--accept-body, --return-refusal-body, --return-refusal-location) */
  readonly acceptance: AcceptanceRule;
  start(options: MerchantOptions): Promise<RunningMerchant>;
}

type StartPlain = (options: MerchantOptions) => Promise<RunningMerchant>;
const python = (file: string) => (options: MerchantOptions) =>
  startMerchantProcess('python3', [fileURLToPath(new URL(file, import.meta.url))], options);

export const PANEL_MERCHANTS: readonly PanelMerchant[] = [
  {
    name: 'sample-merchant',
    language: 'node',
    choices:
      'examples/sample-merchant: 200 SUCCESS / 401; upper-case hex refused; white space around items tolerated; unknown items ignored; return 200 page / 401',
    acceptance: {},
    start: (o) => startMerchant(o),
  },
  {
    name: 'node-web',
    language: 'node',
    choices:
      'WHATWG URL: 204 / 401 JSON; upper-case hex accepted; JS trim at every R8 place, names folded, unknown items refused; return 302 /thanks / 400',
    acceptance: {},
    start: nodeWeb.start as StartPlain,
  },
  {
    name: 'node-middleware',
    language: 'node',
    choices:
      'a middleware chain, raw body first: 200 SUCCESS / 200 FAIL; split(",") dropping empty elements, names exact, unknown items ignored, upper-case hex refused; return 200 / 403',
    acceptance: { acceptBody: 'SUCCESS' },
    start: nodeMiddleware.start as StartPlain,
  },
  {
    name: 'py-wsgi',
    language: 'python',
    choices:
      'wsgiref: 403; upper-case hex accepted; str.strip() at every R8 place, names folded, unknown items ignored; return 302 to /orders/… or /payment-failed',
    acceptance: { returnRefusalLocation: '/payment-failed' },
    start: python('./py-wsgi.py'),
  },
  {
    name: 'py-fail-body',
    language: 'python',
    choices:
      'http.server: 200 SUCCESS / 200 FAIL; the strict R8 parser, unknown items refused, upper-case hex refused; return 200 thank-you / 200 "Payment could not be verified"',
    acceptance: { acceptBody: 'SUCCESS', returnRefusalBody: 'could not be verified' },
    start: python('./py-fail-body.py'),
  },
  {
    name: 'py-asyncio',
    language: 'python',
    choices:
      'asyncio, HTTP/1.1 by hand (keep-alive): 400; a regular expression with OWS, empty elements ignored, scheme case-insensitive, upper-case hex refused; return 200 / 400',
    acceptance: {},
    start: python('./py-asyncio.py'),
  },
];
