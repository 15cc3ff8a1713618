// Panel member `java-trim`: a correct V2_SHA256 implementation (protocol v1 adapter) that emulates
// how a Java SDK is commonly written, from gateway-spec.md and readings.md alone. Its defensible
// choices:
// - Authorization parsing (5.3, R8): the header must start with "V2_SHA256 " exactly (scheme word
//   compared exactly, one SP: R8 strict); the rest is split at every "," (`split(",", -1)`), each
//   item trimmed like Java `String.trim()` (every char <= U+0020 at both ends: R8 (a), the Java
//   set — this also covers white space after the scheme word, which is the start of the first
//   item), then split at the first "=" with Java's `\s*=\s*` (white space [ \t\n\x0B\f\r] on both
//   sides of "=" removed: R8 (a), "=" sides chosen independently of the item ends). White space
//   inside a value is kept. Unknown items are ignored (R8 (b)).
// - Sign compared as a string against the lower-case digest: upper-case hex refused (R7).
// - Upload (2.2, 8, R13): 2 MB = 2,097,152 bytes; extensions compared exactly, so "PDF" is refused.
// - Authorization format (5.3): items in the order appId, timestamp, nonce, sign (any order is
//   allowed); an empty value or one holding "," is refused.
// - Upload form (4.2, R14): the formFields are copied into a `TreeMap<String, String>`, so the text
//   parts go sorted by name (UTF-16 order, as `String.compareTo`), not in the order received: R14
//   makes another order acceptable (the spec's failures are a file part not last and an entry
//   missing or modified). Every entry once, unchanged; the file part last.
// Everything else as the spec and the readings say: content bytes R1–R3, URL as sent R4, only a
// 200 response is verified and its appId must be the merchant's own (R9), webhook part 4 is the
// notifyUrl as submitted (R10), redirect query decoding R11, upload form R14.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { serve } from './_protocol.mjs';

const PREFIX = 'V2_SHA256 ';
const KEYS = new Set(['appId', 'sign', 'timestamp', 'nonce']);
const ALLOWED_TYPES = new Set(['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx']);
const MAX_SIZE = 2 * 1024 * 1024;
const LF = 0x0a;

/** Java `String.trim()`: removes every char <= U+0020 at both ends. */
function javaTrim(s) {
  let a = 0;
  let b = s.length;
  while (a < b && s.charCodeAt(a) <= 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) <= 0x20) b--;
  return s.substring(a, b);
}

/** Java regex `\s` without UNICODE_CHARACTER_CLASS: [ \t\n\x0B\f\r]. */
const isJavaSpace = (c) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

/** Java `item.split("\\s*=\\s*", 2)`: null when the item has no "=". */
function splitAtEquals(item) {
  const eq = item.indexOf('=');
  if (eq === -1) return null;
  let left = eq;
  while (left > 0 && isJavaSpace(item.charCodeAt(left - 1))) left--;
  let right = eq + 1;
  while (right < item.length && isJavaSpace(item.charCodeAt(right))) right++;
  return [item.substring(0, left), item.substring(right)];
}

function parseAuthorization(header) {
  if (header === null || header === undefined || !String(header).startsWith(PREFIX)) {
    throw new Error('Authorization does not start with "V2_SHA256 "');
  }
  const values = new Map();
  for (const part of String(header).substring(PREFIX.length).split(',')) {
    const kv = splitAtEquals(javaTrim(part));
    if (kv === null) throw new Error('malformed item (no "=")');
    const [key, value] = kv;
    if (!KEYS.has(key)) continue;
    if (values.has(key)) throw new Error(`duplicate item ${key}`);
    if (value.length === 0) throw new Error(`empty item ${key}`);
    values.set(key, value);
  }
  for (const key of KEYS) if (!values.has(key)) throw new Error(`missing item ${key}`);
  return {
    appId: values.get('appId'),
    sign: values.get('sign'),
    timestamp: values.get('timestamp'),
    nonce: values.get('nonce'),
  };
}

