/**
 * Tiny merchants for the certification tests: a correct one (verifies webhooks and
 * redirects with the kit's own verifiers) and defective ones.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyRedirect } from '../../src/scheme/redirect.js';
import { verifyWebhook } from '../../src/scheme/verify.js';

/**
 * `crash-on-refusal`: verifies as `correct` does, but answers 500 (a thrown exception) instead of 401 to what it refuses.
 * `refusal-page`: verifies as `correct` does, but refuses with a 200: `FAIL` to a webhook (the common convention), a page
 * saying "Payment could not be verified" to a redirect (a thank-you page when it accepts one).
 * `refusal-redirect`: verifies as `correct` does, but answers a redirect with a 302: to /pay/failed when it refuses, to /orders/7 when it accepts.
 * `pages-accept-all`: answers webhooks as `correct` does, and every redirect with the thank-you page (no verification).
 * `html-accept-all`: accepts everything with a 200 and a long HTML page ({@link HTML_PAGE}: a script, a `|`, a backtick, non-ASCII).
 */
export type Behaviour =
  | 'correct'
  | 'accept-all'
  | 'html-accept-all'
  | 'status-500'
  | 'hang'
  | 'reset'
  | 'refuse-all'
  | 'crash-on-refusal'
  | 'refusal-page'
  | 'refusal-redirect'
  | 'pages-accept-all';

export interface TestMerchant {
  readonly url: string;
  readonly calls: Array<{
    method: string;
    url: string;
    headers: Record<string, string | string[] | undefined>;
    body: string;
  }>;
  close(): Promise<void>;
}

export const APP_ID = 'app_test_merchant';

/** What `html-accept-all` answers to every call: a page a report must show as text, never render. */
export const HTML_PAGE = `<!doctype html><html><head><title>Thank you | Shop</title><script>alert("rendered")</script></head><body><h1 class="x">Merci, payé ✓</h1>${'<p>`order` details</p>'.repeat(20)}</body></html>`;
export const APP_SECRET = 'sk_test_9f8e7d6c5b4a39281706';

/**
 * Starts a merchant on 127.0.0.1. Webhooks are POSTs to /notify, redirects GETs of /return…;
 * `notifyUrl` and `returnUrl` are what the merchant registered (they are verified against).
 */
export async function startTestMerchant(
  behaviour: Behaviour,
  urls: (base: string) => { notifyUrl: string; returnUrl: string },
): Promise<TestMerchant> {
  const calls: TestMerchant['calls'] = [];
  let registered: { notifyUrl: string; returnUrl: string } | undefined;
  let base = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      calls.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: { ...req.headers },
        body: body.toString('utf8'),
      });
      if (behaviour === 'hang') return;
      if (behaviour === 'reset') return void req.socket.destroy();
      if (behaviour === 'status-500') return void res.writeHead(500).end('boom');
      if (behaviour === 'accept-all') return void res.writeHead(200).end('SUCCESS');
      if (behaviour === 'html-accept-all')
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_PAGE);
      if (behaviour === 'refuse-all') return void res.writeHead(401).end('FAIL');
      const r = registered ?? { notifyUrl: '', returnUrl: '' };
      let ok = false;
      const redirect = req.method === 'GET' && req.url?.startsWith('/return') === true;
      if (req.method === 'POST' && req.url?.startsWith('/notify')) {
        ok = verifyWebhook({
          appId: APP_ID,
          appSecret: APP_SECRET,
          notifyUrl: r.notifyUrl,
          method: 'POST',
          authorization: req.headers.authorization ?? null,
          body,
        }).valid;
      } else if (redirect) {
        ok =
          behaviour === 'pages-accept-all' ||
          verifyRedirect({
            appId: APP_ID,
            appSecret: APP_SECRET,
            returnUrl: r.returnUrl,
            redirectUrl: `${base}${req.url}`,
          }).valid;
      }
      if (redirect && (behaviour === 'refusal-page' || behaviour === 'pages-accept-all'))
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(ok ? '<h1>Thank you</h1>' : '<p>Payment could not be verified</p>');
      if (redirect && behaviour === 'refusal-redirect')
        return void res
          .writeHead(302, { location: ok ? '/orders/7' : 'https://merchant.example.test/pay/failed?order=7' })
          .end();
      if (behaviour === 'refusal-page')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ok ? 'SUCCESS' : 'FAIL');
      res
        .writeHead(ok ? 200 : behaviour === 'crash-on-refusal' ? 500 : 401, { 'content-type': 'text/plain' })
        .end(ok ? 'SUCCESS' : 'FAIL');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  registered = urls(base);
  return {
    url: base,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
