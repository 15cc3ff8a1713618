// Panel member `js-trim`: a correct V2_SHA256 implementation (protocol v1 adapter) written from
// gateway-spec.md and readings.md alone. Its defensible choices:
// - Authorization parsing (5.3, R8): JavaScript `String.prototype.trim` at every place R8 lets a
//   parser remove white space: the ends of the whole header (the end is the end of the last item),
//   after the scheme word, both ends of every item, both sides of the first "=" (R8 (a), the JS
//   trim set incl. U+00A0, U+3000, U+FEFF, CR, LF). The strict rules apply after trimming, so a
//   duplicate that appears only after trimming is refused. White space inside a value is kept.
// - Unknown items (any name but the four, the empty name too) are ignored (R8 (b)).
// - The scheme word is compared after `toUpperCase` (R8 (c)).
// - A sign is compared without regard to hex letter case: the right digest in upper (or mixed)
//   case is accepted (R7); wrong length or non-hex is refused.
// - Upload (2.2, 8, R13): 2 MB = 2,000,000 bytes (the lower bound R13 allows); extensions compared
//   after lower-casing, so PDF is accepted.
// - Authorization format (5.3): appId, sign, timestamp, nonce in the spec's order; a value that
//   cannot be read back (empty or holding ",") is refused.
// Everything else as the spec and the readings say: content bytes R1–R3, URL as sent R4, only a
// 200 response is verified and its appId must be the merchant's own (R9), webhook part 4 is the
// notifyUrl as submitted (R10), redirect query decoding R11, upload form R14.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { serve } from './_protocol.mjs';

const SCHEME = 'V2_SHA256';
const NAMES = ['appId', 'sign', 'timestamp', 'nonce'];
const EXTENSIONS = ['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx'];
const MAX_FILE_BYTES = 2_000_000;

/** 5.1, R1–R3: the seven parts, each followed by LF; the body as its exact bytes. */
function content({ appId, appSecret, method, url, timestamp, nonce }, body) {
  const head = [appId, appSecret, method, url, timestamp, nonce].map((p) => `${p}\n`).join('');
  return Buffer.concat([Buffer.from(head, 'utf8'), body, Buffer.from('\n', 'utf8')]);
}

/** 5.2: lower-case hex SHA-256. */
const sign = (bytes) => createHash('sha256').update(bytes).digest('hex');

function parse(header) {
  if (typeof header !== 'string') throw new Error('no Authorization header');
  const whole = header.trim();
  const space = whole.indexOf(' ');
  if (space < 0) throw new Error('no items after the scheme word');
  if (whole.slice(0, space).toUpperCase() !== SCHEME) throw new Error('not the V2_SHA256 scheme');
  const rest = whole.slice(space + 1).trim();
  if (rest === '') throw new Error('no items');
  const found = {};
  for (const raw of rest.split(',')) {
    const item = raw.trim();
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error('an item without "="');
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (!NAMES.includes(name)) continue;
    if (Object.hasOwn(found, name)) throw new Error(`item ${name} appears twice`);
    if (value === '') throw new Error(`item ${name} is empty`);
    found[name] = value;
  }
  for (const name of NAMES) if (!Object.hasOwn(found, name)) throw new Error(`item ${name} is missing`);
  return { appId: found.appId, sign: found.sign, timestamp: found.timestamp, nonce: found.nonce };
}

function format({ appId, sign: s, timestamp, nonce }) {
  const items = { appId, sign: s, timestamp, nonce };
  for (const name of NAMES) {
    const v = items[name];
    if (typeof v !== 'string' || v === '' || v.includes(',')) throw new Error(`${name} cannot be written in a header`);
  }
  return `${SCHEME} ${NAMES.map((n) => `${n}=${items[n]}`).join(',')}`;
}

function signMatches(given, expected) {
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(given.toLowerCase(), 'ascii'), Buffer.from(expected, 'ascii'));
}

/** Verifies a signed message: header parsed, appId the merchant's own, sign over the content. */
function verify({ appId, appSecret, method, url, authorization }, body) {
  if (authorization == null) return { valid: false, reason: 'no Authorization' };
  let items;
  try {
    items = parse(authorization);
  } catch (e) {
    return { valid: false, reason: e.message };
  }
  if (items.appId !== appId) return { valid: false, reason: "appId is not the merchant's own" };
  const expected = sign(
    content({ appId, appSecret, method, url, timestamp: items.timestamp, nonce: items.nonce }, body),
  );
  return signMatches(items.sign, expected) ? { valid: true } : { valid: false, reason: 'sign does not match' };
}

const b64 = (s) => Buffer.from(s, 'base64');

/** R11: percent-decoding as UTF-8, "+" as space; malformed input throws. */
const decodeQuery = (s) => decodeURIComponent(s.replace(/\+/g, ' '));

