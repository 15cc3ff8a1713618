// ZOO MEMBER node-length-utf16: test/panel/gateways/node-lenient-gateway.mjs with one bug — lengths are
// counted in UTF-16 units (String.prototype.length), not code points (R13): a 32-code-point name with astral
// characters is refused. Everything else as the panel member.
// node-lenient-gateway: a payment gateway as a Node team would write it from gateway-spec.md and
// readings.md alone. Node 20, `node:` built-ins only (node:http, node:crypto), multipart parsed by hand.
//
// Serves, on 127.0.0.1 at a free port:
//   POST /pg/v2/file/generateUploadUrl  (4.1, 2.1-2.4, 5.1-5.4)
//   POST /pg/v2/payment/create          (4.3, 2.5; data.paymentNo)
// and the upload address (4.2) on a second server of the same process (another free port).
// Credentials from PGV2_APP_ID / PGV2_APP_SECRET. First stdout line: `listening <base URL>`; it stops
// when stdin closes. Uploaded files are kept in memory.
//
// Its choices, where the readings leave them open:
//   - 2 MB = 2,000,000 bytes (R13: 2,000,001 to 2,097,152 may be refused); extensions compared without
//     regard to case (.PDF accepted, R13);
//   - the file part's own Content-Type is ignored: the Content-Type field, bound by the policy, is what
//     is stored (R14);
//   - errorMessage absent on success (2.3: not required);
//   - refusals of the API: HTTP 200 with a code that is not OK, signed per 5.4 like any 200 (R16);
//     refusals of the upload address: 4xx with a JSON body; unknown paths 404, other methods 405;
//   - Authorization: JS String.prototype.trim at every R8 place (after the scheme word, both ends of an
//     item, both sides of "=") (R8 a), the scheme word without regard to ASCII case (R8 c), unknown
//     items ignored, an empty name included (R8 b), empty list elements ignored (R8 d), item names
//     compared without regard to ASCII case (R8 e; a duplicate after folding is refused);
//   - sign: 64 hex digits in either case (R7), compared as bytes with crypto.timingSafeEqual;
//   - a reused nonce is accepted (R12: no rule given);
//   - formFields may arrive in any order (R14); an Authorization header at the upload address is ignored;
//   - 2.1 body: JSON.parse (a repeated key: the last wins), contentType null read as absent, unknown
//     fields ignored (9); lengths in code points (R13); scene equal to DISPUTE_EVIDENCE.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { extname } from 'node:path';

const APP_ID = process.env.PGV2_APP_ID;
const APP_SECRET = process.env.PGV2_APP_SECRET;
const POLICY_KEY = randomBytes(32);
const MAX_FILE = 2_000_000;
const MAX_BODY = 8 * 1024 * 1024;
const VALIDITY_MS = 10 * 60 * 1000;
const EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'pdf', 'xls', 'xlsx']);
const ITEMS = ['appId', 'sign', 'timestamp', 'nonce'];
const VENDOR = 'x-ngw';

const issued = new Map(); // object key -> { fields: Map, expires, storageUri }
const stored = new Map(); // storageUri -> Buffer
let uploadUrl;

class Refusal extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const asciiLower = (s) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

// 5.1 (R1-R3): parts 1-6 each with LF, the body's exact bytes, then LF. Header-borne parts are the
// bytes as received (Node reads header bytes as latin1).
function signature(method, url, timestamp, nonce, body, headerEncoding = 'latin1') {
  const hash = createHash('sha256');
  hash.update(`${APP_ID}\n${APP_SECRET}\n${method}\n${url}\n`, 'utf8');
  hash.update(`${timestamp}\n${nonce}\n`, headerEncoding);
  hash.update(body);
  hash.update('\n');
  return hash.digest();
}

function parseAuthorization(value) {
  const m = /^(\S+)\s+([\s\S]*)$/.exec(value.trim());
  if (m === null || m[1].toUpperCase() !== 'V2_SHA256') throw new Refusal(200, 'UNAUTHORIZED', 'not V2_SHA256');
  const items = {};
  for (const raw of m[2].split(',')) {
    const element = raw.trim();
    if (element === '') continue; // R8 (d)
    const eq = element.indexOf('=');
    if (eq < 0) throw new Refusal(200, 'UNAUTHORIZED', 'an Authorization item without "="');
    const name = element.slice(0, eq).trim();
    const item = element.slice(eq + 1).trim();
    const known = ITEMS.find((k) => asciiLower(k) === asciiLower(name));
    if (known === undefined) continue; // R8 (b)
    if (item === '') throw new Refusal(200, 'UNAUTHORIZED', `empty Authorization item ${known}`);
    if (known in items) throw new Refusal(200, 'UNAUTHORIZED', `Authorization item ${known} given twice`);
    items[known] = item;
  }
  const missing = ITEMS.filter((k) => !(k in items));
  if (missing.length > 0) throw new Refusal(200, 'UNAUTHORIZED', `Authorization lacks ${missing.join(', ')}`);
  return items;
}

