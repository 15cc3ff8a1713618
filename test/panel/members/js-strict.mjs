// Panel member `js-strict`: a correct V2_SHA256 implementation (protocol v1 adapter) written from
// gateway-spec.md and readings.md alone. Its defensible choices:
// - Authorization parsing (5.3, R8): exactly R8's strict parser — "V2_SHA256", one SP, items
//   split at every ",", each split at its first "="; nothing trimmed anywhere; the scheme word
//   compared exactly; unknown items refused (the empty name too); a missing, duplicate or empty
//   item, no items and an item without "=" refused. Values returned exactly as written.
// - A streaming signer (5.1, 5.2): `crypto.createHash` is fed part by part and the body in chunks
//   of 5 bytes; the content is never held in one buffer to be signed.
// - Sign compared exactly against the lower-case digest: upper-case hex refused (R7).
// - Upload (2.2, 8, R13): 2 MB = 2,097,152 bytes; extensions compared exactly ("PDF" refused).
// - Redirect (R11): the query is parsed by hand; names and values percent-decoded as UTF-8 bytes
//   with "+" as space; malformed escapes or UTF-8 make the redirect invalid.
// - Upload form (R14): no Content-Type line on the file part when no contentType was requested.
// Everything else as the spec and the readings say: content bytes R1–R3, URL as sent R4, only a
// 200 response is verified and its appId must be the merchant's own (R9), webhook part 4 is the
// notifyUrl as submitted (R10).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { serve } from './_protocol.mjs';

const SCHEME_AND_SP = 'V2_SHA256 ';
const ITEM_NAMES = ['appId', 'sign', 'timestamp', 'nonce'];
const ACCEPTED_EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx'];
const LIMIT = 2_097_152;
const NEWLINE = Buffer.from([0x0a]);
const CHUNK = 5;

/** The six text parts of 5.1 as UTF-8 (R3, R5, R6). */
const textParts = (i) =>
  [i.appId, i.appSecret, i.method, i.url, i.timestamp, i.nonce].map((p) => Buffer.from(p, 'utf8'));

/** 5.1, 5.2: streamed into the hash; each part then LF, the body 5 bytes at a time, then LF (R1, R2). */
function streamSign(i, body) {
  const hash = createHash('sha256');
  for (const part of textParts(i)) {
    hash.update(part);
    hash.update(NEWLINE);
  }
  for (let at = 0; at < body.length; at += CHUNK) hash.update(body.subarray(at, at + CHUNK));
  hash.update(NEWLINE);
  return hash.digest('hex');
}

/** signature.content: the same parts, concatenated (only for the content operation). */
function contentBytes(i, body) {
  const pieces = [];
  for (const part of textParts(i)) pieces.push(part, NEWLINE);
  pieces.push(body, NEWLINE);
  return Buffer.concat(pieces);
}

function strictParse(header) {
  if (typeof header !== 'string') throw new Error('Authorization is not a string');
  if (!header.startsWith(SCHEME_AND_SP)) throw new Error('not "V2_SHA256" followed by one SP');
  const rest = header.slice(SCHEME_AND_SP.length);
  if (rest.length === 0) throw new Error('no items');
  const out = new Map();
  for (const item of rest.split(',')) {
    const eq = item.indexOf('=');
    if (eq === -1) throw new Error(`item without "=": ${JSON.stringify(item)}`);
    const name = item.slice(0, eq);
    const value = item.slice(eq + 1);
    if (!ITEM_NAMES.includes(name)) throw new Error(`unknown item ${JSON.stringify(name)}`);
    if (out.has(name)) throw new Error(`duplicate item ${name}`);
    if (value.length === 0) throw new Error(`empty item ${name}`);
    out.set(name, value);
  }
  for (const name of ITEM_NAMES) if (!out.has(name)) throw new Error(`missing item ${name}`);
  return { appId: out.get('appId'), sign: out.get('sign'), timestamp: out.get('timestamp'), nonce: out.get('nonce') };
}

function strictFormat(i) {
  const items = ITEM_NAMES.map((name) => {
    const v = i[name];
    if (typeof v !== 'string' || v.length === 0 || v.includes(',')) throw new Error(`${name} cannot be formatted`);
    return `${name}=${v}`;
  });
  return SCHEME_AND_SP + items.join(',');
}

function sameSign(given, expected) {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given, 'latin1'), Buffer.from(expected, 'latin1')) && /^[0-9a-f]{64}$/.test(given);
}

function check(appId, appSecret, method, url, authorization, body) {
  if (authorization === null || authorization === undefined) return { valid: false, reason: 'no Authorization' };
  let a;
  try {
    a = strictParse(authorization);
  } catch (e) {
    return { valid: false, reason: e.message };
  }
  if (a.appId !== appId) return { valid: false, reason: "appId is not the merchant's" };
  const expected = streamSign({ appId, appSecret, method, url, timestamp: a.timestamp, nonce: a.nonce }, body);
  return sameSign(a.sign, expected) ? { valid: true } : { valid: false, reason: 'sign mismatch' };
}

const HEX = '0123456789abcdefABCDEF';

