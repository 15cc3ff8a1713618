/**
 * `pgv2kit fuzz --gateway` and `--merchant-notify`, in process, on loopback.
 */
import { createServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startGateway } from '../../src/gateway/index.js';
import { startMerchant } from '../../examples/sample-merchant/merchant.mjs';
import { run } from '../cli/_run.js';

const env = { PGV2_APP_ID: DEMO_MERCHANT.appId, PGV2_APP_SECRET: DEMO_MERCHANT.appSecret };

/** A run without a finding: the headers tried are those sent by either path, and with those not sendable, all. */
function expectCounts(stdout: string, generated: number): void {
  const m =
    /no finding: (\d+) headers tried \(sent: (\d+) by the HTTP client, (\d+) over a raw socket\)(?:; (\d+) generated but not sendable, never counted as tried: [^\n]*)?, seed \d+\n/.exec(
      stdout,
    );
  expect(m, stdout).not.toBeNull();
  const [tried, client, raw, unsendable] = [m?.[1], m?.[2], m?.[3], m?.[4] ?? '0'].map(Number);
  expect(tried).toBe((client ?? 0) + (raw ?? 0));
  expect((tried ?? 0) + (unsendable ?? 0)).toBe(generated);
}

describe('pgv2kit fuzz over HTTP', () => {
  it.each([
    [
      ['fuzz', '--gateway', 'http://127.0.0.1:1', '--testee', 'x'],
      'give one of --testee, --gateway and --merchant-notify',
    ],
    [['fuzz', '--gateway', 'ftp://x'], 'the URL must be http(s)://…, not "ftp://x"'],
    [['fuzz', '--merchant-notify', 'http://127.0.0.1:1/n'], 'fuzzing over HTTP needs the merchant credentials'],
    [['fuzz', '--gateway', 'http://127.0.0.1:1', '--save', 'x.yaml'], '--save writes authorization.parse vectors'],
    [
      ['fuzz', '--gateway', 'http://127.0.0.1:1', '--notify-url', 'https://shop.example/n'],
      '--notify-url goes with --merchant-notify',
    ],
    [
      ['fuzz', '--merchant-notify', 'http://127.0.0.1:1/n', '--notify-url', '/n'],
      '--notify-url must be an http(s):// URL, not "/n"',
    ],
    [
      ['fuzz', '--gateway', 'http://127.0.0.1:1', '--accept-body', 'SUCCESS'],
      '--accept-body goes with --merchant-notify',
    ],
    [
      ['fuzz', '--merchant-notify', 'http://127.0.0.1:1/n', '--accept-body', ' '],
      '--accept-body needs the text an accepting answer carries',
    ],
  ])('%j is a usage error', async (argv, message) => {
    const r = await run(argv, { env: argv.includes('--merchant-notify') ? {} : env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('finds nothing in the reference gateway, and never prints the secret', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    try {
      const r = await run(['fuzz', '--gateway', gateway.baseUrl, '--runs', '40', '--seed', '5'], { env });
      // "tried" counts the headers that reached the gateway: with those not sendable, the 40 generated
      expectCounts(r.stdout, 40);
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(DEMO_MERCHANT.appSecret);
    } finally {
      await gateway.close();
    }
  }, 30_000);

  it('notes the raw-socket requests a server refused by closing the connection (a control character, RFC 9110 §5.5)', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    const { port } = new URL(gateway.baseUrl);
    // in front of the gateway: a request whose Authorization holds a control character is answered by a close
    const front = createNetServer((client) => {
      let seen = '';
      const upstream = connect(Number(port), '127.0.0.1');
      client.on('data', (c: Buffer) => {
        seen += c.toString('latin1');
        if (!/\r\nAuthorization: [^\r\n]*[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(seen)) return void upstream.write(c);
        upstream.destroy();
        client.end();
      });
      upstream.on('data', (c: Buffer) => client.write(c));
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
      const r = await run(['fuzz', '--gateway', url, '--runs', '200', '--seed', '2', '--json'], { env });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(
        /note: \d+ raw-socket request\(s\) answered by closing the connection \(counted as refusals\), e\.g\. header ".*": the server closed the connection without answering\n/,
      );
      const summary = JSON.parse(r.stdout) as {
        runs: number;
        generated: number;
        sent: { total: number; client: number; raw: number };
        notSendable: { total: number };
        findings: number;
        advisories: { closedWithoutAnswer: number };
      };
      expect(summary.advisories.closedWithoutAnswer).toBeGreaterThan(0);
      expect(summary.generated).toBe(200);
      expect(summary.runs).toBe(summary.sent.total);
      expect(summary.sent.client + summary.sent.raw + summary.notSendable.total).toBe(200);
      expect(summary.findings).toBe(0);
    } finally {
      front.close();
      await gateway.close();
    }
  }, 30_000);

  it('signs part 4 over --notify-url, the notifyUrl as registered (R10): a merchant registered at another URL than the one it is reached on gets no finding; without it, the output names the URL it signed', async () => {
    const notifyUrl = 'https://shop.example.test/hooks/pg';
    const merchant = await startMerchant({
      appId: DEMO_MERCHANT.appId,
      appSecret: DEMO_MERCHANT.appSecret,
      notifyUrl,
      returnUrl: 'https://shop.example.test/return',
    });
    const url = `${merchant.url}/hooks/pg`;
    try {
      const registered = await run(
        ['fuzz', '--merchant-notify', url, '--notify-url', notifyUrl, '--runs', '40', '--seed', '5'],
        { env },
      );
      expect(registered.stdout).toContain(
        `webhooks signed over ${notifyUrl} (part 4: the notifyUrl as registered, --notify-url, R10), sent to ${url}\n`,
      );
      expectCounts(registered.stdout, 40);
      expect(registered.code).toBe(0);
      const bare = await run(['fuzz', '--merchant-notify', url, '--runs', '40', '--seed', '5', '--json'], { env });
      expect(bare.code).toBe(1);
      expect(bare.stderr).toContain(
        `webhooks signed over ${url} (part 4), the URL they are sent to: a merchant registered at another notifyUrl verifies against that one (R10); give it with --notify-url\n`,
      );
      expect(bare.stderr).toMatch(
        new RegExp(
          `FINDING after \\d+ headers.*\\n  signed:  POST ${url} \\(part 4\\)\\n  sent to: ${url}\\n  header:  "V2_SHA256 .*" \\(sent\\)\\n  reason:  a genuinely signed, valid header must be accepted .*\\n  hint:    signed over the URL it was sent to: if the merchant registered another notifyUrl, give it with --notify-url \\(R10\\)\\n`,
        ),
      );
      const summary = JSON.parse(bare.stdout) as { finding: { signedUrl: string; sentTo: string; header: string } };
      expect(summary.finding).toMatchObject({ signedUrl: url, sentTo: url });
      expect(summary.finding.header).toMatch(/^V2_SHA256 /);
    } finally {
      await merchant.close();
    }
  }, 30_000);

  it('reads the notify endpoint as certify does: a 204 is acceptance; with --accept-body SUCCESS a 200 FAIL is a refusal, without it an acceptance', async () => {
    const notifyUrl = 'https://shop.example.test/hooks/pg';
    const sample = await startMerchant({
      appId: DEMO_MERCHANT.appId,
      appSecret: DEMO_MERCHANT.appSecret,
      notifyUrl,
      returnUrl: 'https://shop.example.test/return',
    });
    // a merchant in front of the sample that answers its acceptance 204 (no body), its refusal 200 FAIL
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(`${sample.url}/hooks/pg`, {
          method: 'POST',
          headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        }).then(async (a) => {
          await a.text();
          if (a.status === 200) res.writeHead(204).end();
          else res.writeHead(200, { 'content-type': 'text/plain' }).end('FAIL');
        });
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(front.address() as AddressInfo).port}/hooks/pg`;
    try {
      const argv = ['fuzz', '--merchant-notify', url, '--notify-url', notifyUrl, '--runs', '60', '--seed', '3'];
      const read = await run([...argv, '--accept-body', 'SUCCESS'], { env });
      // 204 has no body "SUCCESS": with --accept-body the genuine header reads as refused
      expect(read.code).toBe(1);
      expect(read.stdout + read.stderr).toContain('must be accepted');
      expect(read.stdout + read.stderr).toContain('but got 204, body ""');
      const bare = await run(argv, { env });
      // without it, the 200 FAIL refusals read as acceptance: a finding names the answer
      expect(bare.code).toBe(1);
      expect(bare.stdout + bare.stderr).toMatch(/must be refused \(.*\) but got 200/);
    } finally {
      front.close();
      await sample.close();
    }
  }, 30_000);

  it('finds a notify endpoint that accepts anything, with a replay line', async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200).end('SUCCESS'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
    try {
      const r = await run(['fuzz', '--merchant-notify', url, '--runs', '100', '--seed', '3'], { env });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/FINDING after \d+ headers/);
      expect(r.stdout).toContain(`replay:  pgv2kit fuzz --merchant-notify ${url} --replay 3:`);
    } finally {
      server.close();
    }
  }, 30_000);
});
