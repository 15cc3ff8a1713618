/**
 * HAR 1.2 for live exchanges (issue 26): the proxy's HAR read back gives the same exchanges, bytes exact (a binary
 * body as base64); a devtools-like HAR whose body the HAR cannot hold byte-exact is not judged, with the reason; a
 * file that is not HAR, a FIFO or one over a limit is refused with the file and the JSON pointer named.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarError, HarWriter, readHar } from '../../src/live/har.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import { tempFolders } from '../_support.js';

const temp = tempFolders('pgv2kit-har-');
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

const api: LiveExchange = {
  seq: 1,
  startedAt: '2026-11-26T00:00:00.000Z',
  kind: 'api',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8080/pg/v2/payment/create?b=2&a=%7e',
    headers: [
      ['Content-Type', 'application/json'],
      ['Authorization', 'V2_SHA256 appId=a,sign=00,timestamp=1,nonce=n'],
    ],
    // an LF at the end and a character outside ASCII: text, byte for byte
    body: enc('{"amount":"1.00","description":"café"}\n'),
  },
  forwarded: {
    method: 'POST',
    url: 'https://gw.example/pg/v2/payment/create?b=2&a=%7e',
    headers: [['Authorization', 'V2_SHA256 appId=a,sign=11,timestamp=1,nonce=n']],
    body: enc('{"amount":"1.00","description":"café"}\n'),
  },
  response: { status: 200, headers: [['Content-Type', 'application/json']], body: enc('{"code":"OK"}') },
};
const upload: LiveExchange = {
  seq: 2,
  startedAt: '2026-11-26T00:00:01.000Z',
  kind: 'upload',
  request: {
    method: 'POST',
    url: 'https://upload.example/bucket',
    headers: [['Content-Type', 'multipart/form-data; boundary=b0']],
    // not UTF-8: base64
    body: Uint8Array.of(0x2d, 0x2d, 0x62, 0x30, 0xff, 0xfe, 0x00, 0x0a),
  },
  issued: { uploadUrl: 'https://upload.example/bucket', formFields: [['key', 'k']], filename: 'a.pdf' },
  response: { status: 204, headers: [], body: new Uint8Array() },
};

describe('HAR 1.2: write and read', () => {
  it('round trip: the same exchanges, bytes exact, a binary body as base64', () => {
    const dir = temp();
    const file = join(dir, 'traffic.har');
    const har = HarWriter.open(file);
    har.append(api, { verdict: 'conformant', findings: [], notes: [] });
    har.append(upload);
    har.close();
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      log: { version: string; entries: Array<{ request: { postData?: { encoding?: string } } }> };
    };
    expect(doc.log.version).toBe('1.2');
    expect(doc.log.entries.map((e) => e.request.postData?.encoding)).toEqual([undefined, 'base64']);
    const read = readHar(file);
    expect(read.skipped).toBe(0);
    expect(read.exchanges).toEqual([api, upload]);
  });

  it('round trip: an answer not judged stays not judged (its body as read is byte-exact in the file now)', () => {
    const file = join(temp(), 'traffic.har');
    const har = HarWriter.open(file);
    const half = { ...api, answerNotJudged: 'the response body (content.text) is 2 bytes … truncated or re-encoded' };
    har.append(half);
    har.close();
    expect(readHar(file).exchanges).toEqual([half]);
  });

  it('a HAR whose exporter wrote a UTF-8 BOM before the JSON is read; a UTF-16 one is refused by name', () => {
    const file = join(temp(), 'bom.har');
    const har = HarWriter.open(file);
    har.append(api);
    har.close();
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(file)]));
    expect(readHar(file).exchanges).toEqual([api]);
    // UTF-16, as some Windows tools save it: refused, saying so (not "a syntax error")
    const utf16 = join(temp(), 'utf16.har');
    writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"log":{}}', 'utf16le')]));
    expect(() => readHar(utf16)).toThrow(/utf16\.har is UTF-16 \(it begins with a byte order mark\): export or save/);
  });

  it('an empty HAR closes to a valid file', () => {
    const file = join(temp(), 'empty.har');
    HarWriter.open(file).close();
    expect(readHar(file)).toEqual({ exchanges: [], skipped: 0 });
  });

  it('devtools-like entries: no postData, a truncated text → not judged; a gzip or truncated answer → the request alone', () => {
    const file = join(temp(), 'devtools.har');
    const entry = (request: object, response: object = {}): object => ({
      startedDateTime: '2026-11-26T00:00:00.000Z',
      request: { method: 'POST', url: 'https://gw.example/pg/v2/file/generateUploadUrl', headers: [], ...request },
      response: { status: 200, headers: [], content: { size: 2, text: '{}' }, ...response },
    });
    const doc = {
      log: {
        version: '1.2',
        entries: [
          entry({ bodySize: 10 }),
          entry({ bodySize: 40, postData: { mimeType: 'application/json', text: '{"a":1}' } }),
          entry(
            { bodySize: 7, postData: { mimeType: 'application/json', text: '{"a":1}' } },
            { headers: [{ name: 'Content-Encoding', value: 'gzip' }] },
          ),
          entry(
            { bodySize: 7, postData: { mimeType: 'application/json', text: '{"a":1}' } },
            { content: { size: 20, text: '{}' } },
          ),
          entry({ bodySize: 7, postData: { mimeType: 'application/json', text: '{"a":1}' } }),
          { ...entry({}), request: { method: 'GET', url: 'https://x.example/app.js', headers: [] } },
        ],
      },
    };
    writeFileSync(file, JSON.stringify(doc));
    const read = readHar(file);
    expect(read.skipped).toBe(1);
    expect(read.exchanges.map((e) => [e.notJudged, e.answerNotJudged])).toEqual([
      ['the HAR holds no request body (no postData), so the bytes that were signed are unknown', undefined],
      ['the request body (postData.text) is 7 bytes in UTF-8 but bodySize says 40: truncated or re-encoded', undefined],
      [undefined, 'the response was sent with Content-Encoding "gzip": a HAR holds it decoded, not the bytes sent'],
      [
        undefined,
        'the response body (content.text) is 2 bytes in UTF-8 but content.size says 20: truncated or re-encoded',
      ],
      [undefined, undefined],
    ]);
  });

  it('an upload is found by the uploadUrl a credentials answer in the HAR issued, with its formFields', () => {
    const file = join(temp(), 'upload.har');
    const asked = '{"filename":"a.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
    const answer = JSON.stringify({
      code: 'OK',
      data: { uploadUrl: 'https://up.example/b', formFields: { key: 'k', policy: 'P' }, httpMethod: 'POST' },
    });
    const form = Buffer.from('--b0--\r\n').toString('base64');
    const doc = {
      log: {
        entries: [
          {
            startedDateTime: '2026-11-26T00:00:00.000Z',
            request: {
              method: 'POST',
              url: 'https://gw.example/pg/v2/file/generateUploadUrl',
              headers: [],
              bodySize: asked.length,
              postData: { mimeType: 'application/json', text: asked },
            },
            response: { status: 200, headers: [], content: { size: answer.length, text: answer } },
          },
          {
            startedDateTime: '2026-11-26T00:00:01.000Z',
            request: {
              method: 'POST',
              url: 'https://up.example/b',
              headers: [],
              postData: { text: form, encoding: 'base64' },
            },
            response: { status: 204, headers: [], content: { size: 0 } },
          },
        ],
      },
    };
    writeFileSync(file, JSON.stringify(doc));
    const [credentials, up] = readHar(file).exchanges;
    expect([credentials?.kind, up?.kind, up?.notJudged]).toEqual(['api', 'upload', undefined]);
    expect(up?.issued).toEqual({
      uploadUrl: 'https://up.example/b',
      formFields: [
        ['key', 'k'],
        ['policy', 'P'],
      ],
      filename: 'a.pdf',
      contentType: 'application/pdf',
      httpMethod: 'POST',
    });
  });

  it('not HAR, a FIFO, over the entry cap: refused naming the file and the pointer', () => {
    const dir = temp();
    const bad = join(dir, 'bad.har');
    writeFileSync(bad, JSON.stringify({ log: { entries: [{ startedDateTime: 1, request: {}, response: {} }] } }));
    expect(() => readHar(bad)).toThrow(HarError);
    expect(() => readHar(bad)).toThrow(/bad\.har is not a HAR 1\.2 file: \/log\/entries\/0\/startedDateTime must be/);
    const fifo = join(dir, 'fifo.har');
    execFileSync('mkfifo', [fifo]);
    expect(() => readHar(fifo)).toThrow(/fifo\.har is a FIFO|not a regular file/);
    const two = join(dir, 'two.har');
    writeFileSync(two, JSON.stringify({ log: { entries: [{}, {}] } }));
    expect(() => readHar(two, { maxEntries: 1 })).toThrow(/2 entries, over the limit of 1/);
    expect(() => readHar(two, { maxBytes: 4 })).toThrow(/over the limit/);
  });

  it('a file that is not JSON is refused without quoting it (a .env given by mistake would print its secret)', () => {
    const env = join(temp(), '.env');
    writeFileSync(env, 'PGV2_APP_SECRET=sk_live_do_not_print_me\n');
    let message = '';
    try {
      readHar(env);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/\.env is not JSON: a syntax error/);
    expect(message).not.toContain('sk_live');
    expect(message).not.toContain('PGV2_APP');
  });
});

describe('HAR 1.2: entries the kit reads with care', () => {
  const NOTIFY = 'https://shop.example/pg/notify';
  const RETURN = 'https://shop.example/pg/return';
  const at = (n: number) => `2026-11-26T00:00:0${n}.000Z`;
  const ok = { status: 200, headers: [], content: { size: 2, text: 'OK' } };
  const post = (url: string, more: object) => ({
    startedDateTime: at(0),
    request: { method: 'POST', url, headers: [], ...more },
    response: ok,
  });

  it('bodies without text, with params only, in another encoding, with a size that disagrees or none', () => {
    const file = join(temp(), 'bodies.har');
    const text = '{"paymentNo":"P1"}';
    const entries = [
      post(NOTIFY, { bodySize: 0 }),
      { ...post(`${RETURN}?paymentNo=P1`, {}), request: { method: 'GET', url: `${RETURN}?paymentNo=P1`, headers: [] } },
      post(NOTIFY, { bodySize: 3, postData: { mimeType: 'application/x-www-form-urlencoded', params: [] } }),
      post(NOTIFY, { bodySize: 2, postData: { mimeType: 'application/json', text: '7b7d', encoding: 'hex' } }),
      post(NOTIFY, { bodySize: 9, postData: { mimeType: 'application/json', text: 'e30=', encoding: 'base64' } }),
      post(NOTIFY, { postData: { mimeType: 'application/json', text } }),
      { ...post(NOTIFY, { bodySize: text.length, postData: { text } }), response: { ...ok, content: { size: 5 } } },
    ];
    writeFileSync(file, JSON.stringify({ log: { entries } }));
    const read = readHar(file, { kinds: { notifyUrls: [NOTIFY], returnUrls: [RETURN] } });
    expect(read.exchanges.map((e) => [e.kind, e.registeredUrl])).toEqual([
      ['webhook', NOTIFY],
      ['redirect', RETURN],
      ...Array.from({ length: 5 }, () => ['webhook', NOTIFY]),
    ]);
    expect(read.exchanges.slice(0, 2).map((e) => [e.request.body.byteLength, e.notJudged])).toEqual([
      [0, undefined],
      [0, undefined],
    ]);
    expect(read.exchanges.slice(2).map((e) => e.notJudged ?? `answer: ${e.answerNotJudged}`)).toEqual([
      'the HAR holds the request body only as params (no postData.text), not as the bytes sent',
      'the request body (postData.text) is in an encoding the kit does not read ("hex")',
      'the request body (postData.text) is 2 bytes but bodySize says 9: truncated or re-encoded',
      'the HAR gives no bodySize, so the request body (postData.text) cannot be known to be the bytes sent',
      'answer: the HAR holds no response body (no content.text), so the bytes that were signed are unknown',
    ]);
  });

  it('credentials that issue no upload (a formField not a string) leave the upload unknown; a query is no matter', () => {
    const file = join(temp(), 'issued.har');
    const asked = '{"filename":"a.pdf"}';
    const credentials = (uploadUrl: string, formFields: object) => {
      const answer = JSON.stringify({ code: 'OK', data: { uploadUrl, formFields } });
      return {
        startedDateTime: at(1),
        request: {
          method: 'POST',
          url: 'https://gw.example/pg/v2/file/generateUploadUrl',
          headers: [],
          bodySize: asked.length,
          postData: { mimeType: 'application/json', text: asked },
        },
        response: { status: 200, headers: [], content: { size: answer.length, text: answer } },
      };
    };
    const upload = (url: string) => post(url, { bodySize: 0 });
    const entries = [
      credentials('https://up.example/a', { key: 'k', size: 5 }),
      upload('https://up.example/a'),
      credentials('https://up.example/b', { key: 'k' }),
      upload('https://up.example/b?x-id=PutObject'),
    ];
    writeFileSync(file, JSON.stringify({ log: { entries } }));
    const read = readHar(file);
    // the upload to /a is no upload the HAR issued: not one of the kit's exchanges
    expect(read.skipped).toBe(1);
    expect(read.exchanges.map((e) => e.kind)).toEqual(['api', 'api', 'upload']);
    expect(read.exchanges[2]?.issued).toEqual({
      uploadUrl: 'https://up.example/b',
      formFields: [['key', 'k']],
      filename: 'a.pdf',
    });
  });
});
