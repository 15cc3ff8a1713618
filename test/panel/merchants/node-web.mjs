// node-web.mjs — a panel merchant: node:http, the WHATWG URL/URLSearchParams, crypto.createHash and
// crypto.timingSafeEqual. Node 20, node: built-ins only. Written from gateway-spec.md (5.1-5.6, 6, 7),
// docs/readings.md and docs/guide/merchant-certification.md alone.
//
// Choices, and what each rests on:
// - Webhook (5.5, 6): POST to the notifyUrl's path only (other methods 405). The raw body is read as a
//   Buffer and signed as received, never re-serialized; unknown payload fields are fine (5.5, 9, R15).
//   Content = appId LF appSecret LF "POST" LF notifyUrl LF timestamp LF nonce LF body LF, parts 1-6 as
//   UTF-8, the body's exact bytes (a BOM or a final LF kept, so such a body ends in two LFs; an empty
//   body gives "nonce\n\n") (5.1, R1, R2, R3, R5, R6). Part 4 is MERCHANT_NOTIFY_URL as registered,
//   never the URL the call arrived on (R10).
//   Accepted: 204, no body. Refused: 401 with a JSON body {"error":"..."} (R16: any non-2xx refuses).
//   A verified body that is not JSON is still acknowledged (the delivery is authentic; the payload is
//   only read best-effort).
// - Return redirect (5.6, 6): GET/HEAD to the returnUrl's path. The query is read with the WHATWG
//   URL/URLSearchParams (application/x-www-form-urlencoded: "+" as space, percent-decoding as UTF-8).
//   Exactly one `payment` and one `authorization` parameter, else refused (R11). URLSearchParams turns
//   invalid UTF-8 into U+FFFD instead of failing, so the raw `payment`/`authorization` components are
//   also percent-decoded to bytes and checked with a fatal UTF-8 TextDecoder: invalid UTF-8 refuses
//   the redirect (R11 "percent-decoding as UTF-8"; a U+FFFD substitute would be a value the gateway
//   never signed). Malformed escapes ("%zz") stay literal, as URLSearchParams leaves them (a genuine
//   signer never sends them; either way the signature decides). A BOM is kept (R3). A request target
//   with "#" is refused (a fragment is never sent, R4). Content: appId LF secret LF "GET" LF returnUrl
//   as registered (its own query included, the gateway's added parameters not) LF timestamp LF nonce LF
//   "payment=" + the decoded payment value LF (5.6, R11).
//   Accepted: 302 to /thanks. Refused: 400 page (4xx refuses at the return endpoint).
// - Authorization (5.3, R8): exactly one Authorization field (more than one refuses). The field value
//   arrives without SP/HTAB at its ends (RFC 9110 §5.5; Node's parser strips them; trimmed again
//   here for the redirect's value, R8 "one more place of (a)"). Its bytes are decoded as UTF-8 (fatal:
//   invalid UTF-8 refuses). Scheme: the exact prefix "V2_SHA256 " (scheme word exact, one SP, R8
//   strict); then JS String.prototype.trim() at every R8 place (a): after the scheme word, both ends of
//   every item, both sides of "=" (split at the first "="); white space inside a value is kept. Item
//   names compared without regard to ASCII letter case (R8 e), so "APPID" is appId and a duplicate
//   after folding is refused. Unknown items are REFUSED (the strict rule); an empty list element, an
//   item without "=", a missing, duplicate or empty item refuse the header (R8 strict).
// - sign (5.2, R7): 64 hex digits, upper or mixed case ACCEPTED (R7 acceptable), compared as the 32
//   digest bytes with crypto.timingSafeEqual. Anything else (wrong length, non-hex) refused.
// - appId must be the merchant's own (R9, 5.3).
// - Replay and clock skew (R12): not checked (R12: accepting is never a failure).
// - Hostile input never gets a 500: every unexpected error ends in the endpoint's refusal.
//
// Certify with no extra option (acceptance is any 2xx at notify; the 400 page refuses at return).
// `pgv2kit fuzz --merchant-notify` reads only a 200 as acceptance, so it reports this member's 204 as a
// refusal of a genuine header: a kit defect (certify and R16 count any 2xx), not a member error.
//
// Interface: env MERCHANT_APP_ID, MERCHANT_APP_SECRET (required, exit 2 without), MERCHANT_NOTIFY_URL,
// MERCHANT_RETURN_URL (as registered; routed on their paths), MERCHANT_HOST (127.0.0.1),
// MERCHANT_PORT (0). Prints its origin once listening; exits on SIGTERM and when stdin ends.
// export start({ appId, appSecret, notifyUrl, returnUrl, host, port }) -> Promise<{ url, close() }>.

