/**
 * `pgv2kit fuzz --gateway` and `--merchant-notify`, in process, on loopback.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEMO_MERCHANT, startGateway } from '../../src/gateway/index.js';
import { run } from '../cli/_run.js';

const env = { PGV2_APP_ID: DEMO_MERCHANT.appId, PGV2_APP_SECRET: DEMO_MERCHANT.appSecret };

describe('pgv2kit fuzz over HTTP', () => {
  it.each([
    [['fuzz', '--gateway', 'http://127.0.0.1:1', '--testee', 'x'], 'give one of --testee, --gateway and --merchant-notify'],
    [['fuzz', '--gateway', 'ftp://x'], 'the URL must be http(s)://…, not "ftp://x"'],
    [['fuzz', '--merchant-notify', 'http://127.0.0.1:1/n'], 'fuzzing over HTTP needs the merchant credentials'],
    [['fuzz', '--gateway', 'http://127.0.0.1:1', '--save', 'x.yaml'], '--save writes authorization.parse vectors'],
  ])('%j is a usage error', async (argv, message) => {
    const r = await run(argv, { env: argv.includes('--merchant-notify') ? {} : env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('finds nothing in the reference gateway, and never prints the secret', async () => {
    const gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    try {
      const r = await run(['fuzz', '--gateway', gateway.baseUrl, '--runs', '40', '--seed', '5'], { env });
      expect(r.stdout).toContain('no finding: 40 headers tried');
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(DEMO_MERCHANT.appSecret);
    } finally {
      await gateway.close();
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
