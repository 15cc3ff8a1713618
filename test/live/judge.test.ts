/**
 * The live-traffic judge (issue 26) on exchanges built here: contents written out by hand and signed with
 * node:crypto (never with the kit's signer or its catalogue of mistakes), so the expected values do not come from the
 * code tested. A genuine request and answer are conformant; a body changed after signing, a dropped final LF, an
 * upper-case sign, an answer signed over the wrong URL (R9), a 200 with an errorMessage are not, each finding naming
 * the rule and, where one explains it, the known mistake; and a message's mistake is the one `run`'s diagnosis names.
 */
import { describe, expect, it } from 'vitest';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { judgeExchange, type LiveContext } from '../../src/live/judge.js';
import { kindOf, type LiveExchange } from '../../src/live/exchange.js';
import { diagnose } from '../../src/roles/run-case.js';
import type { SignatureCase } from '../../src/vectors/types.js';
import { BASE, failed, sha } from '../diagnosis/_support.js';

const APP = 'app_live';
const SECRET = 'sk_live_judge_secret';
const ctx: LiveContext = { merchants: new MerchantBook([{ appId: APP, appSecret: SECRET }]) };
/** The URL the client addressed (the proxy), and the one the proxy forwarded to (the upstream gateway). */
const ADDRESSED = 'http://127.0.0.1:8080/pg/v2/file/generateUploadUrl';
const UPSTREAM = 'https://sandbox.example/gw/pg/v2/file/generateUploadUrl';
const BODY = '{"filename":"a.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
const TS = '1700000000001';
const NONCE = 'nonce-live';

const content = (method: string, url: string, body: string, ts = TS, nonce = NONCE): string =>
  `${APP}\n${SECRET}\n${method}\n${url}\n${ts}\n${nonce}\n${body}\n`;
const header = (sign: string, ts = TS, nonce = NONCE): string =>
  `V2_SHA256 appId=${APP},sign=${sign},timestamp=${ts},nonce=${nonce}`;
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

function request(sign: string, body = BODY, url = ADDRESSED): LiveExchange['request'] {
  return {
    method: 'POST',
    url,
    headers: [
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json'],
      ['Authorization', header(sign)],
    ],
    body: enc(body),
  };
}

const DATA = {
  uploadUrl: 'https://upload.example/bucket',
  storageUri: 's3://bucket/evidence/abc.pdf',
  uploadNo: '1700000000001-abc123',
  formFields: { key: 'evidence/abc.pdf', policy: 'UE9MSUNZ', 'Content-Type': 'application/pdf' },
  httpMethod: 'POST',
};

/** The gateway's 200 answer, signed over `signedUrl` (R9: the URL of the request it answered). */
function answer(signedUrl: string, envelope: object = { code: 'OK', errorMessage: null, data: DATA }) {
  const text = JSON.stringify(envelope);
  const sign = sha(content('POST', signedUrl, text, '1700000000002', 'nonce-gw'));
  return {
    status: 200,
    headers: [
      ['Content-Type', 'application/json'],
      ['Authorization', header(sign, '1700000000002', 'nonce-gw')],
    ] as Array<[string, string]>,
    body: enc(text),
  };
}

function exchange(over: Partial<LiveExchange>): LiveExchange {
  const genuine = request(sha(content('POST', ADDRESSED, BODY)));
  return { seq: 1, startedAt: '2026-11-26T00:00:00.000Z', kind: 'api', request: genuine, ...over };
}

