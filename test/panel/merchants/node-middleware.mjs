// node-middleware.mjs — a panel merchant in the Express style: a hand-written middleware chain
// (app.use(fn) over node:http, next() / next(err)), node: built-ins only, Node 20. Written from
// gateway-spec.md (5.1-5.6, 6, 7), docs/readings.md and docs/guide/merchant-certification.md alone.
//
// The chain: requestLog -> rawBody (the body captured as a Buffer, req.rawBody, BEFORE any JSON
// parsing) -> router (path, method) -> verifyWebhook / verifyRedirect (the signature, a middleware)
// -> jsonParser (parses req.rawBody into req.body, AFTER verification) -> the handlers -> error handler.
//
// Choices, and what each rests on:
// - Webhook (5.5, 6): POST to the notifyUrl's path. Signed over req.rawBody exactly as received,
//   never over req.body re-serialized (5.4, 5.5, R3, R15: unknown payload fields are fine). Content =
//   appId LF appSecret LF "POST" LF notifyUrl LF timestamp LF nonce LF rawBody LF, fed to the hash part
//   by part, parts 1-6 as UTF-8, the body's bytes as they are (a final LF or BOM kept; empty body gives
//   "nonce\n\n") (5.1, R1, R2, R3, R5, R6). Part 4 is MERCHANT_NOTIFY_URL as registered, never the URL
//   the call arrived on (R10).
//   Accepted: 200 with the body SUCCESS. Refused: 200 with the body FAIL (a common gateway convention;
//   certify with --accept-body SUCCESS). A verified body the JSON parser cannot read is still
//   acknowledged with SUCCESS (the delivery is authentic; req.body is null).
// - Return redirect (5.6, 6): GET/HEAD to the returnUrl's path. A hand-written query parser: the raw
//   query split at "&" (empty pieces skipped), each piece at its first "="; name and value each decoded
//   once as a query component: "+" as space, then decodeURIComponent (percent-decoding as UTF-8; an
//   invalid escape or invalid UTF-8 throws, and the redirect is refused) (R11). Exactly one `payment`
//   and exactly one `authorization`, else refused (R11). Content: appId LF secret LF "GET" LF returnUrl
//   as registered (its own query included, the gateway's added parameters not) LF timestamp LF nonce LF
//   "payment=" + the decoded payment value LF (5.6, R11).
//   Accepted: 200 thank-you page. Refused: 403 page.
// - Authorization (5.3, R8), parsed the Java way: exactly one Authorization field (more refuse). SP and
//   HTAB at the field value's two ends are not part of it (RFC 9110 §5.5; also applied to the
//   redirect's authorization value, R8 "one more place of (a)"); nothing else is trimmed anywhere. The
//   value is read as ISO-8859-1, as a servlet container reads header bytes. The scheme: the exact prefix
//   "V2_SHA256 " (scheme word exact, one SP). The rest is split at every "," and empty elements are
//   dropped, wherever they are (R8 d; Java's split(",") drops the trailing ones). Each element must
//   contain "=" and is split at the first one; names compared exactly (appId, sign, timestamp, nonce);
//   unknown items IGNORED, one with an empty name included (R8 b); a known item twice, missing, or with
//   an empty value refuses the header (R8 strict).
// - sign (5.2, R7): exactly 64 lower-case hex digits; upper-case hex REFUSED (R7 acceptable). Compared
//   as the 64 ASCII digits with crypto.timingSafeEqual.
// - appId must be the merchant's own (R9, 5.3).
// - Replay and clock skew (R12): not checked (R12: accepting is never a failure).
// - Hostile input never gets a 500: an error in the chain ends in the endpoint's refusal.
//
// Certify with --accept-body SUCCESS. `pgv2kit fuzz --merchant-notify` has no --accept-body and reads
// this member's "200 FAIL" refusals as acceptances: a kit defect, not a member error.
//
// Interface: env MERCHANT_APP_ID, MERCHANT_APP_SECRET (required, exit 2 without), MERCHANT_NOTIFY_URL,
// MERCHANT_RETURN_URL (as registered; routed on their paths), MERCHANT_HOST (127.0.0.1),
// MERCHANT_PORT (0). Prints its origin once listening; exits on SIGTERM and when stdin ends.
// export start({ appId, appSecret, notifyUrl, returnUrl, host, port }) -> Promise<{ url, close() }>.

import http from 'node:http';
import crypto from 'node:crypto';
import { pathToFileURL } from 'node:url';

const MAX_BODY = 1024 * 1024;
const KNOWN = new Set(['appId', 'sign', 'timestamp', 'nonce']);

// ---------- the chain ----------

function createApp() {
  const stack = [];
  const app = (req, res) => {
    let i = 0;
    const next = (err) => {
      const layer = stack[i++];
      if (!layer) {
        if (err) return fallbackError(err, req, res);
        return notFound(req, res);
      }
      const isErrorHandler = layer.length === 4;
      try {
        if (err) {
          if (isErrorHandler) layer(err, req, res, next);
          else next(err);
        } else if (!isErrorHandler) {
          layer(req, res, next);
        } else next();
      } catch (e) {
        next(e);
      }
    };
    next();
  };
  app.use = (fn) => {
    stack.push(fn);
    return app;
  };
  return app;
}