function redirectVerify({ appId, appSecret, returnUrl, redirectUrl }) {
  const no = (reason) => ({ valid: false, payment: null, reason });
  const q = redirectUrl.indexOf('?');
  if (q < 0) return no('no query');
  let query = redirectUrl.slice(q + 1);
  const hash = query.indexOf('#');
  if (hash >= 0) query = query.slice(0, hash);
  const payments = [];
  const authorizations = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    let name;
    let value;
    try {
      name = decodeQuery(eq < 0 ? pair : pair.slice(0, eq));
      value = decodeQuery(eq < 0 ? '' : pair.slice(eq + 1));
    } catch {
      return no('malformed percent-encoding');
    }
    if (name === 'payment') payments.push(value);
    if (name === 'authorization') authorizations.push(value);
  }
  if (payments.length !== 1 || authorizations.length !== 1)
    return no('payment and authorization must appear once each');
  const payment = payments[0];
  const r = verify(
    { appId, appSecret, method: 'GET', url: returnUrl, authorization: authorizations[0] },
    Buffer.from(`payment=${payment}`, 'utf8'),
  );
  return r.valid ? { valid: true, payment } : no(r.reason);
}

function uploadValidate({ filename, contentType, scene, fileSize }) {
  const no = (reason) => ({ valid: false, reason });
  const len = (s) => [...s].length;
  if (typeof filename !== 'string' || filename === '') return no('filename is required (2.1)');
  if (len(filename) > 32) return no('filename is longer than 32 characters (2.1)');
  const dot = filename.lastIndexOf('.');
  if (dot <= 0 || dot === filename.length - 1) return no('filename has no extension (2.1)');
  const ext = filename.slice(dot + 1).toLowerCase();
  if (!EXTENSIONS.includes(ext)) return no(`extension ${ext} is not accepted (2.2)`);
  if (contentType != null && (typeof contentType !== 'string' || len(contentType) > 32))
    return no('contentType is longer than 32 characters (2.1)');
  if (typeof scene !== 'string' || scene === '') return no('scene is required (2.1)');
  if (len(scene) > 50) return no('scene is longer than 50 characters (2.1)');
  if (scene !== 'DISPUTE_EVIDENCE') return no('scene is not an allowed value (2.2)');
  if (fileSize != null) {
    if (!Number.isInteger(fileSize) || fileSize < 0) return no('fileSize is not a size');
    if (fileSize > MAX_FILE_BYTES) return no('file is larger than 2 MB (2,000,000 bytes) (2.2, 8)');
  }
  return { valid: true };
}

function uploadForm({ formFields, filename, contentType, fileB64 }) {
  const file = b64(fileB64);
  const fields = Array.isArray(formFields) ? formFields : Object.entries(formFields);
  const quote = (s) => {
    if (/[\r\n]/.test(s)) throw new Error('a line break cannot be sent in a part header');
    return s.replace(/[\\"]/g, (c) => `\\${c}`);
  };
  for (;;) {
    const boundary = `----jsTrimPanel${randomBytes(16).toString('hex')}`;
    const chunks = [];
    for (const [name, value] of fields) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
          'utf8',
        ),
      );
    }
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quote(filename)}"\r\n` +
          `Content-Type: ${contentType ?? 'application/octet-stream'}\r\n\r\n`,
        'utf8',
      ),
    );
    chunks.push(file, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'));
    const body = Buffer.concat(chunks);
    if (body.indexOf(`--${boundary}`) !== -1 && countOf(body, `--${boundary}`) === fields.length + 2) {
      return { contentType: `multipart/form-data; boundary=${boundary}`, bodyB64: body.toString('base64') };
    }
  }
}

function countOf(buf, s) {
  let n = 0;
  for (let i = buf.indexOf(s); i !== -1; i = buf.indexOf(s, i + 1)) n++;
  return n;
}

serve(
  { name: 'panel-js-trim', version: '1.0.0', language: 'javascript' },
  {
    'signature.content': (i) => ({ contentB64: content(i, b64(i.bodyB64)).toString('base64') }),
    'signature.sign': (i) => ({ sign: sign(content(i, b64(i.bodyB64))) }),
    'authorization.format': (i) => ({ header: format(i) }),
    'authorization.parse': (i) => parse(i.header),
    'request.verify': (i) => verify(i, b64(i.bodyB64)),
    'response.verify': (i) =>
      i.status === 200 ? verify(i, b64(i.bodyB64)) : { valid: false, reason: 'only a 200 response is verified (R9)' },
    'webhook.verify': (i) => verify({ ...i, url: i.notifyUrl }, b64(i.bodyB64)),
    'redirect.verify': redirectVerify,
    'upload.validate': uploadValidate,
    'upload.form': uploadForm,
  },
);
