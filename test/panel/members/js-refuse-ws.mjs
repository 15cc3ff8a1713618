// Panel member `js-refuse-ws`: a correct V2_SHA256 implementation (protocol v1 adapter) written
// from gateway-spec.md and readings.md alone. Its defensible choices:
// - Authorization parsing (5.3, R8): the header is refused when white space — the set JavaScript's
//   `String.prototype.trim` removes (JS `\s`: SP, HTAB, LF, VT, FF, CR, U+00A0, U+1680,
//   U+2000–U+200A, U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF) — stands at any place R8 names:
//   after the one SP that follows the scheme word, at either end of any item (the last item's end
//   is the header's end), on either side of an item's first "=" (R8 (a), "refuse" at every place).
//   White space inside a value is kept, as R8 says it always is.
// - Unknown items (the empty name too) are ignored (R8 (b)).
// - The scheme word is compared ASCII case-insensitively (a /i regular expression, R8 (c)).
// - The sign is decoded from hex and compared as 32 bytes: the right digest in upper (or mixed)
//   case is accepted (R7); anything but 64 hex digits is refused.
// - Upload (2.2, 8, R13): 2 MB = 2,000,000 bytes; the extension is compared case-insensitively
//   ("PDF" accepted).
// - Redirect (R11): the query decoded by `decodeURIComponent` after "+" → space.
// Everything else as the spec and the readings say: content bytes R1–R3, URL as sent R4, only a
// 200 response is verified and its appId must be the merchant's own (R9), webhook part 4 is the
// notifyUrl as submitted (R10), upload form R14.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { serve } from './_protocol.mjs';

const SCHEME = /^v2_sha256$/i;
const REQUIRED = ['appId', 'sign', 'timestamp', 'nonce'];
const FILE_TYPES = /^(jpg|jpeg|png|pdf|xls|xlsx)$/i;
const TWO_MB = 2_000_000;
const WS = /\s/u;

const isWs = (ch) => ch !== undefined && WS.test(ch);
const first = (s) => s[0];
const last = (s) => s[s.length - 1];