describe('judgeExchange: an API request and its answer', () => {
  it('a genuine request, forwarded re-signed, and its answer signed over the forwarded URL: conformant', async () => {
    const forwarded = request(sha(content('POST', UPSTREAM, BODY)), BODY, UPSTREAM);
    const j = await judgeExchange(exchange({ forwarded, response: answer(UPSTREAM) }), ctx);
    expect(j).toEqual({ verdict: 'conformant', findings: [], notes: [] });
    // without a proxy, the answer is to the request itself
    expect((await judgeExchange(exchange({ response: answer(ADDRESSED) }), ctx)).verdict).toBe('conformant');
  });

  it('the body changed after signing: refused (401), no known mistake', async () => {
    const sign = sha(content('POST', ADDRESSED, BODY));
    const changed = BODY.replace('a.pdf', 'b.pdf');
    const j = await judgeExchange(exchange({ request: request(sign, changed) }), ctx);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings).toHaveLength(1);
    expect(j.findings[0]).toMatchObject({ about: 'request', rule: '5.1, 5.2, 5.3, 7, R16' });
    expect(j.findings[0]?.message).toMatch(/^UNAUTHORIZED: sign does not match/);
    expect(j.findings[0]?.mistake).toBeUndefined();
  });

  it('the final LF dropped: no-final-lf, with its page', async () => {
    const sign = sha(content('POST', ADDRESSED, BODY).slice(0, -1));
    const j = await judgeExchange(exchange({ request: request(sign) }), ctx);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings.map((f) => [f.about, f.mistake, f.page])).toEqual([
      ['request', 'no-final-lf', 'docs/mistakes/no-final-lf.md'],
    ]);
  });

  it('an upper-case sign from a signer (R7: signers write lower case; the reference gateway refuses it)', async () => {
    const sign = sha(content('POST', ADDRESSED, BODY)).toUpperCase();
    const j = await judgeExchange(exchange({ request: request(sign) }), ctx);
    expect(j.findings.map((f) => f.mistake)).toEqual(['uppercase-hex']);
  });

  it("R8's tolerated forms are notes, not findings", async () => {
    const sign = sha(content('POST', ADDRESSED, BODY));
    const req = request(sign);
    const lower = { ...req, headers: req.headers.map(([n, v]) => [n, v.replace('V2_SHA256', 'v2_sha256')] as const) };
    const j = await judgeExchange(exchange({ request: lower, response: answer(ADDRESSED) }), ctx);
    expect(j.verdict).toBe('conformant');
    expect(j.notes).toEqual(['the scheme word in another letter case, tolerated (R8 c)']);
  });

  it('a response signed over the URL the client addressed, not the one the gateway answered (R9)', async () => {
    const forwarded = request(sha(content('POST', UPSTREAM, BODY)), BODY, UPSTREAM);
    const j = await judgeExchange(exchange({ forwarded, response: answer(ADDRESSED) }), ctx);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings.map((f) => f.about)).toEqual(['response']);
    expect(j.findings[0]?.message).toMatch(/^the response does not verify \(5\.4\)/);
  });

  it('a 200 with errorMessage "x" (2.3, 7)', async () => {
    const j = await judgeExchange(
      exchange({ response: answer(ADDRESSED, { code: 'OK', errorMessage: 'x', data: DATA }) }),
      ctx,
    );
    expect(j.findings.map((f) => f.message)).toEqual([
      'errorMessage is "x" on success (2.3, 7: success is code OK with errorMessage null; absent or null pass)',
    ]);
  });

  it('a refused request that the gateway answered 200: a finding on the response; an unknown appId on the request', async () => {
    const bad = request(sha(content('POST', ADDRESSED, BODY).slice(0, -1)));
    const j = await judgeExchange(exchange({ request: bad, response: answer(ADDRESSED) }), ctx);
    expect(j.findings.map((f) => f.about)).toEqual(['request', 'response']);
    const other = await judgeExchange(exchange({ response: answer(ADDRESSED) }), {
      merchants: new MerchantBook([{ appId: 'app_other', appSecret: 'x' }]),
    });
    expect(other.findings.map((f) => f.message)).toEqual([
      'UNAUTHORIZED: unknown appId "app_live": no merchant has it',
    ]);
  });

  it('a URL that does not parse (a hostile HAR): a finding, no exception', async () => {
    const sign = sha(content('POST', 'http://[x/pg', BODY));
    const j = await judgeExchange(exchange({ request: request(sign, BODY, 'http://[x/pg') }), ctx);
    expect(j.findings.map((f) => f.message)).toEqual([
      'NOT_FOUND: no operation at "http://[x/pg"; the operations are POST /pg/v2/file/generateUploadUrl and ' +
        'POST /pg/v2/payment/create',
    ]);
  });

  it('notJudged: not judged, with the reason', async () => {
    const j = await judgeExchange(exchange({ notJudged: 'no postData' }), ctx);
    expect(j).toEqual({ verdict: 'not judged', findings: [], notes: [], reason: 'no postData' });
  });

  it('answerNotJudged: the request judged alone — its findings stand, but a good request passes nothing', async () => {
    const why = 'the response body is truncated';
    // a wrongly signed answer is never looked at: the answer is not what was sent
    const bad = { ...answer(ADDRESSED), body: enc('{}') };
    const good = await judgeExchange(exchange({ response: bad, answerNotJudged: why }), ctx);
    expect(good).toEqual({
      verdict: 'not judged',
      findings: [],
      notes: [],
      reason: `${why}: the request alone was judged, and is conformant`,
    });
    const dropped = request(sha(content('POST', ADDRESSED, BODY).slice(0, -1)));
    const j = await judgeExchange(exchange({ request: dropped, response: bad, answerNotJudged: why }), ctx);
    expect(j.verdict).toBe('not conformant');
    expect(j.findings.map((f) => [f.about, f.mistake])).toEqual([['request', 'no-final-lf']]);
    expect(j.notes).toEqual([`the answer is not judged: ${why}`]);
  });
});