/** R11: "+" is a space, %XX a byte, the bytes UTF-8 (fatal, a BOM kept). */
function formDecode(text) {
  const src = Buffer.from(text.replaceAll('+', ' '), 'utf8');
  const out = Buffer.alloc(src.length);
  let n = 0;
  for (let k = 0; k < src.length; k++) {
    if (src[k] === 0x25) {
      const h = String.fromCharCode(src[k + 1] ?? 0, src[k + 2] ?? 0);
      if (!HEX.includes(h[0]) || !HEX.includes(h[1])) throw new Error('malformed percent-escape');
      out[n++] = parseInt(h, 16);
      k += 2;
    } else {
      out[n++] = src[k];
    }
  }
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(out.subarray(0, n));
}

function redirect({ appId, appSecret, returnUrl, redirectUrl }) {
  const invalid = (reason) => ({ valid: false, payment: null, reason });
  const withoutFragment = redirectUrl.split('#')[0];
  const qAt = withoutFragment.indexOf('?');
  if (qAt === -1) return invalid('no query');
  const seen = { payment: [], authorization: [] };
  for (const field of withoutFragment.slice(qAt + 1).split('&')) {
    if (field === '') continue;
    const eqAt = field.indexOf('=');
    const rawName = eqAt === -1 ? field : field.slice(0, eqAt);
    const rawValue = eqAt === -1 ? '' : field.slice(eqAt + 1);
    let name;
    let value;
    try {
      name = formDecode(rawName);
      value = formDecode(rawValue);
    } catch (e) {
      return invalid(e.message);
    }
    if (Object.hasOwn(seen, name)) seen[name].push(value);
  }
  if (seen.payment.length !== 1 || seen.authorization.length !== 1)
    return invalid('payment and authorization must each appear once');
  const [payment] = seen.payment;
  const r = check(appId, appSecret, 'GET', returnUrl, seen.authorization[0], Buffer.from(`payment=${payment}`, 'utf8'));
  return r.valid ? { valid: true, payment } : invalid(r.reason);
}

function validate({ filename, contentType, scene, fileSize }) {
  const cp = (s) => Array.from(s).length;
  const problems = [];
  if (typeof filename !== 'string' || filename.length === 0) problems.push('filename is required');
  else {
    if (cp(filename) > 32) problems.push('filename exceeds 32 characters');
    const m = /^.+\.([^.]+)$/s.exec(filename);
    if (m === null) problems.push('filename has no extension');
    else if (!ACCEPTED_EXTENSIONS.includes(m[1])) problems.push(`extension "${m[1]}" is not accepted`);
  }
  if (contentType !== null && contentType !== undefined && (typeof contentType !== 'string' || cp(contentType) > 32))
    problems.push('contentType exceeds 32 characters');
  if (typeof scene !== 'string' || scene.length === 0) problems.push('scene is required');
  else if (cp(scene) > 50) problems.push('scene exceeds 50 characters');
  else if (scene !== 'DISPUTE_EVIDENCE') problems.push('scene is not DISPUTE_EVIDENCE');
  if (fileSize !== null && fileSize !== undefined) {
    if (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize < 0)
      problems.push('fileSize is not a byte count');
    else if (fileSize > LIMIT) problems.push('file exceeds 2 MB (2,097,152 bytes)');
  }
  return problems.length === 0 ? { valid: true } : { valid: false, reason: problems.join('; ') };
}

function form({ formFields, filename, contentType, fileB64 }) {
  const file = Buffer.from(fileB64, 'base64');
  const list = Array.isArray(formFields) ? formFields : Object.entries(formFields);
  const esc = (s) => {
    if (/[\r\n]/.test(s)) throw new Error('CR or LF in a part header');
    return s.replace(/["\\]/g, '\\$&');
  };
  let boundary;
  do boundary = `strict-${randomBytes(18).toString('base64url')}`;
  while (file.includes(boundary) || list.some(([n, v]) => `${n}${v}`.includes(boundary)));
  const lines = [];
  for (const [name, value] of list)
    lines.push(`--${boundary}\r\nContent-Disposition: form-data; name="${esc(name)}"\r\n\r\n${value}\r\n`);
  lines.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${esc(filename)}"\r\n`);
  if (contentType !== null && contentType !== undefined) lines.push(`Content-Type: ${contentType}\r\n`);
  lines.push('\r\n');
  const body = Buffer.concat([
    Buffer.from(lines.join(''), 'utf8'),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, bodyB64: body.toString('base64') };
}

const body = (i) => Buffer.from(i.bodyB64, 'base64');

serve(
  { name: 'panel-js-strict', version: '1.0.0', language: 'javascript' },
  {
    'signature.content': (i) => ({ contentB64: contentBytes(i, body(i)).toString('base64') }),
    'signature.sign': (i) => ({ sign: streamSign(i, body(i)) }),
    'authorization.format': (i) => ({ header: strictFormat(i) }),
    'authorization.parse': (i) => strictParse(i.header),
    'request.verify': (i) => check(i.appId, i.appSecret, i.method, i.url, i.authorization, body(i)),
    'response.verify': (i) =>
      i.status === 200
        ? check(i.appId, i.appSecret, i.method, i.url, i.authorization, body(i))
        : { valid: false, reason: `HTTP ${i.status}: only a 200 is verified (R9)` },
    'webhook.verify': (i) => check(i.appId, i.appSecret, i.method, i.notifyUrl, i.authorization, body(i)),
    'redirect.verify': redirect,
    'upload.validate': validate,
    'upload.form': form,
  },
);
