// Panel member `js-regex`: a correct V2_SHA256 implementation (protocol v1 adapter) written from
// gateway-spec.md and readings.md alone. Its defensible choices:
// - Authorization parsing (5.3, R8): one regular expression over the whole header — "V2_SHA256",
//   one SP, then items separated by ","; optional white space OWS = [ \t]* (RFC 9110) is allowed and
//   dropped after the scheme's SP, at both ends of every item and on both sides of the first "="
//   (R8 (a), the SP/HTAB set); then a global item regular expression takes name and value out of
//   each item. Any other white space is kept (and so is white space inside a value).
// - Unknown items (the empty name too) are refused, as in the strict parser; the scheme word is
//   compared exactly.
// - The sign is accepted in lower case or in upper case (the right digest, R7); mixed case,
//   wrong length or non-hex refused.
// - Upload (2.2, 8, R13): 2 MB = 2,097,152 bytes; upper-case extensions accepted ("PDF", not "Pdf").
// - Authorization format (5.3): items written in the order nonce, timestamp, sign, appId (any
//   order is allowed); a value that is empty, holds "," or a line break is refused.
// - Upload form (R14): the boundary parameter of the Content-Type is a quoted string (RFC 2046
//   allows both forms); the file part has no Content-Type line when no contentType was requested.
// - Redirect (R11): the query split with `URLSearchParams`-like rules but decoded strictly
//   (`decodeURIComponent` after "+" → space; malformed input is invalid).
// Everything else as the spec and the readings say: content bytes R1–R3, URL as sent R4, only a
// 200 response is verified and its appId must be the merchant's own (R9), webhook part 4 is the
// notifyUrl as submitted (R10).
import { createHash, randomBytes } from 'node:crypto';
import { serve } from './_protocol.mjs';

const ITEM_SRC = '[ \\t]*[^,=]*?[ \\t]*=[ \\t]*[^,]*?[ \\t]*';
const HEADER_RE = new RegExp(`^V2_SHA256 (${ITEM_SRC}(?:,${ITEM_SRC})*)$`);
const ITEM_RE = /(?:^|,)[ \t]*([^,=]*?)[ \t]*=[ \t]*([^,]*?)[ \t]*(?=,|$)/g;
const KNOWN = new Set(['appId', 'sign', 'timestamp', 'nonce']);
const FILENAME_RE = /^[^]+\.(jpg|jpeg|png|pdf|xls|xlsx|JPG|JPEG|PNG|PDF|XLS|XLSX)$/;
const MAX_BYTES = 2_097_152;

function parseHeader(header) {
  if (typeof header !== 'string') throw new Error('no header');
  const m = HEADER_RE.exec(header);
  if (m === null) throw new Error('header does not match V2_SHA256 SP item *("," item)');
  const items = {};
  let count = 0;
  for (const [, name, value] of m[1].matchAll(ITEM_RE)) {
    count++;
    if (!KNOWN.has(name)) throw new Error(`unknown item "${name}"`);
    if (Object.hasOwn(items, name)) throw new Error(`repeated item ${name}`);
    if (value === '') throw new Error(`empty item ${name}`);
    items[name] = value;
  }
  if (count !== m[1].split(',').length) throw new Error('an item could not be read');
  for (const name of KNOWN) if (!Object.hasOwn(items, name)) throw new Error(`no ${name} item`);
  return { appId: items.appId, sign: items.sign, timestamp: items.timestamp, nonce: items.nonce };
}

function formatHeader({ appId, sign, timestamp, nonce }) {
  const ordered = [
    ['nonce', nonce],
    ['timestamp', timestamp],
    ['sign', sign],
    ['appId', appId],
  ];
  for (const [k, v] of ordered)
    if (typeof v !== 'string' || !/^[^,\r\n]+$/.test(v)) throw new Error(`${k} cannot go into a header`);
  return `V2_SHA256 ${ordered.map(([k, v]) => `${k}=${v}`).join(',')}`;
}

/** 5.1 (R1–R3). */
function buildContent(p, body) {
  return Buffer.concat([
    ...[p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].flatMap((s) => [
      Buffer.from(s, 'utf8'),
      Buffer.from('\n'),
    ]),
    body,
    Buffer.from('\n'),
  ]);
}

/** 5.2 */
const hexSign = (b) => createHash('sha256').update(b).digest('hex');

function verify(p, body) {
  if (typeof p.authorization !== 'string') return { valid: false, reason: 'no Authorization' };
  let h;
  try {
    h = parseHeader(p.authorization);
  } catch (e) {
    return { valid: false, reason: e.message };
  }
  if (h.appId !== p.appId) return { valid: false, reason: "appId differs from the merchant's" };
  const want = hexSign(buildContent({ ...p, timestamp: h.timestamp, nonce: h.nonce }, body));
  // R7: the right digest in lower case, or all in upper case.
  let diff = h.sign.length === want.length ? 0 : 1;
  let diffUpper = diff;
  const upper = want.toUpperCase();
  for (let k = 0; k < want.length; k++) {
    const c = h.sign.charCodeAt(k) | 0;
    diff |= c ^ want.charCodeAt(k);
    diffUpper |= c ^ upper.charCodeAt(k);
  }
  return diff === 0 || diffUpper === 0 ? { valid: true } : { valid: false, reason: 'sign differs' };
}