describe("the same mistake as run's diagnosis", () => {
  const url = 'https://pg.example/pg/v2/payment/create?x=1';
  const right = content('POST', url, '{"a":1}');
  const c: SignatureCase = {
    ...BASE,
    id: 'signature.live',
    kind: 'signature',
    result: 'valid',
    inputs: { appId: APP, appSecret: SECRET, method: 'POST', url, timestamp: TS, nonce: NONCE, body: '{"a":1}' },
    expected: { content: right, sign: sha(right) },
  };
  const cases: Array<[string, string]> = [
    ['no-final-lf', right.slice(0, -1)],
    ['extra-final-lf', `${right}\n`],
    ['crlf-separators', right.replace(/\n/g, '\r\n')],
    ['secret-left-out', right.replace(`${SECRET}\n`, '')],
    ['url-without-query', right.replace('?x=1', '')],
  ];
  it.each(cases)('%s', async (id, mistaken) => {
    const sign = sha(mistaken);
    const ran = await diagnose(c, failed('signature.sign', { result: { sign } }));
    const live = await judgeExchange(exchange({ request: request(sign, '{"a":1}', url) }), ctx);
    expect([ran[0]?.mistake, live.findings[0]?.mistake]).toEqual([id, id]);
  });
});

describe('judgeExchange: uploads, webhooks, redirects', () => {
  const issued = {
    uploadUrl: DATA.uploadUrl,
    formFields: Object.entries(DATA.formFields),
    filename: 'a.pdf',
    contentType: 'application/pdf',
    httpMethod: 'POST',
  };
  const form = (fields: Array<[string, string]>): LiveExchange['request'] => {
    const b = 'b0';
    const text = [
      ...fields.map(([n, v]) => `--${b}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`),
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF\r\n',
      `--${b}--\r\n`,
    ].join('');
    return {
      method: 'POST',
      url: DATA.uploadUrl,
      headers: [['Content-Type', `multipart/form-data; boundary=${b}`]],
      body: enc(text),
    };
  };
  const base = { seq: 2, startedAt: '2026-11-26T00:00:01.000Z', kind: 'upload' as const, issued };

  it('the issued form, then 204: conformant; an entry missing: field-missing', async () => {
    const ok = await judgeExchange(
      { ...base, request: form(issued.formFields), response: { status: 204, headers: [], body: enc('') } },
      ctx,
    );
    expect(ok.verdict).toBe('conformant');
    const missing = await judgeExchange({ ...base, request: form(issued.formFields.slice(1)) }, ctx);
    expect(missing.findings.map((f) => [f.about, f.mistake])).toEqual([['upload', 'field-missing']]);
  });

  it('a webhook signed over the notifyUrl verifies; one over the delivery URL does not: delivery-url', async () => {
    const notifyUrl = 'https://merchant.example/notify';
    const body = '{"paymentNo":"P1"}';
    const hook = (signedUrl: string): LiveExchange => ({
      seq: 3,
      startedAt: '2026-11-26T00:00:02.000Z',
      kind: 'webhook',
      registeredUrl: notifyUrl,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/notify',
        headers: [['Authorization', header(sha(content('POST', signedUrl, body)))]],
        body: enc(body),
      },
      response: { status: 200, headers: [], body: enc('ok') },
    });
    expect((await judgeExchange(hook(notifyUrl), ctx)).verdict).toBe('conformant');
    const forged = await judgeExchange(hook('http://127.0.0.1:9000/notify'), ctx);
    // the webhook does not verify, and the merchant took it (issue 26: a merchant that accepts a forged webhook)
    expect(forged.findings.map((f) => f.about)).toEqual(['webhook', 'response']);
    // signed over the URL it arrived on, not the notifyUrl as submitted (R10): the mistake named, with its page
    expect(forged.findings[0]).toMatchObject({ mistake: 'delivery-url', page: 'docs/mistakes/delivery-url.md' });
    // signed over some other URL: no mistake claimed
    const other = await judgeExchange(hook('https://elsewhere.example/notify'), ctx);
    expect(other.findings[0]?.mistake).toBeUndefined();
  });

  it('a return redirect signed over the returnUrl as submitted verifies; one without the final LF: no-final-lf', async () => {
    const returnUrl = 'https://merchant.example/return?order=1';
    const payment = '{"amount":"1.00","status":"PENDING"}';
    const redirect = (signed: string): LiveExchange => ({
      seq: 4,
      startedAt: '2026-11-26T00:00:03.000Z',
      kind: 'redirect',
      registeredUrl: returnUrl,
      request: {
        method: 'GET',
        url:
          `${returnUrl}&paymentNo=P1&merchantTradeNo=M1&payment=${encodeURIComponent(payment)}` +
          `&authorization=${encodeURIComponent(header(sha(signed)))}`,
        headers: [],
        body: new Uint8Array(),
      },
      response: { status: 200, headers: [], body: enc('thanks') },
    });
    const right = content('GET', returnUrl, `payment=${payment}`);
    expect((await judgeExchange(redirect(right), ctx)).verdict).toBe('conformant');
    const wrong = await judgeExchange(redirect(right.slice(0, -1)), ctx);
    // the merchant took it (a 200 page): its verifier's mistake named too
    expect(wrong.findings.map((f) => [f.about, f.mistake])).toEqual([
      ['redirect', 'no-final-lf'],
      ['response', 'accepts-sign-mismatch'],
    ]);
  });

  it('a merchant may accept an upper-case sign (R7): the sender is at fault, never the merchant', async () => {
    const notifyUrl = 'https://merchant.example/notify';
    const body = '{"paymentNo":"P2"}';
    const hook = (authorization: string): LiveExchange => ({
      seq: 5,
      startedAt: '2026-11-26T00:00:04.000Z',
      kind: 'webhook',
      registeredUrl: notifyUrl,
      request: { method: 'POST', url: notifyUrl, headers: [['Authorization', authorization]], body: enc(body) },
      response: { status: 200, headers: [], body: enc('ok') },
    });
    const upper = await judgeExchange(hook(header(sha(content('POST', notifyUrl, body)).toUpperCase())), ctx);
    expect(upper.findings.map((f) => [f.about, f.mistake])).toEqual([['webhook', 'uppercase-hex']]);
    // another merchant's appId, taken: accepts-app-id-mismatch
    const other = header(sha(content('POST', notifyUrl, body))).replace(`appId=${APP}`, 'appId=someone-else');
    const taken = await judgeExchange(hook(other), ctx);
    expect(taken.findings.map((f) => [f.about, f.mistake])).toEqual([
      ['webhook', undefined],
      ['response', 'accepts-app-id-mismatch'],
    ]);
  });

  it('kindOf: API paths by path (after a base path), the rest by the URLs the caller names', () => {
    expect(kindOf('POST', UPSTREAM)).toBe('api');
    expect(kindOf('POST', 'https://x.example/other')).toBeUndefined();
    expect(kindOf('POST', `${DATA.uploadUrl}?a=1`, { uploadUrls: [DATA.uploadUrl] })).toBe('upload');
    expect(kindOf('GET', 'https://m.example/r?payment=1', { returnUrls: ['https://m.example/r'] })).toBe('redirect');
  });
});

