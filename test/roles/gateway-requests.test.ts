/**
 * The gateway role's request-side cases (vectors/gateway/requests.yaml) fail a gateway with the bug each one is
 * there for. The kit's reference gateway runs behind a small loopback proxy (node:http) that adds one bug: it
 * trims or re-serializes the body before the gateway verifies it, lets a request without Accept or Content-Type
 * through, trims scene, counts filename length in UTF-16 units or bytes, refuses a repeated merchantTradeNo, or
 * changes the 200 answer (Content-Type text/plain, errorMessage "", formFields' Content-Type, httpMethod) and signs
 * it again. Signatures the proxy makes are computed here with node:crypto over the content of 5.1, not by the kit.
 */
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startGateway, type Gateway } from '../../src/gateway/index.js';
import { runCase } from '../../src/roles/run-case.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { CaseOutcome } from '../../src/checks/outcome.js';

const cases = liveCases(loadVectorSet());
const { appId, appSecret } = DEMO_MERCHANT;

interface Exchange {
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The full URL the client signed: the proxy's own address and the path. */
  url: string;
}
interface Bug {
  /** Changes the request before the reference gateway sees it. */
  request?: (r: Exchange) => void;
  /** Answers in the gateway's stead (a check the reference does not make wrongly). */
  answer?: (r: Exchange) => { status: number; body: string } | undefined;
  /** Changes the reference gateway's 200 answer; `resign` signs the changed body again. */
  response?: (r: Exchange, request: Exchange) => { resign: boolean };
}

let bug: Bug = {};
let gateway: Gateway;
let proxy: Server;
let baseUrl = '';

/** sign of 5.2 over the content of 5.1, written here from the spec (not the kit's signer). */
function signOf(method: string, url: string, timestamp: string, nonce: string, body: Buffer): string {
  const head = Buffer.from(`${appId}\n${appSecret}\n${method}\n${url}\n${timestamp}\n${nonce}\n`, 'utf8');
  return createHash('sha256')
    .update(Buffer.concat([head, body, Buffer.from('\n')]))
    .digest('hex');
}

function signed(method: string, url: string, body: Buffer): string {
  const timestamp = String(Date.now());
  const nonce = `proxy-${Math.random().toString(36).slice(2, 10)}`;
  const sign = signOf(method, url, timestamp, nonce, body);
  return `V2_SHA256 appId=${appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`;
}

/** The same timestamp and nonce as the request carried, its sign made again over a changed body. */
function resigned(exchange: Exchange): void {
  const header = String(exchange.headers.authorization ?? '');
  const item = (name: string): string => new RegExp(`${name}=([^,]*)`).exec(header)?.[1] ?? '';
  const sign = signOf('POST', exchange.url, item('timestamp'), item('nonce'), exchange.body);
  exchange.headers.authorization = `V2_SHA256 appId=${appId},sign=${sign},timestamp=${item('timestamp')},nonce=${item('nonce')}`;
}

function editJson(exchange: Exchange, edit: (value: Record<string, unknown>) => void): void {
  const value = JSON.parse(exchange.body.toString('utf8')) as Record<string, unknown>;
  edit(value);
  exchange.body = Buffer.from(JSON.stringify(value), 'utf8');
}

const collect = async (stream: AsyncIterable<Buffer>): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
};

