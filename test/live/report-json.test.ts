/**
 * results.json's entry of an exchange (exchangeJson, src/live/report.ts): traffic that holds no secret is written
 * as sent, looked at once (the session's masking was most of its cost, bench/proxy-throughput.ts), while the kit's
 * own words about it are still masked — a finding may quote a signature content, which holds the secret; traffic
 * that holds one anywhere (a header, a URL, a body, a binary body's bytes) is masked everywhere and marked. The
 * expected values are written out here from the exchange, never from the masker's output.
 */
import { describe, expect, it } from 'vitest';
import { Masker } from '../../src/scheme/mask.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import type { LiveJudgement } from '../../src/live/judge.js';
import { exchangeJson } from '../../src/live/report.js';

const SECRET = 'sk_live_report_json_9Qx';
const masker = new Masker([SECRET]);
const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
const AUTH = `V2_SHA256 appId=app_r,sign=${'ab'.repeat(32)},timestamp=1700000000001,nonce=n-1`;

function exchange(over: { body?: Uint8Array; header?: string; url?: string; answer?: Uint8Array } = {}): LiveExchange {
  return {
    seq: 3,
    startedAt: '2026-11-26T00:00:00.000Z',
    kind: 'api',
    request: {
      method: 'POST',
      url: over.url ?? 'http://127.0.0.1:8080/pg/v2/payment/create?x=1',
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', over.header ?? AUTH],
      ],
      body: over.body ?? enc('{"merchantTradeNo":"T-1","amount":"10.00"}'),
    },
    response: {
      status: 200,
      headers: [['Content-Type', 'application/json']],
      body: over.answer ?? enc('{"code":"OK"}'),
    },
  };
}

/** A judgement whose finding quotes the content signed, the secret in it (as the diagnosis may). */
const judged: LiveJudgement = {
  verdict: 'not conformant',
  findings: [{ about: 'request', rule: '5.1', message: `the content signed was "app_r\\n${SECRET}\\nPOST…"` }],
  notes: [`compared with ${SECRET}`],
};

describe('exchangeJson', () => {
  it('traffic without a secret: as sent, not marked; the findings and notes quoting the secret masked', () => {
    const e = exchangeJson(exchange(), judged, masker);
    expect(e.masked).toBeUndefined();
    expect(e.request).toEqual({
      method: 'POST',
      url: 'http://127.0.0.1:8080/pg/v2/payment/create?x=1',
      headers: [
        ['Content-Type', 'application/json'],
        ['Authorization', AUTH],
      ],
      body: { text: '{"merchantTradeNo":"T-1","amount":"10.00"}' },
    });
    expect(e.response?.body).toEqual({ text: '{"code":"OK"}' });
    expect(JSON.stringify(e)).not.toContain(SECRET);
    expect(e.findings[0]?.message).toMatch(/^the content signed was "app_r\\n\S+/);
    expect(e.notes[0]).not.toContain(SECRET.slice(0, 12));
  });

  it('a binary body without a secret: base64 of its bytes, as sent', () => {
    const bytes = Uint8Array.of(0xff, 0xfe, 0x00, 0x41);
    const e = exchangeJson(exchange({ body: bytes }), judged, masker);
    expect(e.request.body).toEqual({ base64: Buffer.from(bytes).toString('base64') });
    expect(e.masked).toBeUndefined();
  });

  it.each([
    ['a header', { header: `${AUTH},note=${SECRET}` }],
    ['a URL', { url: `http://127.0.0.1:8080/pg/v2/payment/create?k=${SECRET}` }],
    ['a body', { body: enc(`{"note":"${SECRET}"}`) }],
    ['the answer', { answer: enc(`{"secret":"${SECRET.toUpperCase()}"}`) }],
    ['a binary body, as base64', { body: enc(`\xff${Buffer.from(SECRET).toString('base64')}`) }],
    ['the method', {}],
  ] as const)('a secret in %s: masked everywhere, marked masked', (what, over) => {
    const ex = exchange(over);
    const sent = what === 'the method' ? { ...ex, request: { ...ex.request, method: `POST${SECRET}` } } : ex;
    const e = exchangeJson(sent, judged, masker);
    expect(e.masked).toBe(true);
    const text = JSON.stringify(e);
    expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64').slice(0, 16));
  });
});