describe('judgeExchange: unusual answers and messages', () => {
  const refused = (): LiveExchange['request'] => request(sha(content('POST', ADDRESSED, BODY).slice(0, -1)));
  const reply = (status: number, body: string) => ({ status, headers: [], body: enc(body) });

  it('a refused request the gateway answered 500: a note that a server error is no refusal, no finding', async () => {
    const j = await judgeExchange(exchange({ request: refused(), response: reply(500, 'oops') }), ctx);
    expect(j.findings.map((f) => f.about)).toEqual(['request']);
    expect(j.notes).toEqual(['the gateway answered with a server error, not a refusal (R16)']);
  });

  it('a refused request answered 200 with a code that is not a string: taken as accepted', async () => {
    const j = await judgeExchange(exchange({ request: refused(), response: reply(200, '{"code":401}') }), ctx);
    expect(j.findings.map((f) => f.message)).toContain('the gateway accepted a request it must refuse (HTTP 200)');
    const no = await judgeExchange(exchange({ request: refused(), response: reply(200, '{"code":"NO"}') }), ctx);
    expect(no.findings.map((f) => f.about)).toEqual(['request']);
  });

  it('a path that is no operation, after no base path: named as sent', async () => {
    const url = 'http://127.0.0.1:8080/pg/v2/payment/refund';
    const j = await judgeExchange(exchange({ request: request(sha(content('POST', url, BODY)), BODY, url) }), ctx);
    expect(j.findings.map((f) => f.message)).toEqual([
      'NOT_FOUND: no operation at "/pg/v2/payment/refund"; the operations are POST /pg/v2/file/generateUploadUrl ' +
        'and POST /pg/v2/payment/create',
    ]);
  });
});

