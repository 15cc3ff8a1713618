/**
 * R16 in the gateway role: a 5xx answer to a malformed or forged request counts as a refusal
 * and is reported as an advisory; a 5xx answer to a genuine request fails. A real loopback
 * server (node:http) stands in for a gateway under test; the kit reaches it through the gateway
 * subject and the real runner, and the reports say the advisory.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownFromModel } from '../../src/reports/markdown.js';
import { buildModel } from '../../src/reports/_model.js';
import { summary } from '../../src/runner/progress.js';
import { runCases } from '../../src/runner/run.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { loadVectorSet } from '../../src/vectors/load.js';

const set = loadVectorSet();
let server: Server;
let baseUrl = '';

// a gateway that crashes on every request: 500 whatever it is sent
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () =>
      res
        .writeHead(500, { 'Content-Type': 'application/json' })
        .end('{"code":"SYSTEM_ERROR","errorMessage":"NullPointerException"}'),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

describe('the gateway role, a gateway answering 500 (R16)', () => {
  it('passes a malformed header answered 500 with an advisory, fails a genuine request answered 500, and every report says so', async () => {
    const subject = createGatewaySubject({
      baseUrl,
      appId: 'app_r16',
      appSecret: 'sk_test_r16_secret',
      timeoutMs: 5000,
    });
    const ids = ['gateway.credentials-header-missing-nonce', 'gateway.credentials-valid'];
    const run = await runCases({
      set,
      subject,
      target: { kind: 'gateway', description: baseUrl },
      selection: { only: ids.map((id) => `id:${id}`), skip: [] },
      properties: false,
    });
    const byId = new Map(run.cases.map((c) => [c.id, c]));

    const malformed = byId.get('gateway.credentials-header-missing-nonce');
    expect([malformed?.verdict, malformed?.advisory]).toEqual([
      'passed',
      'answered with a server error, not a refusal (R16)',
    ]);
    expect(malformed?.message).toMatch(
      /refused as expected, but answered with a server error, not a refusal \(R16\) \(HTTP 500, code SYSTEM_ERROR/,
    );

    const genuine = byId.get('gateway.credentials-valid');
    expect(genuine?.verdict).toBe('failed');
    expect(genuine?.advisory).toBeUndefined();
    expect(genuine?.message).toMatch(
      /expected HTTP 200: answered 500 to a genuine message: a server error is a failure \(R16\)/,
    );

    const md = markdownFromModel(buildModel(run, ['sk_test_r16_secret']), ['sk_test_r16_secret']);
    expect(md).toMatch(
      /## Advisories: passed, but worth saying \(1\)\n\n\| case \| advisory \| message \|\n\|---\|---\|---\|\n\| `gateway.credentials-header-missing-nonce` \| answered with a server error, not a refusal \(R16\) \|/,
    );
    expect(summary(run)).toContain('advisories: 1 (answered with a server error, not a refusal (R16); see the report)');
  }, 20_000);
});