beforeAll(async () => {
  gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
  const upstream = new URL(gateway.baseUrl);
  proxy = createServer((req, res) => {
    void (async () => {
      const sent: Exchange = {
        headers: { ...req.headers },
        body: await collect(req),
        url: `http://${req.headers.host ?? ''}${req.url ?? ''}`,
      };
      bug.request?.(sent);
      const own = bug.answer?.(sent);
      if (own) return void res.writeHead(own.status, { 'content-type': 'application/json' }).end(own.body);
      delete sent.headers['content-length'];
      const answer = await new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((ok, no) => {
        const out = request(
          { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: sent.headers },
          (r) => void collect(r).then((body) => ok({ status: r.statusCode ?? 0, headers: r.headers, body }), no),
        );
        out.on('error', no);
        out.end(sent.body);
      });
      const back: Exchange = { headers: { ...answer.headers }, body: answer.body, url: sent.url };
      if (answer.status === 200 && bug.response?.(back, sent).resign)
        back.headers.authorization = signed('POST', sent.url, back.body);
      delete back.headers['content-length'];
      delete back.headers['transfer-encoding'];
      res.writeHead(answer.status, back.headers as Record<string, string>).end(back.body);
    })().catch((e: unknown) => res.writeHead(502).end(String(e)));
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise<void>((r) => proxy.close(() => r()));
  await gateway.close();
});

async function run(id: string, with_: Bug = {}): Promise<CaseOutcome> {
  const loaded = cases.find((c) => c.case.id === id);
  if (!loaded) throw new Error(`no live case ${id}`);
  bug = with_;
  try {
    return await runCase(loaded, createGatewaySubject({ baseUrl, appId, appSecret, timeoutMs: 5000 }));
  } finally {
    bug = {};
  }
}

describe('the request-side cases fail a gateway with their bug', () => {
  it('every case used here passes through the proxy without a bug', async () => {
    for (const id of [
      'gateway.request-body-final-lf',
      'gateway.request-body-pretty',
      'gateway.request-no-accept',
      'gateway.request-scene-trailing-space',
      'gateway.request-filename-32-code-points-emoji',
      'gateway.credentials-valid',
    ])
      expect((await run(id)).status, id).toBe('pass');
  });

  it('a gateway that trims the body before verifying fails the bodies ending in LF or CRLF', async () => {
    const trim: Bug = { request: (r) => void (r.body = Buffer.from(r.body.toString('utf8').trim(), 'utf8')) };
    for (const id of [
      'gateway.request-body-final-lf',
      'gateway.request-body-final-crlf',
      'gateway.request-body-leading-space',
      'gateway.request-payment-final-lf',
    ]) {
      const outcome = await run(id, trim);
      expect(outcome.status, id).toBe('fail');
      expect(outcome.message, id).toMatch(/expected HTTP 200/);
    }
    expect((await run('gateway.credentials-valid', trim)).status).toBe('pass');
  });

  it('a gateway that re-serializes the body (key order kept) fails the bodies written otherwise', async () => {
    const reserialize: Bug = { request: (r) => editJson(r, () => undefined) };
    for (const id of [
      'gateway.request-body-pretty',
      'gateway.request-body-spaces',
      'gateway.request-body-tabs',
      'gateway.request-body-newlines',
      'gateway.request-body-unicode-escape',
      'gateway.request-body-escaped-slash',
      'gateway.request-body-escaped-non-ascii',
      'gateway.request-payment-pretty',
      'gateway.request-payment-escapes',
    ])
      expect((await run(id, reserialize)).status, id).toBe('fail');
    // compact JSON in the usual order survives re-serialization: the old cases could not see this bug
    expect((await run('gateway.credentials-valid', reserialize)).status).toBe('pass');
  });

  it('a gateway that lets a request without Accept or Content-Type through fails the missing-header cases', async () => {
    const noAccept = await run('gateway.request-no-accept', {
      request: (r) => void (r.headers.accept ??= 'application/json'),
    });
    expect(noAccept.status).toBe('fail');
    expect(noAccept.message).toMatch(/accepted, but the case is invalid/);
    const noType = await run('gateway.request-no-content-type', {
      request: (r) => void (r.headers['content-type'] ??= 'application/json'),
    });
    expect(noType.status).toBe('fail');
  });

  it('a gateway that trims scene fails the scenes with white space', async () => {
    const trimScene: Bug = {
      request: (r) => {
        editJson(r, (v) => void (typeof v['scene'] === 'string' && (v['scene'] = v['scene'].trim())));
        resigned(r);
      },
    };
    for (const id of ['gateway.request-scene-trailing-space', 'gateway.request-scene-leading-space'])
      expect((await run(id, trimScene)).status, id).toBe('fail');
  });

  it('a gateway that lets a field rule of 2.1/2.2/8 slip fails the case of that rule', async () => {
    // the gateway's lax rule, played by the proxy: the body made into one the reference accepts, signed again
    const lax = (edit: (v: Record<string, unknown>) => void): Bug => ({
      request: (r) => {
        editJson(r, edit);
        resigned(r);
      },
    });
    const slips: Array<[string, Bug]> = [
      [
        'gateway.request-scene-unlisted',
        lax((v) => void (/^[A-Z_]+$/.test(String(v['scene'])) && (v['scene'] = 'DISPUTE_EVIDENCE'))),
      ],
      ['gateway.request-scene-missing', lax((v) => void (v['scene'] ??= 'DISPUTE_EVIDENCE'))],
      ['gateway.request-filename-no-extension', lax((v) => void (v['filename'] = `${String(v['filename'])}.pdf`))],
      [
        'gateway.request-content-type-33-chars',
        lax((v) => void (v['contentType'] = String(v['contentType']).slice(0, 32))),
      ],
    ];
    for (const [id, slip] of slips) {
      const outcome = await run(id, slip);
      expect(outcome.status, id).toBe('fail');
      expect(outcome.message, id).toMatch(/accepted, but the case is invalid/);
    }
  });

  it('a gateway whose header parser keeps the first of two copies fails the duplicate-item cases', async () => {
    const firstWins: Bug = {
      request: (r) => {
        const [scheme, list = ''] = String(r.headers.authorization ?? '').split(' ');
        const seen = new Set<string>();
        const kept = list.split(',').filter((item) => {
          const name = item.split('=')[0] ?? '';
          return seen.has(name) ? false : (seen.add(name), true);
        });
        r.headers.authorization = `${scheme ?? ''} ${kept.join(',')}`;
      },
    };
    for (const id of ['gateway.request-header-duplicate-sign', 'gateway.request-header-duplicate-nonce-differing'])
      expect((await run(id, firstWins)).status, id).toBe('fail');
  });

  it('a gateway that counts filename length in UTF-16 units or in bytes fails the 32-code-point names', async () => {
    const over = (count: (name: string) => number): Bug => ({
      answer: (r) => {
        const name = (JSON.parse(r.body.toString('utf8')) as { filename?: unknown }).filename;
        return typeof name === 'string' && count(name) > 32
          ? { status: 400, body: '{"code":"PARAM_ERROR","errorMessage":"filename too long"}' }
          : undefined;
      },
    });
    const utf16 = over((n) => n.length);
    const bytes = over((n) => Buffer.byteLength(n, 'utf8'));
    expect((await run('gateway.request-filename-32-code-points-emoji', utf16)).status).toBe('fail');
    expect((await run('gateway.request-filename-32-code-points-cjk', utf16)).status).toBe('pass');
    expect((await run('gateway.request-filename-32-code-points-cjk', bytes)).status).toBe('fail');
  });

  it('a gateway that refuses a repeated merchantTradeNo passes two runs: each sends an order number of its own', async () => {
    const seen = new Set<string>();
    const sent: string[] = [];
    const refuseRepeats: Bug = {
      answer: (r) => {
        const no = String((JSON.parse(r.body.toString('utf8')) as { merchantTradeNo?: unknown }).merchantTradeNo);
        sent.push(no);
        if (!seen.has(no)) return void seen.add(no);
        return { status: 409, body: '{"code":"DUPLICATE_ORDER","errorMessage":"merchantTradeNo used"}' };
      },
    };
    expect((await run('gateway.payment-valid', refuseRepeats)).status).toBe('pass');
    expect((await run('gateway.payment-valid', refuseRepeats)).status).toBe('pass');
    expect(sent).toHaveLength(2);
    expect(sent[0]).not.toBe(sent[1]);
    for (const no of sent) expect(no).toMatch(/^GW-2024-0001-[0-9a-z]+-[0-9a-z]+$/);
  });
});

describe('the 200 answer to a valid request is checked (4.1, 2.3, 2.4)', () => {
  it('fails a Content-Type other than application/json, and passes one with a charset parameter', async () => {
    const as = (type: string): Bug => ({ response: (r) => ((r.headers['content-type'] = type), { resign: false }) });
    const plain = await run('gateway.credentials-valid', as('text/plain'));
    expect(plain.status).toBe('fail');
    expect(plain.message).toMatch(/Content-Type is "text\/plain".*4\.1/);
    expect((await run('gateway.credentials-valid', as('application/json; charset=utf-8'))).status).toBe('pass');
  });

  it('fails an errorMessage present and not null; passes one absent', async () => {
    const set = (edit: (v: Record<string, unknown>) => void): Bug => ({
      response: (r) => (editJson(r, edit), { resign: true }),
    });
    const empty = await run(
      'gateway.credentials-valid',
      set((v) => void (v['errorMessage'] = '')),
    );
    expect(empty.status).toBe('fail');
    expect(empty.message).toMatch(/errorMessage is "" on success \(2\.3, 7/);
    expect(
      (
        await run(
          'gateway.credentials-valid',
          set((v) => void delete v['errorMessage']),
        )
      ).status,
    ).toBe('pass');
  });

  it("fails formFields' Content-Type other than the requested contentType, any value when none was requested", async () => {
    const other: Bug = {
      response: (r) => {
        editJson(r, (v) => {
          const data = v['data'] as { formFields: Record<string, string> };
          data.formFields['Content-Type'] = 'application/octet-stream';
        });
        return { resign: true };
      },
    };
    const requested = await run('gateway.credentials-valid', other);
    expect(requested.status).toBe('fail');
    expect(requested.message).toMatch(/not the requested contentType "application\/pdf" \(2\.4/);
    expect((await run('gateway.credentials-without-content-type', other)).status).toBe('pass');
  });

  it('fails an httpMethod that is not a string, and passes another method name', async () => {
    const method = (value: unknown): Bug => ({
      response: (r) => (
        editJson(r, (v) => void ((v['data'] as Record<string, unknown>)['httpMethod'] = value)),
        {
          resign: true,
        }
      ),
    });
    const number = await run('gateway.credentials-valid', method(1));
    expect(number.status).toBe('fail');
    expect(number.message).toMatch(/httpMethod is not a string \(2\.4\)/);
    expect((await run('gateway.credentials-valid', method('PUT'))).status).toBe('pass');
  });
});

describe('R12: a replayed or day-old request accepted passes with an advisory', () => {
  it('the reference accepts both; each outcome says so', async () => {
    for (const id of ['gateway.request-replay', 'gateway.request-stale-timestamp']) {
      const outcome = await run(id);
      expect(outcome.status, id).toBe('pass');
      expect(outcome.advisory ?? '', id).toMatch(/R12/);
    }
  });

  it('a gateway that refuses them passes without the advisory', async () => {
    const refuse: Bug = { answer: () => ({ status: 401, body: '{"code":"REPLAY","errorMessage":"seen"}' }) };
    const outcome = await run('gateway.request-replay', refuse);
    expect(outcome.status).toBe('pass');
    expect(outcome.advisory ?? '').not.toMatch(/R12/);
  });
});