function parse(header) {
  if (typeof header !== 'string') throw new Error('Authorization missing');
  if (!SCHEME.test(header.slice(0, 9)) || header[9] !== ' ') throw new Error('scheme is not V2_SHA256 followed by SP');
  const rest = header.slice(10);
  if (rest === '') throw new Error('no items');
  if (isWs(first(rest))) throw new Error('white space after the scheme word');
  const map = Object.create(null);
  for (const item of rest.split(',')) {
    if (isWs(first(item)) || isWs(last(item))) throw new Error('white space at the end of an item');
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error('item without "="');
    const name = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (isWs(last(name)) || isWs(first(value))) throw new Error('white space beside "="');
    if (!REQUIRED.includes(name)) continue;
    if (name in map) throw new Error(`${name} given twice`);
    if (value === '') throw new Error(`${name} is empty`);
    map[name] = value;
  }
  const missing = REQUIRED.filter((n) => !(n in map));
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}`);
  return { appId: map.appId, sign: map.sign, timestamp: map.timestamp, nonce: map.nonce };
}

function format(i) {
  for (const n of REQUIRED) {
    if (typeof i[n] !== 'string' || i[n] === '' || i[n].includes(',')) throw new Error(`${n}: not a header value`);
  }
  return `V2_SHA256 appId=${i.appId},sign=${i.sign},timestamp=${i.timestamp},nonce=${i.nonce}`;
}

/** 5.1 (R1–R3): parts and LFs as UTF-8 text, then the body bytes and LF. */
function content(i, body) {
  const text = `${i.appId}\n${i.appSecret}\n${i.method}\n${i.url}\n${i.timestamp}\n${i.nonce}\n`;
  const head = new TextEncoder().encode(text);
  const out = new Uint8Array(head.length + body.length + 1);
  out.set(head, 0);
  out.set(body, head.length);
  out[out.length - 1] = 10;
  return Buffer.from(out.buffer, out.byteOffset, out.length);
}

/** 5.2: the digest as 32 bytes. */
const digest = (bytes) => createHash('sha256').update(bytes).digest();

function verify(appId, appSecret, method, url, authorization, body) {
  if (authorization == null) return { valid: false, reason: 'no Authorization' };
  let a;
  try {
    a = parse(authorization);
  } catch (e) {
    return { valid: false, reason: e.message };
  }
  if (a.appId !== appId) return { valid: false, reason: "appId is another merchant's" };
  if (!/^[0-9a-f]{64}$/i.test(a.sign)) return { valid: false, reason: 'sign is not 64 hex digits' };
  const expected = digest(content({ appId, appSecret, method, url, timestamp: a.timestamp, nonce: a.nonce }, body));
  return timingSafeEqual(Buffer.from(a.sign, 'hex'), expected)
    ? { valid: true }
    : { valid: false, reason: 'sign mismatch' };
}

function redirect({ appId, appSecret, returnUrl, redirectUrl }) {
  const bad = (reason) => ({ valid: false, payment: null, reason });
  const m = /^[^?#]*\?([^#]*)/s.exec(redirectUrl);
  if (m === null) return bad('no query');
  const found = new Map([
    ['payment', []],
    ['authorization', []],
  ]);
  for (const p of m[1].split('&')) {
    if (p === '') continue;
    const [k, ...v] = p.split('=');
    let key;
    let val;
    try {
      key = decodeURIComponent(k.replace(/\+/g, ' '));
      val = decodeURIComponent(v.join('=').replace(/\+/g, ' '));
    } catch {
      return bad('undecodable parameter');
    }
    found.get(key)?.push(val);
  }
  const payments = found.get('payment');
  const auths = found.get('authorization');
  if (payments.length !== 1 || auths.length !== 1) return bad('payment and authorization must be given once each');
  const r = verify(appId, appSecret, 'GET', returnUrl, auths[0], Buffer.from(`payment=${payments[0]}`, 'utf8'));
  return r.valid ? { valid: true, payment: payments[0] } : bad(r.reason);
}

function validate({ filename, contentType, scene, fileSize }) {
  const no = (reason) => ({ valid: false, reason });
  const length = (s) => [...s].length;
  if (filename == null || filename === '') return no('filename is required');
  if (length(filename) > 32) return no('filename too long (32)');
  const parts = filename.split('.');
  if (parts.length < 2 || (parts[0] === '' && parts.length === 2) || parts[parts.length - 1] === '')
    return no('filename has no extension');
  if (!FILE_TYPES.test(parts[parts.length - 1])) return no('file type not accepted');
  if (contentType != null && length(contentType) > 32) return no('contentType too long (32)');
  if (scene == null || scene === '') return no('scene is required');
  if (length(scene) > 50) return no('scene too long (50)');
  if (scene !== 'DISPUTE_EVIDENCE') return no('scene not allowed');
  if (fileSize != null && !(Number.isInteger(fileSize) && fileSize >= 0 && fileSize <= TWO_MB))
    return no('file size not within 0..2,000,000 bytes');
  return { valid: true };
}

function form({ formFields, filename, contentType, fileB64 }) {
  const file = Buffer.from(fileB64, 'base64');
  const entries = Array.isArray(formFields) ? formFields : Object.entries(formFields);
  const boundary = `--------------------------${randomBytes(12).toString('hex')}`;
  const q = (s) => {
    if (/[\r\n]/.test(s)) throw new Error('line break in a part header');
    return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  };
  const enc = (s) => Buffer.from(s, 'utf8');
  const pieces = [];
  for (const [name, value] of entries) {
    pieces.push(
      enc(`--${boundary}\r\nContent-Disposition: form-data; name="${q(name)}"\r\n\r\n`),
      enc(value),
      enc('\r\n'),
    );
  }
  pieces.push(
    enc(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${q(filename)}"\r\nContent-Type: ${contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  pieces.push(file, enc(`\r\n--${boundary}--\r\n`));
  if (file.includes(boundary)) return form({ formFields, filename, contentType, fileB64 });
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bodyB64: Buffer.concat(pieces).toString('base64'),
  };
}

const raw = (i) => Buffer.from(i.bodyB64, 'base64');

serve(
  { name: 'panel-js-refuse-ws', version: '1.0.0', language: 'javascript' },
  {
    'signature.content': (i) => ({ contentB64: content(i, raw(i)).toString('base64') }),
    'signature.sign': (i) => ({ sign: digest(content(i, raw(i))).toString('hex') }),
    'authorization.format': (i) => ({ header: format(i) }),
    'authorization.parse': (i) => parse(i.header),
    'request.verify': (i) => verify(i.appId, i.appSecret, i.method, i.url, i.authorization, raw(i)),
    'response.verify': (i) =>
      i.status !== 200
        ? { valid: false, reason: 'not a 200 (R9)' }
        : verify(i.appId, i.appSecret, i.method, i.url, i.authorization, raw(i)),
    'webhook.verify': (i) => verify(i.appId, i.appSecret, i.method, i.notifyUrl, i.authorization, raw(i)),
    'redirect.verify': redirect,
    'upload.validate': validate,
    'upload.form': form,
  },
);