function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let over = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > limit) over = true;
      else chunks.push(c);
    });
    req.on('end', () =>
      over ? reject(new Refusal(413, 'TOO_LARGE', 'body too large')) : resolve(Buffer.concat(chunks)),
    );
    req.on('error', reject);
  });
}

const mediaType = (v) => (v ?? '').split(';')[0].trim().toLowerCase();

function verifyRequest(req, url, body) {
  if (mediaType(req.headers['content-type']) !== 'application/json')
    throw new Refusal(200, 'UNSUPPORTED_MEDIA_TYPE', 'Content-Type must be application/json');
  const accepts = (req.headers.accept ?? '').split(',').map(mediaType);
  if (!accepts.includes('application/json'))
    throw new Refusal(200, 'NOT_ACCEPTABLE', 'Accept must be application/json');
  const values = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2)
    if (req.rawHeaders[i].toLowerCase() === 'authorization') values.push(req.rawHeaders[i + 1]);
  if (values.length !== 1) throw new Refusal(200, 'UNAUTHORIZED', 'exactly one Authorization header is required');
  const items = parseAuthorization(values[0]);
  if (items.appId !== APP_ID) throw new Refusal(200, 'UNAUTHORIZED', 'unknown appId');
  if (!/^[0-9a-fA-F]{64}$/.test(items.sign)) throw new Refusal(200, 'UNAUTHORIZED', 'sign is not 64 hex digits');
  const expected = signature(req.method, url, items.timestamp, items.nonce, body);
  if (!timingSafeEqual(Buffer.from(items.sign, 'hex'), expected))
    throw new Refusal(200, 'UNAUTHORIZED', 'the signature does not verify');
}

function stringField(body, name, maxLength, required) {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) throw new Refusal(200, 'INVALID_ARGUMENT', `${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string') throw new Refusal(200, 'INVALID_ARGUMENT', `${name} must be a string`);
  if (maxLength !== undefined && value.length > maxLength /* the bug: UTF-16 units */)
    throw new Refusal(200, 'INVALID_ARGUMENT', `${name} is longer than ${maxLength} characters`);
  return value;
}

function credentials(body) {
  const filename = stringField(body, 'filename', 32, true);
  const contentType = stringField(body, 'contentType', 32, false);
  const scene = stringField(body, 'scene', 50, true);
  if (scene !== 'DISPUTE_EVIDENCE') throw new Refusal(200, 'INVALID_ARGUMENT', 'scene is not an allowed value');
  const ext = extname(filename).slice(1);
  if (ext === '') throw new Refusal(200, 'INVALID_ARGUMENT', 'filename has no extension');
  if (!EXTENSIONS.has(ext.toLowerCase()))
    throw new Refusal(200, 'INVALID_ARGUMENT', `file type ${ext} is not accepted for DISPUTE_EVIDENCE`);
  const now = Date.now();
  const uploadNo = `${now}-${randomBytes(6).toString('hex')}`;
  const key = `disputes/${randomUUID()}.${ext.toLowerCase()}`;
  const date = new Date(now).toISOString().replace(/[-:]|\.\d+/g, '');
  const fields = new Map([
    ['key', key],
    ['bucket', 'ngw-evidence'],
    ...(contentType !== undefined ? [['Content-Type', contentType]] : []),
    ['tagging', `<Tagging><TagSet><Tag><Key>uploadNo</Key><Value>${uploadNo}</Value></Tag></TagSet></Tagging>`],
    [`${VENDOR}-algorithm`, 'NGW-HMAC-SHA256'],
    [`${VENDOR}-credential`, `${APP_ID}/${date.slice(0, 8)}/upload`],
    [`${VENDOR}-date`, date],
  ]);
  const policy = Buffer.from(
    JSON.stringify({
      expiration: new Date(now + VALIDITY_MS).toISOString(),
      conditions: [...[...fields].map(([k, v]) => ['eq', `$${k}`, v]), ['content-length-range', 0, MAX_FILE]],
    }),
  ).toString('base64');
  fields.set('policy', policy);
  fields.set(`${VENDOR}-signature`, createHmac('sha256', POLICY_KEY).update(policy).digest('base64'));
  const storageUri = `ngw://ngw-evidence/${key}`;
  issued.set(key, { fields, expires: now + VALIDITY_MS, storageUri });
  return { uploadUrl, storageUri, uploadNo, formFields: Object.fromEntries(fields), httpMethod: 'POST' };
}