function formatAuthorization(input) {
  const order = ['appId', 'timestamp', 'nonce', 'sign'];
  const out = [];
  for (const key of order) {
    const value = input[key];
    if (typeof value !== 'string' || value.length === 0) throw new Error(`${key} is empty`);
    if (value.indexOf(',') >= 0) throw new Error(`${key} contains ","`);
    out.push(`${key}=${value}`);
  }
  return PREFIX + out.join(',');
}

/** 5.1 (R1–R3): builds the content in one pre-sized buffer, byte by byte. */
function signatureContent(input, body) {
  const parts = [input.appId, input.appSecret, input.method, input.url, input.timestamp, input.nonce].map((p) =>
    Buffer.from(String(p), 'utf8'),
  );
  let size = body.length + 1;
  for (const p of parts) size += p.length + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of parts) {
    at += p.copy(out, at);
    out[at++] = LF;
  }
  at += body.copy(out, at);
  out[at] = LF;
  return out;
}

/** 5.2 */
function sha256Hex(bytes) {
  return createHash('sha256').update(bytes).digest('hex');
}

function constantTimeEquals(a, b) {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function verifyMessage(appId, appSecret, method, url, authorization, body) {
  if (authorization == null) return { valid: false, reason: 'missing Authorization' };
  let auth;
  try {
    auth = parseAuthorization(authorization);
  } catch (e) {
    return { valid: false, reason: e.message };
  }
  if (auth.appId !== appId) return { valid: false, reason: 'appId mismatch' };
  const expected = sha256Hex(
    signatureContent({ appId, appSecret, method, url, timestamp: auth.timestamp, nonce: auth.nonce }, body),
  );
  if (!constantTimeEquals(auth.sign, expected)) return { valid: false, reason: 'signature mismatch' };
  return { valid: true };
}

/** R11: URL decoding, "+" as space, %XX as UTF-8 bytes; malformed escapes or UTF-8 throw. */
function urlDecode(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '+') {
      bytes.push(0x20);
    } else if (c === '%') {
      const hex = s.substring(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Error('bad escape');
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      const width = isHighSurrogate(s, i) ? 2 : 1;
      for (const b of Buffer.from(s.substring(i, i + width), 'utf8')) bytes.push(b);
      i += width - 1;
    }
  }
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Uint8Array.from(bytes));
}

function isHighSurrogate(s, i) {
  const c = s.charCodeAt(i);
  const d = s.charCodeAt(i + 1);
  return c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff;
}

function verifyRedirect(input) {
  const fail = (reason) => ({ valid: false, payment: null, reason });
  const url = input.redirectUrl;
  const qmark = url.indexOf('?');
  if (qmark === -1) return fail('no query string');
  const end = url.indexOf('#', qmark);
  const query = url.substring(qmark + 1, end === -1 ? url.length : end);
  let payment = null;
  let authorization = null;
  let payments = 0;
  let authorizations = 0;
  for (const pair of query.split('&')) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf('=');
    let key;
    let value;
    try {
      key = urlDecode(eq === -1 ? pair : pair.substring(0, eq));
      value = urlDecode(eq === -1 ? '' : pair.substring(eq + 1));
    } catch (e) {
      return fail(`undecodable query: ${e.message}`);
    }
    if (key === 'payment') {
      payments++;
      payment = value;
    } else if (key === 'authorization') {
      authorizations++;
      authorization = value;
    }
  }
  if (payments !== 1) return fail('payment must appear exactly once');
  if (authorizations !== 1) return fail('authorization must appear exactly once');
  const r = verifyMessage(
    input.appId,
    input.appSecret,
    'GET',
    input.returnUrl,
    authorization,
    Buffer.from('payment=' + payment, 'utf8'),
  );
  return r.valid ? { valid: true, payment } : fail(r.reason);
}

