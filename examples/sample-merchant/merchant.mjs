/**
 * A sample merchant server that verifies the gateway's two calls as gateway-spec.md asks:
 * the webhook (5.5, reading R10) and the return redirect (5.6, reading R11). Plain Node:
 * node:http and node:crypto only, no kit imports. See README.md in this folder.
 *
 *   MERCHANT_APP_SECRET=... node examples/sample-merchant/merchant.mjs
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const ITEMS = ['appId', 'sign', 'timestamp', 'nonce'];

/**
 * Parses `V2_SHA256 appId=…,sign=…,timestamp=…,nonce=…` (5.3, R8): items in any order,
 * each split at its first "=", each of the four exactly once, no empty value. White space
 * (what String#trim removes) around the header, after the scheme, around items and on
 * either side of "=" is trimmed, as RFC 9110 allows around "=" in auth-params; unknown extra
 * items are ignored. Each of these is one of R8's defensible variants.
 * @returns {{ ok: true, items: Record<'appId'|'sign'|'timestamp'|'nonce', string> } | { ok: false, reason: string }}
 */
export function parseAuthorization(header) {
  if (typeof header !== 'string') return { ok: false, reason: 'no Authorization' };
  const m = /^V2_SHA256\s+(.*)$/s.exec(header.trim());
  if (!m) return { ok: false, reason: 'scheme is not V2_SHA256' };
  const items = {};
  for (const raw of m[1].split(',')) {
    const item = raw.trim();
    const eq = item.indexOf('=');
    if (eq <= 0) return { ok: false, reason: 'malformed item' };
    // R8: item = name "=" value, split at the first "="; white space on either side trimmed
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (!ITEMS.includes(name)) continue;
    if (Object.hasOwn(items, name)) return { ok: false, reason: `duplicate ${name}` };
    if (value === '') return { ok: false, reason: `empty ${name}` };
    items[name] = value;
  }
  for (const name of ITEMS) if (!Object.hasOwn(items, name)) return { ok: false, reason: `missing ${name}` };
  return { ok: true, items };
}

/** The signature content of 5.1 as bytes: parts 1–6 each + LF, the body's exact bytes, LF (R1, R3). */
export function signatureContent({ appId, appSecret, method, url, timestamp, nonce, body }) {
  const head = Buffer.from(`${appId}\n${appSecret}\n${method}\n${url}\n${timestamp}\n${nonce}\n`, 'utf8');
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body ?? []);
  return Buffer.concat([head, bytes, Buffer.from('\n')]);
}

/**
 * Verifies one signed message. The sign must be 64 LOWER-case hex digits (5.2); upper-case
 * hex is refused (R7 leaves it open; this merchant takes the strict side). Constant-time compare.
 */
export function verifySignature({
  appId,
  appSecret,
  method,
  url,
  authorization,
  body,
  parse = parseAuthorization,
  checkAppId = true,
}) {
  const parsed = parse(authorization);
  if (!parsed.ok) return { valid: false, reason: parsed.reason };
  const { items } = parsed;
  if (checkAppId && items.appId !== appId) return { valid: false, reason: 'appId is not ours' };
  if (!/^[0-9a-f]{64}$/.test(items.sign)) return { valid: false, reason: 'sign is not 64 lower-case hex digits' };
  const content = signatureContent({
    appId,
    appSecret,
    method,
    url,
    timestamp: items.timestamp,
    nonce: items.nonce,
    body,
  });
  const expected = createHash('sha256').update(content).digest();
  if (!timingSafeEqual(expected, Buffer.from(items.sign, 'hex'))) return { valid: false, reason: 'signature mismatch' };
  return { valid: true, reason: 'ok' };
}

/**
 * Webhook (5.5, R10): part 3 the method received (POST), part 4 the notifyUrl AS REGISTERED,
 * part 7 the raw body bytes received (never re-serialized: fields may be added, R15).
 */
export function verifyWebhook({
  appId,
  appSecret,
  notifyUrl,
  method,
  authorization,
  body,
  parseAuthorization: parse,
  checkAppId,
}) {
  return verifySignature({ appId, appSecret, method, url: notifyUrl, authorization, body, parse, checkAppId });
}