const PAYMENT_STRINGS = [
  'merchantTradeNo',
  'amount',
  'currency',
  'description',
  'merchantAttach',
  'notifyUrl',
  'returnUrl',
];
const PAYMENT_OBJECTS = {
  payer: ['userId', 'name', 'email', 'phone'],
  payMethod: ['type'],
  tradeEnv: ['ip', 'deviceId'],
};

function payment(body) {
  for (const name of PAYMENT_STRINGS) stringField(body, name, undefined, false);
  for (const [name, subfields] of Object.entries(PAYMENT_OBJECTS)) {
    const sub = body[name];
    if (sub === undefined || sub === null) continue;
    if (typeof sub !== 'object' || Array.isArray(sub))
      throw new Refusal(200, 'INVALID_ARGUMENT', `${name} must be an object`);
    for (const s of subfields) stringField(sub, s, undefined, false);
  }
  if (typeof body.amount === 'string' && !/^\d+(\.\d+)?$/.test(body.amount))
    throw new Refusal(200, 'INVALID_ARGUMENT', 'amount is not a decimal string');
  return {
    paymentNo: `NP${Date.now()}${randomBytes(3).toString('hex')}`,
    merchantTradeNo: body.merchantTradeNo,
    status: 'PENDING',
    refundStatus: 'NO_REFUND',
  };
}

const OPERATIONS = { '/pg/v2/file/generateUploadUrl': credentials, '/pg/v2/payment/create': payment };

function answer(res, status, envelope, method, url) {
  const out = Buffer.from(JSON.stringify(envelope), 'utf8');
  const headers = { 'Content-Type': 'application/json', 'Content-Length': out.length };
  if (status === 200) {
    const timestamp = String(Date.now());
    const nonce = randomUUID();
    const sign = signature(method, url, timestamp, nonce, out, 'utf8').toString('hex');
    headers.Authorization = `V2_SHA256 nonce=${nonce},timestamp=${timestamp},appId=${APP_ID},sign=${sign}`;
  }
  res.writeHead(status, headers);
  res.end(out);
}

async function api(req, res) {
  const url = `http://${req.headers.host ?? ''}${req.url}`; // R4: as the client addressed it
  let body;
  try {
    body = await readBody(req, MAX_BODY);
  } catch {
    return answer(res, 413, { code: 'TOO_LARGE', errorMessage: 'body too large' });
  }
  const path = req.url.split('?')[0]; // routed by path; a query is signed (part 4), not read
  const operation = Object.hasOwn(OPERATIONS, path) ? OPERATIONS[path] : undefined;
  if (operation === undefined) return answer(res, 404, { code: 'NOT_FOUND', errorMessage: 'no such operation' });
  if (req.method !== 'POST') return answer(res, 405, { code: 'METHOD_NOT_ALLOWED', errorMessage: 'POST only' });
  try {
    verifyRequest(req, url, body);
    let parsed;
    try {
      parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch (e) {
      throw new Refusal(200, 'INVALID_ARGUMENT', `the body is not JSON: ${e.message}`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Refusal(200, 'INVALID_ARGUMENT', 'the body is not a JSON object');
    answer(res, 200, { code: 'OK', data: operation(parsed) }, req.method, url);
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    answer(res, e.status, { code: e.code, errorMessage: e.message }, req.method, url);
  }
}

// RFC 7578 by hand: [{ name, filename, headers, data }]
function parseMultipart(contentType, body) {
  const m = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (mediaType(contentType) !== 'multipart/form-data' || m === null)
    throw new Refusal(400, 'MalformedPOSTRequest', 'the body is not multipart/form-data');
  const delimiter = Buffer.from(`--${m[1] ?? m[2]}`, 'latin1');
  if (!body.subarray(0, delimiter.length).equals(delimiter))
    throw new Refusal(400, 'MalformedPOSTRequest', 'no boundary');
  const separator = Buffer.concat([Buffer.from('\r\n'), delimiter]);
  const parts = [];
  let pos = delimiter.length;
  for (;;) {
    if (body.subarray(pos, pos + 2).toString('latin1') === '--') return parts;
    if (body.subarray(pos, pos + 2).toString('latin1') !== '\r\n')
      throw new Refusal(400, 'MalformedPOSTRequest', 'a malformed boundary line');
    const headEnd = body.indexOf('\r\n\r\n', pos + 2);
    const next = body.indexOf(separator, pos + 2);
    if (next < 0 || headEnd < 0 || headEnd > next) throw new Refusal(400, 'MalformedPOSTRequest', 'a malformed part');
    const headers = {};
    for (const line of body
      .subarray(pos + 2, headEnd)
      .toString('utf8')
      .split('\r\n')) {
      if (line === '') continue;
      const colon = line.indexOf(':');
      if (colon < 0) throw new Refusal(400, 'MalformedPOSTRequest', 'a malformed part header');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = headers['content-disposition'] ?? '';
    const name = /;\s*name="([^"]*)"/.exec(disposition);
    if (!/^form-data\b/i.test(disposition) || name === null)
      throw new Refusal(400, 'MalformedPOSTRequest', 'a part without a form-data name');
    const filename = /;\s*filename="([^"]*)"/.exec(disposition);
    parts.push({ name: name[1], filename: filename?.[1], headers, data: body.subarray(headEnd + 4, next) });
    pos = next + separator.length;
  }
}