function validateUpload({ filename, contentType, scene, fileSize }) {
  const invalid = (reason) => ({ valid: false, reason });
  const codePoints = (s) => {
    let n = 0;
    for (let i = 0; i < s.length; i++) {
      if (isHighSurrogate(s, i)) i++;
      n++;
    }
    return n;
  };
  if (filename == null || filename.length === 0) return invalid('filename: required');
  if (codePoints(filename) > 32) return invalid('filename: max length 32');
  const dot = filename.lastIndexOf('.');
  if (dot < 1 || dot === filename.length - 1) return invalid('filename: must include an extension');
  const extension = filename.substring(dot + 1);
  if (!ALLOWED_TYPES.has(extension)) return invalid(`filename: extension ${extension} not accepted`);
  if (contentType != null && codePoints(contentType) > 32) return invalid('contentType: max length 32');
  if (scene == null || scene.length === 0) return invalid('scene: required');
  if (codePoints(scene) > 50) return invalid('scene: max length 50');
  if (scene !== 'DISPUTE_EVIDENCE') return invalid('scene: not an allowed value');
  if (fileSize != null && (!Number.isSafeInteger(fileSize) || fileSize < 0)) return invalid('fileSize: not a size');
  if (fileSize != null && fileSize > MAX_SIZE) return invalid('file: larger than 2 MB (2,097,152 bytes)');
  return { valid: true };
}

function buildForm({ formFields, filename, contentType, fileB64 }) {
  const file = Buffer.from(fileB64, 'base64');
  // a TreeMap copy: sorted by name, as String.compareTo orders them (R14: another order is acceptable)
  const pairs = [...(Array.isArray(formFields) ? formFields : Object.entries(formFields))].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const boundary = `----JavaPanelBoundary${randomUUID().replace(/-/g, '')}`;
  const header = (s) => {
    if (s.includes('\r') || s.includes('\n')) throw new Error('line break in a part header');
    return s.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  };
  const chunks = [];
  for (const [name, value] of pairs) {
    chunks.push(Buffer.from(`--${boundary}\r\n`, 'utf8'));
    chunks.push(Buffer.from(`Content-Disposition: form-data; name="${header(name)}"\r\n\r\n`, 'utf8'));
    chunks.push(Buffer.from(String(value), 'utf8'));
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}\r\n`, 'utf8'));
  chunks.push(Buffer.from(`Content-Disposition: form-data; name="file"; filename="${header(filename)}"\r\n`, 'utf8'));
  if (contentType != null) chunks.push(Buffer.from(`Content-Type: ${contentType}\r\n`, 'utf8'));
  chunks.push(Buffer.from('\r\n', 'utf8'), file, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'));
  const body = Buffer.concat(chunks);
  if (file.includes(boundary) || pairs.some(([, v]) => String(v).includes(boundary)))
    return buildForm({ formFields, filename, contentType, fileB64 });
  return { contentType: `multipart/form-data; boundary=${boundary}`, bodyB64: body.toString('base64') };
}

const bytesOf = (b64) => Buffer.from(b64, 'base64');

serve(
  { name: 'panel-java-trim', version: '1.0.0', language: 'javascript' },
  {
    'signature.content': (i) => ({ contentB64: signatureContent(i, bytesOf(i.bodyB64)).toString('base64') }),
    'signature.sign': (i) => ({ sign: sha256Hex(signatureContent(i, bytesOf(i.bodyB64))) }),
    'authorization.format': (i) => ({ header: formatAuthorization(i) }),
    'authorization.parse': (i) => parseAuthorization(i.header),
    'request.verify': (i) => verifyMessage(i.appId, i.appSecret, i.method, i.url, i.authorization, bytesOf(i.bodyB64)),
    'response.verify': (i) =>
      i.status !== 200
        ? { valid: false, reason: 'status is not 200: not verified (R9)' }
        : verifyMessage(i.appId, i.appSecret, i.method, i.url, i.authorization, bytesOf(i.bodyB64)),
    'webhook.verify': (i) =>
      verifyMessage(i.appId, i.appSecret, i.method, i.notifyUrl, i.authorization, bytesOf(i.bodyB64)),
    'redirect.verify': verifyRedirect,
    'upload.validate': validateUpload,
    'upload.form': buildForm,
  },
);