/** Query-component decoding (R11): "+" as space, then percent-decoding as UTF-8; null when invalid. */
export function decodeQueryValue(raw) {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The query text of a URL (absolute or request-target), without the fragment. */
function queryOf(url) {
  const noFragment = String(url).split('#')[0];
  const q = noFragment.indexOf('?');
  return q < 0 ? '' : noFragment.slice(q + 1);
}

/**
 * Reads payment and authorization from the redirect's query: exactly one of each (R11).
 * @returns {{ ok: true, payment: string, rawPayment: string, authorization: string, rawAuthorization: string } | { ok: false, reason: string }}
 */
export function readRedirectQuery(url) {
  const found = { payment: [], authorization: [] };
  const query = queryOf(url);
  for (const pair of query === '' ? [] : query.split('&')) {
    const eq = pair.indexOf('=');
    const rawName = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const name = decodeQueryValue(rawName);
    if (name === null) return { ok: false, reason: 'invalid encoding in the query' };
    if (name === 'payment' || name === 'authorization') found[name].push(rawValue);
  }
  if (found.payment.length !== 1) return { ok: false, reason: 'need exactly one payment parameter' };
  if (found.authorization.length !== 1) return { ok: false, reason: 'need exactly one authorization parameter' };
  const rawPayment = found.payment[0];
  const rawAuthorization = found.authorization[0];
  const payment = decodeQueryValue(rawPayment);
  const authorization = decodeQueryValue(rawAuthorization);
  if (payment === null || authorization === null) return { ok: false, reason: 'invalid encoding in the query' };
  return { ok: true, payment, rawPayment, authorization, rawAuthorization };
}

/**
 * Return redirect (5.6, R11): part 3 GET, part 4 the returnUrl AS REGISTERED (its own query
 * kept, the gateway's added parameters not), part 7 `payment=` + the decoded payment value.
 * `url` is the URL the browser arrived on (only its query is read).
 */
export function verifyRedirect({ appId, appSecret, returnUrl, url, parseAuthorization: parse, checkAppId }) {
  const q = readRedirectQuery(url);
  if (!q.ok) return { valid: false, reason: q.reason };
  return verifySignature({
    appId,
    appSecret,
    method: 'GET',
    url: returnUrl,
    authorization: q.authorization,
    body: `payment=${q.payment}`,
    parse,
    checkAppId,
  });
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function escapeHtml(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Starts the merchant. `verifyWebhook(ctx)` / `verifyRedirect(ctx)` may be replaced (tests
 * build defective merchants that way); ctx carries the registered values and, as `requestUrl`,
 * the URL the request arrived on (http://<Host header><request-target>).
 * @returns {Promise<{ url: string, close(): Promise<void> }>}
 */
export async function startMerchant({
  appId,
  appSecret,
  notifyUrl,
  returnUrl,
  host = '127.0.0.1',
  port = 0,
  verifyWebhook: webhookStep = verifyWebhook,
  verifyRedirect: redirectStep = verifyRedirect,
}) {
  if (!appId || !appSecret || !notifyUrl || !returnUrl)
    throw new Error('startMerchant needs appId, appSecret, notifyUrl and returnUrl');
  const notifyPath = new URL(notifyUrl).pathname;
  const returnPath = new URL(returnUrl).pathname;

  const server = createServer(async (req, res) => {
    const send = (status, type, text) => {
      res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
      res.end(text);
    };
    try {
      const target = req.url ?? '/';
      const path = target.split('?')[0];
      const requestUrl = `http://${req.headers.host ?? `${host}`}${target}`;
      if (req.method === 'POST' && path === notifyPath) {
        const body = await readBody(req);
        const r = webhookStep({
          appId,
          appSecret,
          notifyUrl,
          method: req.method,
          authorization: req.headers.authorization,
          body,
          requestUrl,
        });
        return r.valid ? send(200, 'text/plain', 'SUCCESS') : send(401, 'text/plain', r.reason);
      }
      if (req.method === 'GET' && path === returnPath) {
        const r = redirectStep({ appId, appSecret, returnUrl, url: requestUrl, requestUrl });
        if (!r.valid) return send(401, 'text/plain', r.reason);
        const q = readRedirectQuery(requestUrl);
        const payment = q.ok ? q.payment : '';
        return send(
          200,
          'text/html',
          `<!doctype html><title>Payment received</title><h1>Thank you</h1><pre>${escapeHtml(payment)}</pre>\n`,
        );
      }
      return send(404, 'text/plain', 'not found');
    } catch (e) {
      return send(500, 'text/plain', String(e && e.message ? e.message : e));
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(undefined));
  });
  const address = server.address();
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const appSecret = process.env.MERCHANT_APP_SECRET;
  if (!appSecret) {
    console.error(
      'merchant: MERCHANT_APP_SECRET is not set; refusing to start (the secret comes from the environment only)',
    );
    process.exit(2);
  }
  const port = Number(process.env.MERCHANT_PORT ?? 8787);
  const merchant = await startMerchant({
    appId: process.env.MERCHANT_APP_ID ?? 'pgv2kit-demo',
    appSecret,
    notifyUrl: process.env.MERCHANT_NOTIFY_URL ?? `http://127.0.0.1:${port}/notify`,
    returnUrl: process.env.MERCHANT_RETURN_URL ?? `http://127.0.0.1:${port}/return`,
    host: process.env.MERCHANT_HOST ?? '127.0.0.1',
    port,
  });
  console.log(merchant.url);
  const stop = () => merchant.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