import http from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const SCHEME_PREFIX = 'V2_SHA256 ';
const ITEM_NAMES = ['appid', 'sign', 'timestamp', 'nonce'];
const MAX_BODY = 1024 * 1024;

class Refusal extends Error {}

function asciiLower(s) {
  return s.replace(/[A-Z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
}

// R8: strict rules after this member's leniency (JS trim at every place, names case-insensitive).
export function parseAuthorization(value) {
  if (typeof value !== 'string') throw new Refusal('no Authorization');
  // SP/HTAB at the ends of the value are not part of it (RFC 9110 §5.5).
  const v = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (!v.startsWith(SCHEME_PREFIX)) throw new Refusal('not a V2_SHA256 authorization');
  const rest = v.slice(SCHEME_PREFIX.length).trim();
  if (rest === '') throw new Refusal('no items');
  const found = Object.create(null);
  for (const element of rest.split(',')) {
    const item = element.trim();
    if (item === '') throw new Refusal('empty list element');
    const eq = item.indexOf('=');
    if (eq < 0) throw new Refusal('item without "="');
    const name = asciiLower(item.slice(0, eq).trim());
    const val = item.slice(eq + 1).trim();
    if (!ITEM_NAMES.includes(name)) throw new Refusal('unknown item');
    if (name in found) throw new Refusal(`duplicate item ${name}`);
    if (val === '') throw new Refusal(`empty item ${name}`);
    found[name] = val;
  }
  for (const n of ITEM_NAMES) if (!(n in found)) throw new Refusal(`missing item ${n}`);
  return { appId: found.appid, sign: found.sign, timestamp: found.timestamp, nonce: found.nonce };
}

function checkSign(auth, cfg, method, url, part7) {
  if (auth.appId !== cfg.appId) throw new Refusal("appId is not this merchant's");
  if (!/^[0-9A-Fa-f]{64}$/.test(auth.sign)) throw new Refusal('sign is not 64 hex digits');
  const hash = createHash('sha256');
  hash.update(`${auth.appId}\n${cfg.appSecret}\n${method}\n${url}\n${auth.timestamp}\n${auth.nonce}\n`, 'utf8');
  hash.update(part7);
  hash.update('\n', 'utf8');
  const expected = hash.digest();
  const given = Buffer.from(auth.sign, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal('signature mismatch');
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function headerValueUtf8(latin1) {
  try {
    return fatalUtf8.decode(Buffer.from(latin1, 'latin1'));
  } catch {
    throw new Refusal('Authorization is not UTF-8');
  }
}

const isHex = (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66);

// The bytes of one query component: "+" as space, valid %XX escapes as bytes, others literal.
function componentBytes(raw) {
  const s = raw.replace(/\+/g, ' ');
  const out = [];
  const enc = Buffer.from(s, 'utf8');
  for (let i = 0; i < enc.length; i++) {
    const b = enc[i];
    if (b === 0x25 && i + 2 < enc.length && isHex(enc[i + 1]) && isHex(enc[i + 2])) {
      out.push(parseInt(String.fromCharCode(enc[i + 1], enc[i + 2]), 16));
      i += 2;
    } else out.push(b);
  }
  return Buffer.from(out);
}

function sendJson(res, status, obj) {
  const body = Buffer.from(JSON.stringify(obj), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

function sendPage(res, status, text, extra = {}) {
  const body = Buffer.from(`<!doctype html><html><body><p>${text}</p></body></html>\n`, 'utf8');
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length, ...extra });
  res.end(body);
}

function singleAuthorization(req) {
  const all = req.headersDistinct.authorization;
  if (!all || all.length === 0) throw new Refusal('no Authorization');
  if (all.length !== 1) throw new Refusal('more than one Authorization field');
  return headerValueUtf8(all[0]);
}

function handleNotify(cfg, req, res) {
  const chunks = [];
  let size = 0;
  let tooBig = false;
  req.on('data', (c) => {
    size += c.length;
    if (size > MAX_BODY) tooBig = true;
    else chunks.push(c);
  });
  req.on('error', () => res.destroy());
  req.on('end', () => {
    if (tooBig) return sendJson(res, 413, { error: 'body too large' });
    const body = Buffer.concat(chunks);
    try {
      const auth = parseAuthorization(singleAuthorization(req));
      checkSign(auth, cfg, 'POST', cfg.notifyUrl, body);
    } catch (e) {
      return sendJson(res, 401, { error: e instanceof Refusal ? e.message : 'not verified' });
    }
    // Verified: the payload is read best-effort only (unknown fields welcome, R15).
    try {
      const text = body.toString('utf8').replace(/^\uFEFF/, '');
      cfg.onWebhook?.(text === '' ? null : JSON.parse(text));
    } catch {
      /* authentic but not JSON: acknowledged all the same */
    }
    res.writeHead(204);
    res.end();
  });
}

function handleReturn(cfg, req, res) {
  try {
    if (req.url.includes('#')) throw new Refusal('fragment in request target');
    const u = new URL('http://merchant.invalid' + req.url);
    const params = u.searchParams;
    const payments = params.getAll('payment');
    const auths = params.getAll('authorization');
    if (payments.length !== 1) throw new Refusal('payment must appear exactly once');
    if (auths.length !== 1) throw new Refusal('authorization must appear exactly once');
    // R11: invalid UTF-8 in either value refuses (URLSearchParams would substitute U+FFFD).
    for (const piece of u.search.slice(1).split('&')) {
      if (piece === '') continue;
      const eq = piece.indexOf('=');
      const name = new URLSearchParams(piece).keys().next().value;
      if (name === 'payment' || name === 'authorization') {
        try {
          fatalUtf8.decode(componentBytes(eq < 0 ? '' : piece.slice(eq + 1)));
        } catch {
          throw new Refusal(`${name} is not UTF-8`);
        }
      }
    }
    const auth = parseAuthorization(auths[0]);
    checkSign(auth, cfg, 'GET', cfg.returnUrl, Buffer.from('payment=' + payments[0], 'utf8'));
  } catch {
    return sendPage(res, 400, 'The payment could not be verified.');
  }
  res.writeHead(302, { location: '/thanks', 'content-length': 0 });
  res.end();
}

function pathOf(url) {
  return new URL(url).pathname;
}

export function start(options = {}) {
  const { appId, appSecret } = options;
  if (!appId || !appSecret) return Promise.reject(new Error('appId and appSecret are required'));
  const host = options.host || '127.0.0.1';
  const port = Number(options.port ?? 0);
  const cfg = {
    appId,
    appSecret,
    notifyUrl: options.notifyUrl,
    returnUrl: options.returnUrl,
    onWebhook: options.onWebhook,
  };

  const server = http.createServer((req, res) => {
    try {
      const q = req.url.indexOf('?');
      const path = q < 0 ? req.url : req.url.slice(0, q);
      if (path === cfg.notifyPath) {
        if (req.method !== 'POST') {
          req.resume();
          res.writeHead(405, { allow: 'POST', 'content-type': 'application/json', 'content-length': 0 });
          return res.end();
        }
        return handleNotify(cfg, req, res);
      }
      if (path === cfg.returnPath) {
        req.resume();
        if (req.method !== 'GET' && req.method !== 'HEAD') {
          res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
          return res.end();
        }
        return handleReturn(cfg, req, res);
      }
      if (path === '/thanks' && req.method === 'GET') {
        req.resume();
        return sendPage(res, 200, 'Thank you for your payment.');
      }
      req.resume();
      sendPage(res, 404, 'Not found.');
    } catch {
      if (!res.headersSent) sendPage(res, 400, 'Bad request.');
      else res.destroy();
    }
  });
  server.on('clientError', (err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const addr = server.address();
      const h = addr.family === 'IPv6' || addr.family === 6 ? `[${addr.address}]` : addr.address;
      const url = `http://${h}:${addr.port}`;
      cfg.notifyUrl ||= `${url}/pg/notify`;
      cfg.returnUrl ||= `${url}/pg/return`;
      cfg.notifyPath = pathOf(cfg.notifyUrl);
      cfg.returnPath = pathOf(cfg.returnUrl);
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

const isMain = process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const env = process.env;
  if (!env.MERCHANT_APP_ID || !env.MERCHANT_APP_SECRET) {
    process.stderr.write('node-web: MERCHANT_APP_ID and MERCHANT_APP_SECRET are required\n');
    process.exit(2);
  }
  start({
    appId: env.MERCHANT_APP_ID,
    appSecret: env.MERCHANT_APP_SECRET,
    notifyUrl: env.MERCHANT_NOTIFY_URL,
    returnUrl: env.MERCHANT_RETURN_URL,
    host: env.MERCHANT_HOST || '127.0.0.1',
    port: env.MERCHANT_PORT || 0,
  }).then(
    (server) => {
      process.stdout.write(server.url + '\n');
      let closing = false;
      const stop = () => {
        if (closing) return;
        closing = true;
        server.close().then(() => process.exit(0));
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      process.stdin.on('end', stop);
      process.stdin.on('error', stop);
      process.stdin.resume();
    },
    (err) => {
      process.stderr.write(`node-web: ${err.message}\n`);
      process.exit(1);
    },
  );
}
