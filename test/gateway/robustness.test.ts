/**
 * 1,000 malformed requests to both listeners — bad JSON, truncated and garbled multipart,
 * oversized headers and bodies, wrong content types, bodies that stop half-way, garbage
 * on the wire — each answered 4xx, never 5xx, never a crash; correct requests interleaved
 * keep succeeding. Raw sockets on loopback, bounded counts, 64 in flight.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { seededRandom as rng } from '../../src/seeded.js';
import {
  CREDENTIALS_PATH,
  MERCHANT,
  PDF_BODY,
  authHeader,
  correctForm,
  credentials,
  everyByte,
  multipart,
  postForm,
  type CredentialsData,
} from './_support.js';

let gateway: Gateway;
let form: { contentType: string; body: Buffer };
const logs: string[] = [];

beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT], bodyTimeoutMs: 150, log: (l) => logs.push(l) });
  const { data } = await credentials(gateway, undefined);
  form = multipart(correctForm(data, everyByte(3000)));
});
afterAll(() => gateway.close());

type Listener = 'api' | 'upload';
interface Malformed {
  readonly kind: string;
  readonly to: Listener;
  readonly head: string;
  readonly body?: Buffer;
  /** Half-close after writing (a client that stops and hangs up); otherwise stay open and wait. */
  readonly end?: boolean;
}

function malformed(i: number): Malformed {
  const r = rng(i + 1);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const junk = (n: number): Buffer => Buffer.from(Array.from({ length: n }, () => Math.floor(r() * 256)));
  const api = new URL(gateway.baseUrl).host;
  const up = new URL(gateway.uploadUrl).host;
  const apiUrl = `${gateway.baseUrl}${CREDENTIALS_PATH}`;
  const jsonHead = (body: Buffer, extra = ''): string =>
    `POST ${CREDENTIALS_PATH} HTTP/1.1\r\nHost: ${api}\r\nContent-Type: application/json\r\nAccept: application/json\r\n${extra}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
  const uploadHead = (type: string, length: number | string): string =>
    `POST /pgv2kit-evidence HTTP/1.1\r\nHost: ${up}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`;
  switch (i % 20) {
    case 0: {
      const body = Buffer.from(PDF_BODY.slice(0, Math.floor(r() * (PDF_BODY.length - 1))));
      return {
        kind: 'bad JSON, signed',
        to: 'api',
        head: jsonHead(body, `Authorization: ${authHeader({ url: apiUrl, body })}\r\n`),
        body,
      };
    }
    case 1: {
      const body = junk(1 + Math.floor(r() * 300));
      return { kind: 'random body, unsigned', to: 'api', head: jsonHead(body), body };
    }
    case 2: {
      const body = Buffer.from(PDF_BODY);
      const type = pick([
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        '',
        'application/json; charset=latin1',
        'application/jsonx',
        '*/*',
      ]);
      return {
        kind: 'wrong Content-Type',
        to: 'api',
        head: jsonHead(body).replace('Content-Type: application/json', `Content-Type: ${type}`),
        body,
      };
    }
    case 3:
      return {
        kind: 'oversized headers',
        to: pick(['api', 'upload'] as const),
        head: `POST / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17_000 + Math.floor(r() * 8000))}\r\n\r\n`,
      };
    case 4: {
      const body = Buffer.alloc(65_537 + Math.floor(r() * 40_000), 0x20);
      return { kind: 'oversized body', to: 'api', head: jsonHead(body), body };
    }
    case 5:
      return {
        kind: 'garbage request line',
        to: pick(['api', 'upload'] as const),
        head: `${junk(5 + Math.floor(r() * 60))
          .toString('latin1')
          .replace(/\r|\n/g, '')}\r\n\r\n`,
      };
    case 6: {
      const body = Buffer.from(PDF_BODY);
      return {
        kind: 'body stops half-way, client hangs up',
        to: 'api',
        head: jsonHead(body),
        body: body.subarray(0, 10),
        end: true,
      };
    }
    case 7: {
      const body = Buffer.from(PDF_BODY);
      const toApi = i % 40 === 7;
      return {
        kind: 'body stops half-way, client waits',
        to: toApi ? 'api' : 'upload',
        head: toApi ? jsonHead(body) : uploadHead(form.contentType, form.body.length),
        body: toApi ? body.subarray(0, 20) : form.body.subarray(0, 700),
      };
    }
    case 8:
      return {
        kind: 'bad chunked encoding',
        to: pick(['api', 'upload'] as const),
        head: `POST ${CREDENTIALS_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      };
    case 9: {
      const body = Buffer.from(PDF_BODY);
      const path = pick([
        '/s/%ZZ/pg/v2/file/generateUploadUrl',
        '/pg/v2/file/',
        '/',
        '/s/',
        '/pg/v2/file/generateUploadUrl/..',
        '/%00',
        '*',
      ]);
      return { kind: 'bad path', to: 'api', head: jsonHead(body).replace(CREDENTIALS_PATH, path), body };
    }
    case 10: {
      const body = Buffer.from(PDF_BODY);
      return {
        kind: 'wrong method',
        to: 'api',
        head: jsonHead(body).replace(/^POST/, pick(['PUT', 'DELETE', 'PATCH', 'OPTIONS'])),
        body,
      };
    }
    case 11: {
      const body = Buffer.from(PDF_BODY);
      const header = pick([
        'V2_SHA256',
        'V2_SHA256 ,,,',
        'V2_SHA256 appId=',
        `V2_SHA256 appId=${MERCHANT.appId},sign=${'0'.repeat(64)},timestamp=1,nonce=n`,
        junk(40).toString('base64'),
        'v2_sha256 a=b=c',
        `V2_SHA256 appId=${'a'.repeat(500)},sign=x,timestamp=1,nonce=2`,
      ]);
      return { kind: 'bad Authorization', to: 'api', head: jsonHead(body, `Authorization: ${header}\r\n`), body };
    }
    case 12: {
      const cut = form.body.subarray(0, 10 + Math.floor(r() * (form.body.length - 20)));
      return { kind: 'truncated multipart', to: 'upload', head: uploadHead(form.contentType, cut.length), body: cut };
    }
    case 13: {
      const body = junk(1 + Math.floor(r() * 2000));
      return { kind: 'garbage multipart', to: 'upload', head: uploadHead(form.contentType, body.length), body };
    }
    case 14: {
      const body = form.body;
      return {
        kind: 'multipart Content-Type without boundary',
        to: 'upload',
        head: uploadHead(
          pick(['multipart/form-data', 'multipart/form-data; boundary=', 'text/plain', 'application/octet-stream']),
          body.length,
        ),
        body,
      };
    }
    case 15:
      return {
        kind: 'upload body declared over the limit',
        to: 'upload',
        head: uploadHead(form.contentType, 4 * 1024 * 1024 + Math.floor(r() * 1000)),
        body: form.body.subarray(0, 200),
        end: true,
      };
    case 16: {
      const body = Buffer.from(
        form.body
          .toString('latin1')
          .replace(
            /Content-Disposition: form-data; name="policy"/,
            pick([
              'Content-Disposition: attachment',
              'X-Nothing: 1',
              `Content-Disposition: form-data; name="${'n'.repeat(17_000)}"`,
            ]),
          ),
        'latin1',
      );
      return { kind: 'bad part header', to: 'upload', head: uploadHead(form.contentType, body.length), body };
    }
    case 17: {
      const body = form.body;
      return {
        kind: 'upload, wrong method or path',
        to: 'upload',
        head: uploadHead(form.contentType, body.length).replace(
          'POST /pgv2kit-evidence',
          pick(['GET /pgv2kit-evidence', 'PUT /pgv2kit-evidence', 'POST /other', 'POST /s/x/other']),
        ),
        body,
      };
    }
    case 18: {
      const body = Buffer.from(form.body.toString('latin1').replace(/(name="x-amz-date"\r\n\r\n)\d/, '$19'), 'latin1');
      return { kind: 'changed field', to: 'upload', head: uploadHead(form.contentType, body.length), body };
    }
    default: {
      const body = Buffer.from(
        JSON.stringify({
          filename: junk(20).toString('latin1'),
          scene: pick(['', 'X', 'DISPUTE_EVIDENCE', 'dispute_evidence']),
          contentType: pick([null, 5, 'a'.repeat(40), []]),
        }),
      );
      return {
        kind: 'bad credentials fields, signed',
        to: 'api',
        head: jsonHead(body, `Authorization: ${authHeader({ url: apiUrl, body })}\r\n`),
        body,
      };
    }
  }
}

