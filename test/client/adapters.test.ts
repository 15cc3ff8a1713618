/**
 * Both example adapters' client operations through testee protocol 1, against the real
 * reference gateway: a short session per adapter (spawn, start, a client.upload, one
 * whose credentials response is tampered, a client.createPayment, a quick operation
 * queued behind them, stop). Every line is checked against the protocol schema.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { validateRunnerLine, validateTesteeLine } from '../../src/protocol/validate.js';
import { PROTOCOL_OPERATIONS, type ProtocolOperation } from '../../src/protocol/operations.js';
import type { Json } from '../../src/subjects/subject.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const merchant = { appId: 'app_2b91d0', appSecret: 'sk_test_51HbQ2aLkP9vXr7Tz0mNq4Ws' };
const file = Uint8Array.from({ length: 30_000 }, (_, i) => (i * 13 + 5) % 256);
const python = spawnSync('python3', ['--version']).status === 0;

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({
    merchants: [merchant],
    scenarios: (id) =>
      id.endsWith('-tampered')
        ? { response: { signature: 'tampered' } }
        : id.endsWith('-fields')
          ? { formFields: { vendor: 'oss', specialValues: true, extra: [['17', 'x y+z=/']] } }
          : {},
  });
});
afterAll(() => gateway.close());

interface Session {
  readonly code: number | null;
  readonly lines: Json[];
  readonly stderr: string;
}

function session(command: readonly string[], requests: readonly object[]): Promise<Session> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) =>
      resolve({
        code,
        stderr,
        lines: stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Json),
      }),
    );
    // every request written at once: the answers must still come back in this order
    child.stdin.end(requests.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });
}

describe.each([
  ['node', [process.execPath, 'examples/node-adapter/adapter.mjs']],
  ['python', ['python3', 'examples/python-adapter/pgv2kit_adapter.py']],
] as const)('the %s example adapter', (name, command) => {
  it.skipIf(name === 'python' && !python)(
    'advertises client.upload and client.createPayment and runs them against the gateway, answers in request order',
    async () => {
      const id = (s: string): string => `adapter-${name}-${s}`;
      const upload = (scenario: string) => ({
        cmd: 'run',
        id: id(scenario),
        op: 'client.upload',
        input: {
          baseUrl: gateway.url(id(scenario)),
          ...merchant,
          filename: 'evidence-0412.pdf',
          contentType: 'application/pdf',
          scene: 'DISPUTE_EVIDENCE',
          fileB64: Buffer.from(file).toString('base64'),
        },
      });
      const requests = [
        { cmd: 'start', protocol: 1 },
        upload('upload'),
        upload('tampered'),
        upload('fields'),
        {
          cmd: 'run',
          id: id('payment'),
          op: 'client.createPayment',
          input: {
            baseUrl: gateway.url(id('payment')),
            ...merchant,
            payment: { merchantTradeNo: 'MT20240611000187', amount: '149.90', currency: 'EUR' },
          },
        },
        {
          cmd: 'run',
          id: id('parse'),
          op: 'authorization.parse',
          input: { header: 'V2_SHA256 appId=a,sign=b,timestamp=1,nonce=n' },
        },
        { cmd: 'stop' },
      ];
      for (const r of requests) expect(validateRunnerLine(r), JSON.stringify(r).slice(0, 80)).toEqual({ ok: true });

      const s = await session(command, requests);
      expect(s.code).toBe(0);
      const [hello, uploaded, tampered, fields, paid, parsed] = s.lines as Array<Record<string, Record<string, Json>>>;
      expect(s.lines).toHaveLength(6);
      expect(validateTesteeLine(hello, { expecting: 'ready' })).toEqual({ ok: true });
      expect(hello?.['operations']).toEqual([...PROTOCOL_OPERATIONS]);
      const runs = requests.filter((r) => 'op' in r) as Array<{ id: string; op: ProtocolOperation }>;
      runs.forEach((r, i) =>
        expect(
          validateTesteeLine(s.lines[i + 1], { expecting: 'answer', id: r.id, op: r.op }),
          JSON.stringify(s.lines[i + 1]),
        ).toEqual({ ok: true }),
      );
      expect(s.lines.slice(1).map((l) => (l as { id: string }).id)).toEqual(runs.map((r) => r.id));

      // the happy upload: stored byte-identical, the form accepted, no Authorization on it
      const storageUri = uploaded?.['result']?.['storageUri'];
      expect(typeof storageUri).toBe('string');
      expect(Buffer.from((await gateway.storage.read(storageUri as string)) ?? []).equals(Buffer.from(file))).toBe(
        true,
      );
      const record = gateway.recorder.for(id('upload'));
      expect(record.requests.map((q) => q.verified)).toEqual([true]);
      expect(record.uploads.map((u) => [u.stored, u.problem, u.advisories])).toEqual([[true, undefined, []]]);
      expect(record.uploads[0]?.headers.some(([n]) => n.toLowerCase() === 'authorization')).toBe(false);
      expect(uploaded?.['result']?.['uploadNo']).toBe(record.requests[0]?.issued?.uploadNo);

      // the tampered credentials response: refused, and no upload at all
      expect(tampered?.['rejected']?.['reason']).toMatch(/not authentic: sign does not match/);
      expect(gateway.recorder.for(id('tampered')).uploads).toEqual([]);

      // another vendor, special values, an integer-like extra name: forwarded as issued, in order
      expect(fields?.['result']).toBeDefined();
      const f = gateway.recorder.for(id('fields'));
      expect(f.uploads.map((u) => [u.stored, u.advisories])).toEqual([[true, []]]);
      expect(
        f.uploads[0]?.parts.filter((p) => p.kind === 'field').map((p) => (p.kind === 'field' ? [p.name, p.value] : [])),
      ).toEqual(f.requests[0]?.issued?.formFields);

      // the payment, and the quick operation answered after the slow ones
      expect(paid).toEqual({
        id: id('payment'),
        result: { code: 'OK', paymentNo: gateway.recorder.for(id('payment')).requests[0]?.paymentNo ?? null },
      });
      expect(parsed).toEqual({ id: id('parse'), result: { appId: 'a', sign: 'b', timestamp: '1', nonce: 'n' } });
      expect(s.stderr).not.toContain(merchant.appSecret);
    },
    30_000,
  );
});