function checkUpload(req, body) {
  if (req.url !== '/uploads') throw new Refusal(404, 'NoSuchUpload', 'no such upload address');
  if (req.method !== 'POST') throw new Refusal(405, 'MethodNotAllowed', 'POST only');
  const parts = parseMultipart(req.headers['content-type'], body);
  const file = parts.at(-1);
  if (file === undefined || file.name !== 'file' || file.filename === undefined)
    throw new Refusal(400, 'InvalidArgument', 'the last part must be the file');
  const fields = new Map();
  for (const part of parts.slice(0, -1)) {
    if (part.name === 'file') throw new Refusal(400, 'InvalidArgument', 'one file part only');
    if (fields.has(part.name)) throw new Refusal(400, 'InvalidArgument', `field ${part.name} given twice`);
    fields.set(part.name, part.data.toString('utf8'));
  }
  const record = issued.get(fields.get('key'));
  if (record === undefined) throw new Refusal(403, 'AccessDenied', 'no such credentials');
  const policy = fields.get('policy') ?? '';
  const mac = createHmac('sha256', POLICY_KEY).update(policy).digest();
  const given = Buffer.from(fields.get(`${VENDOR}-signature`) ?? '', 'base64');
  if (given.length !== mac.length || !timingSafeEqual(given, mac))
    throw new Refusal(403, 'SignatureDoesNotMatch', 'the policy signature does not match');
  // every field the policy binds, with its value, and nothing else (order free)
  if (fields.size !== record.fields.size || [...record.fields].some(([k, v]) => fields.get(k) !== v))
    throw new Refusal(403, 'AccessDenied', 'the form fields are not those issued');
  if (Date.now() > record.expires) throw new Refusal(403, 'AccessDenied', 'the upload address has expired');
  if (file.data.length > MAX_FILE) throw new Refusal(400, 'EntityTooLarge', 'the file is larger than 2 MB');
  stored.set(record.storageUri, Buffer.from(file.data));
}

async function upload(req, res) {
  try {
    let body;
    try {
      body = await readBody(req, MAX_BODY);
    } catch {
      throw new Refusal(413, 'EntityTooLarge', 'the request is too large');
    }
    checkUpload(req, body);
    res.writeHead(204);
    res.end();
  } catch (e) {
    if (!(e instanceof Refusal)) throw e;
    const out = JSON.stringify({ code: e.code, message: e.message });
    res.writeHead(e.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) });
    res.end(out);
  }
}

function serve(handler) {
  return createServer((req, res) =>
    handler(req, res).catch((e) => {
      process.stderr.write(`${e.stack}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    }),
  );
}

const apiServer = serve(api);
const uploadServer = serve(upload);
await Promise.all([apiServer, uploadServer].map((s) => new Promise((r) => s.listen(0, '127.0.0.1', r))));
uploadUrl = `http://127.0.0.1:${uploadServer.address().port}/uploads`;
process.stdout.write(`listening http://127.0.0.1:${apiServer.address().port}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  apiServer.close();
  uploadServer.close();
  apiServer.closeAllConnections();
  uploadServer.closeAllConnections();
});