describe('judgeExchange: unusual uploads', () => {
  const issued = {
    uploadUrl: DATA.uploadUrl,
    formFields: [
      ['key', 'k1'],
      ['policy', 'p1'],
    ] as Array<readonly [string, string]>,
    filename: 'a.pdf',
    contentType: 'application/pdf',
    httpMethod: 'POST',
  };
  const FILE_PART =
    '--b1\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n';
  const upload = (fields: Array<readonly [string, string]>, file = FILE_PART, method = 'POST'): LiveExchange => ({
    seq: 5,
    startedAt: '2026-11-26T00:00:04.000Z',
    kind: 'upload',
    issued,
    request: {
      method,
      url: DATA.uploadUrl,
      headers: [['Content-Type', 'multipart/form-data; boundary=b1']],
      body: enc(
        fields.map(([n, v]) => `--b1\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') +
          `${file}--b1--\r\n`,
      ),
    },
  });
  const answered = (ex: LiveExchange, status: number): LiveExchange => ({
    ...ex,
    response: { status, headers: [], body: enc('') },
  });

  it('no credentials known for the uploadUrl: not judged, with the reason', async () => {
    const { issued: _, ...unknown } = upload(issued.formFields);
    expect(await judgeExchange(unknown, ctx)).toEqual({
      verdict: 'not judged',
      findings: [],
      notes: [],
      reason: 'no upload credentials are known for this uploadUrl (4.2)',
    });
  });

  it('another method than the httpMethod issued: a finding, the form not read', async () => {
    const j = await judgeExchange(upload(issued.formFields, FILE_PART, 'PUT'), ctx);
    expect(j.findings.map((f) => [f.about, f.message])).toEqual([
      ['upload', 'the upload was sent with PUT, not the httpMethod issued (POST)'],
    ]);
  });

  it('a body without a Content-Type: malformed-multipart', async () => {
    const ex = upload(issued.formFields);
    const j = await judgeExchange({ ...ex, request: { ...ex.request, headers: [] } }, ctx);
    expect(j.findings.map((f) => [f.about, f.mistake])).toEqual([['upload', 'malformed-multipart']]);
    expect(j.findings[0]?.message).toMatch(/\(4\.2\)$/);
  });

  it('the formFields reordered: a note (R14), conformant; a 500 for it: a finding on the response', async () => {
    const swapped = [...issued.formFields].reverse();
    const ok = await judgeExchange(answered(upload(swapped), 204), ctx);
    expect(ok).toEqual({
      verdict: 'conformant',
      findings: [],
      notes: ['the formFields entries came in another order than issued (R14: acceptable)'],
    });
    const failed = await judgeExchange(answered(upload(issued.formFields), 500), ctx);
    expect(failed.findings.map((f) => f.about)).toEqual(['response']);
    expect(failed.findings[0]?.message).toMatch(/^the upload address: /);
  });

  it('a form without its file part, accepted 204: two findings; refused 500: a note on the server error', async () => {
    const accepted = await judgeExchange(answered(upload(issued.formFields, ''), 204), ctx);
    expect(accepted.findings.map((f) => f.about)).toEqual(['upload', 'response']);
    expect(accepted.findings[1]?.message).toBe('the upload address accepted an upload 4.2 says fails (HTTP 204)');
    const refusedBy500 = await judgeExchange(answered(upload(issued.formFields, ''), 500), ctx);
    expect(refusedBy500.findings.map((f) => f.about)).toEqual(['upload']);
    expect(refusedBy500.notes).toEqual(['the upload address answered with a server error, not a refusal (R16)']);
  });
});

describe('judgeExchange: unusual webhooks', () => {
  const notifyUrl = 'https://merchant.example/notify';
  const body = '{"paymentNo":"P2"}';
  const hook = (authorization: string | undefined, status = 200, registered: string | null = notifyUrl) =>
    ({
      seq: 6,
      startedAt: '2026-11-26T00:00:05.000Z',
      kind: 'webhook',
      ...(registered === null ? {} : { registeredUrl: registered }),
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/notify',
        headers: authorization === undefined ? [] : [['Authorization', authorization]],
        body: enc(body),
      },
      response: { status, headers: [], body: enc('') },
    }) as LiveExchange;
  const genuine = sha(content('POST', notifyUrl, body));

  it('the notifyUrl or returnUrl as submitted unknown: not judged, naming which', async () => {
    expect((await judgeExchange(hook(header(genuine), 200, null), ctx)).reason).toBe(
      'the notifyUrl as the merchant submitted it is not known',
    );
    const redirect = { ...hook(undefined, 200, null), kind: 'redirect' as const };
    expect((await judgeExchange(redirect, ctx)).reason).toBe('the returnUrl as the merchant submitted it is not known');
  });

  it('a genuine webhook the merchant refused: a finding on the response', async () => {
    const j = await judgeExchange(hook(header(genuine), 400), ctx);
    expect(j.findings.map((f) => f.message)).toEqual(['the merchant refused a genuine webhook (HTTP 400)']);
  });

  it('a webhook with white space in its Authorization: a note, conformant', async () => {
    const j = await judgeExchange(hook(header(genuine).replace(',', ', ')), ctx);
    expect(j.verdict).toBe('conformant');
    expect(j.notes).toEqual(['white space in the Authorization header, tolerated (R8 a; RFC 9110 §5.5)']);
  });

  it('an upper-case sign: uppercase-hex; no Authorization at all, answered 500: a finding and a note', async () => {
    const upper = await judgeExchange(hook(header(genuine.toUpperCase()), 400), ctx);
    expect(upper.findings.map((f) => [f.about, f.mistake])).toEqual([['webhook', 'uppercase-hex']]);
    const none = await judgeExchange(hook(undefined, 500), ctx);
    expect(none.findings.map((f) => f.about)).toEqual(['webhook']);
    expect(none.findings[0]?.message).toMatch(/^the webhook does not verify: /);
    expect(none.notes).toEqual(['the merchant answered with a server error, not a refusal (R16)']);
  });

  it('an appId the judge holds no secret for: named, and the merchant must refuse it', async () => {
    const j = await judgeExchange(hook(header(genuine).replace(APP, 'app_stranger'), 200), ctx);
    expect(j.findings.map((f) => f.message)).toEqual([
      'unknown appId "app_stranger": the judge holds no secret for it',
      'the merchant accepted a webhook that does not verify (HTTP 200)',
    ]);
  });
});