function send(res, status, body, type = 'text/plain; charset=utf-8') {
  if (res.headersSent) return res.destroy();
  const buf = Buffer.from(body, 'utf8');
  res.writeHead(status, { 'content-type': type, 'content-length': buf.length });
  res.end(buf);
}

function page(res, status, text) {
  send(res, status, `<!doctype html><html><body><h1>${text}</h1></body></html>\n`, 'text/html; charset=utf-8');
}

function notFound(req, res) {
  page(res, 404, 'Not found');
}

function fallbackError(err, req, res) {
  page(res, 400, 'Bad request');
}

class VerificationError extends Error {}

// ---------- middlewares ----------

function rawBody({ limit }) {
  return (req, res, next) => {
    const chunks = [];
    let size = 0;
    let over = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (over) return send(res, 413, 'payload too large');
      req.rawBody = Buffer.concat(chunks);
      next();
    });
  };
}

function router(cfg) {
  return (req, res, next) => {
    const q = req.url.indexOf('?');
    req.path = q < 0 ? req.url : req.url.slice(0, q);
    req.rawQuery = q < 0 ? '' : req.url.slice(q + 1);
    if (req.path === cfg.notifyPath) {
      if (req.method !== 'POST') return send(res, 405, 'method not allowed');
      req.endpoint = 'notify';
    } else if (req.path === cfg.returnPath) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'method not allowed');
      req.endpoint = 'return';
    }
    next();
  };
}

// The Java way: "V2_SHA256 " prefix, split(","), empty elements dropped, names exact, unknown ignored.
export function parseAuthorization(headerValue) {
  if (typeof headerValue !== 'string') throw new VerificationError('no Authorization');
  const value = headerValue.replace(/^[ \t]+|[ \t]+$/g, ''); // RFC 9110 §5.5 only
  const prefix = 'V2_SHA256 ';
  if (!value.startsWith(prefix)) throw new VerificationError('not V2_SHA256');
  const elements = value
    .slice(prefix.length)
    .split(',')
    .filter((e) => e.length > 0);
  if (elements.length === 0) throw new VerificationError('no items');
  const items = new Map();
  for (const element of elements) {
    const eq = element.indexOf('=');
    if (eq === -1) throw new VerificationError('item without "="');
    const name = element.substring(0, eq);
    const val = element.substring(eq + 1);
    if (!KNOWN.has(name)) continue;
    if (items.has(name)) throw new VerificationError('duplicate ' + name);
    if (val.length === 0) throw new VerificationError('empty ' + name);
    items.set(name, val);
  }
  for (const n of KNOWN) if (!items.has(n)) throw new VerificationError('missing ' + n);
  return {
    appId: items.get('appId'),
    sign: items.get('sign'),
    timestamp: items.get('timestamp'),
    nonce: items.get('nonce'),
  };
}

function verifySignature(cfg, auth, method, url, part7) {
  if (auth.appId !== cfg.appId) throw new VerificationError('foreign appId');
  if (auth.sign.length !== 64 || !/^[0-9a-f]{64}$/.test(auth.sign))
    throw new VerificationError('sign is not 64 lower-case hex digits');
  const h = crypto.createHash('sha256');
  for (const part of [auth.appId, cfg.appSecret, method, url, auth.timestamp, auth.nonce]) {
    h.update(Buffer.from(part, 'utf8'));
    h.update(Buffer.from([0x0a]));
  }
  h.update(part7);
  h.update(Buffer.from([0x0a]));
  const expected = Buffer.from(h.digest('hex'), 'latin1');
  const given = Buffer.from(auth.sign, 'latin1');
  if (!crypto.timingSafeEqual(expected, given)) throw new VerificationError('signature mismatch');
}

function theAuthorizationHeader(req) {
  const values = req.headersDistinct.authorization ?? [];
  if (values.length !== 1) throw new VerificationError(values.length ? 'Authorization twice' : 'no Authorization');
  return values[0]; // Node keeps header bytes as latin1 (ISO-8859-1) characters
}

function verifyWebhook(cfg) {
  return (req, res, next) => {
    if (req.endpoint !== 'notify') return next();
    try {
      const auth = parseAuthorization(theAuthorizationHeader(req));
      verifySignature(cfg, auth, 'POST', cfg.notifyUrl, req.rawBody);
      req.verified = auth;
    } catch (e) {
      if (!(e instanceof VerificationError)) req.unexpected = e;
      return send(res, 200, 'FAIL');
    }
    next();
  };
}

function decodeComponent(s) {
  return decodeURIComponent(s.replace(/\+/g, ' ')); // throws URIError on bad escapes / invalid UTF-8
}