function redirectVerify({ appId, appSecret, returnUrl, redirectUrl }) {
  const invalid = (reason) => ({ valid: false, payment: null, reason });
  const m = /^[^#?]*\?([^#]*)/s.exec(redirectUrl);
  if (!m) return invalid('no query string');
  const values = { payment: [], authorization: [] };
  const dec = (s) => decodeURIComponent(s.replace(/\+/g, '%20'));
  for (const [, k, v] of m[1].matchAll(/(?:^|&)([^&=]*)(?:=([^&]*))?/g)) {
    if (k === '' && v === undefined) continue;
    let key;
    let value;
    try {
      key = dec(k);
      value = dec(v ?? '');
    } catch {
      return invalid('malformed percent-encoding');
    }
    if (key === 'payment' || key === 'authorization') values[key].push(value);
  }
  if (values.payment.length !== 1 || values.authorization.length !== 1)
    return invalid('payment and authorization once each');
  const payment = values.payment[0];
  const r = verify(
    { appId, appSecret, method: 'GET', url: returnUrl, authorization: values.authorization[0] },
    Buffer.from(`payment=${payment}`, 'utf8'),
  );
  return r.valid ? { valid: true, payment } : invalid(r.reason);
}

function uploadValidate({ filename, contentType, scene, fileSize }) {
  const fail = (reason) => ({ valid: false, reason });
  const chars = (s) => s.match(/[^]/gu)?.length ?? 0;
  if (typeof filename !== 'string' || filename.length === 0) return fail('filename: required (2.1)');
  if (chars(filename) > 32) return fail('filename: more than 32 characters (2.1)');
  if (!/^[^]+\.[^.]+$/.test(filename)) return fail('filename: no extension (2.1)');
  if (!FILENAME_RE.test(filename)) return fail('filename: type not accepted (2.2)');
  if (contentType != null && chars(contentType) > 32) return fail('contentType: more than 32 characters (2.1)');
  if (typeof scene !== 'string' || scene.length === 0) return fail('scene: required (2.1)');
  if (chars(scene) > 50) return fail('scene: more than 50 characters (2.1)');
  if (!/^DISPUTE_EVIDENCE$/.test(scene)) return fail('scene: not an allowed value (2.2)');
  if (
    fileSize != null &&
    (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize < 0 || fileSize > MAX_BYTES)
  ) {
    return fail('fileSize: not within 2 MB = 2,097,152 bytes (8)');
  }
  return { valid: true };
}

function uploadForm({ formFields, filename, contentType, fileB64 }) {
  const file = Buffer.from(fileB64, 'base64');
  const fields = Array.isArray(formFields) ? formFields : Object.entries(formFields);
  const qs = (s) => {
    if (/[\r\n]/.test(s)) throw new Error('a line break in a part header');
    return `"${s.replace(/(["\\])/g, '\\$1')}"`;
  };
  const boundary = `RegexPanel_${randomBytes(20).toString('hex')}`;
  if (file.includes(boundary)) return uploadForm({ formFields, filename, contentType, fileB64 });
  let head = '';
  for (const [name, value] of fields)
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${qs(name)}\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename=${qs(filename)}\r\n`;
  if (contentType != null) head += `Content-Type: ${contentType}\r\n`;
  head += '\r\n';
  const body = Buffer.concat([Buffer.from(head, 'utf8'), file, Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return { contentType: `multipart/form-data; boundary="${boundary}"`, bodyB64: body.toString('base64') };
}

const bodyOf = (i) => Buffer.from(i.bodyB64, 'base64');

serve(
  { name: 'panel-js-regex', version: '1.0.0', language: 'javascript' },
  {
    'signature.content': (i) => ({ contentB64: buildContent(i, bodyOf(i)).toString('base64') }),
    'signature.sign': (i) => ({ sign: hexSign(buildContent(i, bodyOf(i))) }),
    'authorization.format': (i) => ({ header: formatHeader(i) }),
    'authorization.parse': (i) => parseHeader(i.header),
    'request.verify': (i) => verify(i, bodyOf(i)),
    'response.verify': (i) =>
      i.status === 200 ? verify(i, bodyOf(i)) : { valid: false, reason: 'only HTTP 200 is verified (R9)' },
    'webhook.verify': (i) => verify({ ...i, url: i.notifyUrl }, bodyOf(i)),
    'redirect.verify': redirectVerify,
    'upload.validate': uploadValidate,
    'upload.form': uploadForm,
  },
);