/** Sends raw bytes; resolves with the status of the first answer, 0 when none came. */
function rawStatus(to: Listener, m: Malformed): Promise<number> {
  const url = new URL(to === 'api' ? gateway.baseUrl : gateway.uploadUrl);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(m.head, 'latin1');
      if (m.body) socket.write(m.body);
      if (m.end) socket.end();
    });
    const timer = setTimeout(() => socket.destroy(), 5000);
    socket.on('data', (c: Buffer) => {
      text += c.toString('latin1');
      if (/^HTTP\/1\.1 \d{3} /.test(text)) socket.destroy();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(text)?.[1] ?? 0));
    });
  });
}

async function correctExchange(): Promise<boolean> {
  const { data } = await credentials(gateway, 'robust.ok');
  const r = await postForm((data as CredentialsData).uploadUrl, correctForm(data, everyByte(5000)));
  return r.status === 204;
}

describe('robustness', () => {
  it('1,000 malformed requests: each a 4xx; correct requests interleaved keep succeeding; no internal error', async () => {
    const statuses = new Map<string, number[]>();
    const correct: Array<Promise<boolean>> = [];
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < 1000) {
        const i = next++;
        if (i % 50 === 0) correct.push(correctExchange());
        const m = malformed(i);
        const status = await rawStatus(m.to, m);
        statuses.set(m.kind, [...(statuses.get(m.kind) ?? []), status]);
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    const bad = [...statuses].flatMap(([kind, list]) =>
      list.filter((s) => s < 400 || s > 499).map((s) => `${kind}: ${s}`),
    );
    expect(bad).toEqual([]);
    expect([...statuses.values()].flat()).toHaveLength(1000);
    expect(await Promise.all(correct)).toEqual(Array.from({ length: 20 }, () => true));
    expect(logs.filter((l) => l.includes('internal error'))).toEqual([]);
    // Only the 20 correct uploads were stored; no malformed one left a file behind.
    expect(gateway.storage.list()).toHaveLength(20);
    expect((await gateway.storage.files()).filter((f) => f.startsWith('.incoming-'))).toEqual([]);
  });
});