function parseQuery(raw) {
  const out = [];
  for (const piece of raw.split('&')) {
    if (piece === '') continue;
    const eq = piece.indexOf('=');
    const name = eq === -1 ? piece : piece.substring(0, eq);
    const value = eq === -1 ? '' : piece.substring(eq + 1);
    out.push([decodeComponent(name), decodeComponent(value)]);
  }
  return out;
}

function verifyRedirect(cfg) {
  return (req, res, next) => {
    if (req.endpoint !== 'return') return next();
    try {
      if (req.rawQuery.includes('#')) throw new VerificationError('fragment');
      let params;
      try {
        params = parseQuery(req.rawQuery);
      } catch {
        throw new VerificationError('query is not valid percent-encoded UTF-8');
      }
      const payments = params.filter(([n]) => n === 'payment');
      const auths = params.filter(([n]) => n === 'authorization');
      if (payments.length !== 1 || auths.length !== 1)
        throw new VerificationError('payment and authorization must each appear once');
      const auth = parseAuthorization(auths[0][1]);
      verifySignature(cfg, auth, 'GET', cfg.returnUrl, Buffer.from('payment=' + payments[0][1], 'utf8'));
      req.payment = payments[0][1];
      req.verified = auth;
    } catch {
      return page(res, 403, 'The payment could not be verified');
    }
    next();
  };
}

function jsonParser() {
  return (req, res, next) => {
    req.body = null;
    if (req.endpoint === 'notify' && req.rawBody.length > 0) {
      try {
        req.body = JSON.parse(req.rawBody.toString('utf8').replace(/^\uFEFF/, ''));
      } catch {
        req.body = null; // authentic, but not JSON: still acknowledged
      }
    }
    if (req.endpoint === 'return') {
      try {
        req.body = JSON.parse(req.payment);
      } catch {
        req.body = null;
      }
    }
    next();
  };
}

function handlers(cfg) {
  return (req, res, next) => {
    if (req.endpoint === 'notify') {
      cfg.onWebhook?.(req.body, req.rawBody);
      return send(res, 200, 'SUCCESS');
    }
    if (req.endpoint === 'return') return page(res, 200, 'Thank you for your payment');
    next();
  };
}

function errorHandler() {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- four parameters make an error handler
  return (err, req, res, next) => {
    if (req.endpoint === 'notify') return send(res, 200, 'FAIL');
    if (req.endpoint === 'return') return page(res, 403, 'The payment could not be verified');
    page(res, 400, 'Bad request');
  };
}

// ---------- server ----------

export function start(options = {}) {
  const { appId, appSecret } = options;
  if (!appId || !appSecret) return Promise.reject(new Error('appId and appSecret are required'));
  const cfg = {
    appId,
    appSecret,
    notifyUrl: options.notifyUrl,
    returnUrl: options.returnUrl,
    onWebhook: options.onWebhook,
  };
  const app = createApp()
    .use(rawBody({ limit: MAX_BODY }))
    .use(router(cfg))
    .use(verifyWebhook(cfg))
    .use(verifyRedirect(cfg))
    .use(jsonParser())
    .use(handlers(cfg))
    .use(errorHandler());
  const server = http.createServer(app);
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(options.port ?? 0), options.host || '127.0.0.1', () => {
      server.off('error', reject);
      const a = server.address();
      const url = `http://${a.family === 'IPv6' || a.family === 6 ? `[${a.address}]` : a.address}:${a.port}`;
      cfg.notifyUrl ||= `${url}/pg/notify`;
      cfg.returnUrl ||= `${url}/pg/return`;
      cfg.notifyPath = new URL(cfg.notifyUrl).pathname;
      cfg.returnPath = new URL(cfg.returnUrl).pathname;
      resolve({
        url,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const {
    MERCHANT_APP_ID,
    MERCHANT_APP_SECRET,
    MERCHANT_NOTIFY_URL,
    MERCHANT_RETURN_URL,
    MERCHANT_HOST,
    MERCHANT_PORT,
  } = process.env;
  if (!MERCHANT_APP_ID || !MERCHANT_APP_SECRET) {
    console.error('node-middleware: MERCHANT_APP_ID and MERCHANT_APP_SECRET are required');
    process.exit(2);
  }
  try {
    const server = await start({
      appId: MERCHANT_APP_ID,
      appSecret: MERCHANT_APP_SECRET,
      notifyUrl: MERCHANT_NOTIFY_URL,
      returnUrl: MERCHANT_RETURN_URL,
      host: MERCHANT_HOST || '127.0.0.1',
      port: MERCHANT_PORT || 0,
    });
    process.stdout.write(`${server.url}\n`);
    let stopping = false;
    const shutdown = async () => {
      if (stopping) return;
      stopping = true;
      await server.close();
      process.exit(0);
    };
    process.on('SIGTERM', shutdown);
    process.on('SIGINT', shutdown);
    process.stdin.on('end', shutdown);
    process.stdin.on('error', shutdown);
    process.stdin.resume();
  } catch (e) {
    console.error(`node-middleware: ${e.message}`);
    process.exit(1);
  }
}
