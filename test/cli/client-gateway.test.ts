/**
 * `pgv2kit run --testee X --gateway URL`: an SDK against a gateway the kit does not control. A reference gateway
 * started here apart from the run, with its own merchant (not the vectors'), plays "the other gateway": what it
 * stored is the independent evidence that the plain client cases ran there, with the credentials the run was given.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/gateway.js';
import { clientFile } from '../../src/roles/client/check.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { ClientCase } from '../../src/vectors/types.js';
import { run } from './_run.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The other gateway's merchant: none of the client vectors' appIds, so a case sent with a vector's would be refused. */
const SANDBOX = { appId: 'app_sandb0x42', appSecret: 'sk_test_SandboxGatewayS3cretQ7' };
/**
 * The client cases that need nothing staged, written out here (not taken from the rule under test): valid, a plain
 * scenario. Every other client case stages something or must show nothing was stored; client.upload-2mib stays on
 * the kit's gateway too (R13: a conformant gateway may refuse 2,097,152 bytes).
 */
const PLAIN = [
  'client.create-payment',
  'client.upload-pdf',
  'client.upload-jpg',
  'client.upload-jpeg',
  'client.upload-png',
  'client.upload-xls',
  'client.upload-xlsx',
  'client.upload-no-authorization-on-upload',
];
const clientCases = liveCases(loadVectorSet())
  .map((l) => l.case)
  .filter((c): c is ClientCase => c.kind === 'client');

interface Results {
  target: { kind: string; description: string };
  cases: Array<{
    id: string;
    verdict: string;
    reproduce: string;
    ops: Array<{ status: string; message: string; got: unknown }>;
  }>;
}

let gateway: Gateway;
const folders: string[] = [];
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-client-gateway-'));
  folders.push(dir);
  return dir;
};

beforeAll(async () => {
  gateway = await startGateway({ merchants: [SANDBOX] });
});
afterAll(async () => {
  await gateway.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Runs the client cases of an adapter against the other gateway, and reads the results. */
async function runAgainst(testee: string, credentials: { appId: string; appSecret: string }) {
  const cwd = tmp();
  const r = await run(
    [
      'run',
      '--testee',
      testee,
      '--gateway',
      gateway.baseUrl,
      '--app-id',
      credentials.appId,
      '--secret',
      credentials.appSecret,
      '--only',
      'client',
      '--report-dir',
      join(cwd, 'r'),
    ],
    { cwd: root, env: { ...process.env } },
  );
  const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as Results;
  return { r, results, reports: join(cwd, 'r') };
}

describe('run --testee X --gateway URL', () => {
  it.each([
    ['python', 'python3 examples/python-adapter/pgv2kit_adapter.py'],
    ['node', `"${process.execPath}" examples/node-adapter/adapter.mjs`],
  ])(
    'the %s example adapter passes: the plain cases against the URL, the staged ones against the kit',
    async (_, testee) => {
      const { r, results } = await runAgainst(testee, SANDBOX);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(results.target.kind).toBe('testee');
      expect(results.target.description).toContain(testee);
      expect(results.target.description).toContain(`client cases against ${gateway.baseUrl}`);
      expect(results.cases.map((c) => c.id).sort()).toEqual(clientCases.map((c) => c.id).sort());
      for (const c of results.cases) {
        expect(c.verdict, c.id).toBe('passed');
        const message = c.ops[0]?.message ?? '';
        if (PLAIN.includes(c.id)) expect(message, c.id).toMatch(new RegExp(`^against ${gateway.baseUrl}: `));
        else expect(message, c.id).toMatch(/^against the kit's gateway: /);
      }
      // the other gateway holds each plain upload's file, byte for byte, under the storageUri the SDK reported
      for (const id of PLAIN.filter((i) => i.startsWith('client.upload'))) {
        const got = results.cases.find((c) => c.id === id)?.ops[0]?.got as { result: { storageUri: string } };
        const stored = await gateway.storage.read(got.result.storageUri);
        expect(stored, id).toBeDefined();
        expect(Buffer.from(stored ?? []).equals(Buffer.from(clientFile(clientCases.find((c) => c.id === id)!)))).toBe(
          true,
        );
      }
    },
  );

  it("a gateway that refuses the SDK's requests fails the plain cases with its answer; the staged ones still pass", async () => {
    const wrong = { appId: SANDBOX.appId, appSecret: 'sk_test_NotTheSandboxSecretX9' };
    const { r, results, reports } = await runAgainst('python3 examples/python-adapter/pgv2kit_adapter.py', wrong);
    expect(r.code).toBe(1);
    for (const c of results.cases) {
      const message = c.ops[0]?.message ?? '';
      if (PLAIN.includes(c.id)) {
        expect(c.verdict, c.id).toBe('failed');
        // its reproduce line runs the same SDK against the same gateway: the command as given, not the sentence
        expect(c.reproduce, c.id).toBe(
          `npx pgv2kit run --testee 'python3 examples/python-adapter/pgv2kit_adapter.py' ` +
            `--gateway ${gateway.baseUrl} --only id:${c.id}`,
        );
        // the step and the gateway's answer, as the SDK reported them: the other gateway answers 401 to a wrong sign
        expect(message, c.id).toMatch(new RegExp(`^against ${gateway.baseUrl}: refused: .*(credentials|payment)`));
        expect(message, c.id).toContain('401');
      } else {
        expect(c.verdict, c.id).toBe('passed');
        expect(message, c.id).toMatch(/^against the kit's gateway: /);
      }
    }
    // the secret given is masked in every report
    for (const file of ['results.json', 'report.md', 'report.html', 'junit.xml', 'run.log'])
      expect(readFileSync(join(reports, file), 'utf8'), file).not.toContain(wrong.appSecret);
  });

  it.each([
    [
      [],
      'need the merchant credentials that gateway knows: --app-id and --secret (or PGV2_APP_ID and PGV2_APP_SECRET)',
    ],
    [['--app-id', 'a'], 'need the merchant credentials'],
  ])('without credentials (%j) it is a usage error (exit 2)', async (extra, message) => {
    const r = await run(
      ['run', '--testee', 'python3 x.py', '--gateway', 'http://127.0.0.1:1', ...extra, '--no-reports'],
      {
        cwd: tmp(),
      },
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('--module: a client that signs the path instead of the full URL is refused by the gateway, the step named', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--module',
        join(root, 'test/zoo/clients/url-path-signed.ts'),
        '--gateway',
        gateway.baseUrl,
        '--only',
        'client',
        '--report-dir',
        join(cwd, 'r'),
      ],
      { cwd: root, env: { PGV2_APP_ID: SANDBOX.appId, PGV2_APP_SECRET: SANDBOX.appSecret } },
    );
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as Results;
    expect(results.target.kind).toBe('module');
    expect(results.target.description).toContain(`client cases against ${gateway.baseUrl}`);
    for (const id of PLAIN) {
      const c = results.cases.find((x) => x.id === id);
      expect(c?.verdict, id).toBe('failed');
      // the other gateway's own words for a sign over the wrong part 4
      expect(c?.ops[0]?.message, id).toMatch(new RegExp(`^against ${gateway.baseUrl}: refused: .*401.*sign`));
    }
  });

  it.each([
    [['--properties', '5'], '--properties and --replay need the properties'],
    [['--replay', 'property.lf.sign=1:0'], '--properties and --replay need the properties'],
  ])('the gateway role alone (no SDK) still runs no properties: %j is refused (exit 2)', async (extra, message) => {
    const r = await run(['run', '--gateway', ...extra, '--no-reports'], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('--gateway beside an SDK needs its URL, and --name stays the SDK’s own', async () => {
    const noUrl = await run(['run', '--module', 'x.mjs', '--gateway', '--no-reports'], { cwd: tmp() });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--gateway takes the base URL of the gateway the client cases run against');
    const named = await run(
      ['run', '--testee', 'python3 x.py', '--gateway', 'http://127.0.0.1:1', '--name', 'sandbox', '--no-reports'],
      { cwd: tmp(), env: { PGV2_APP_ID: 'a', PGV2_APP_SECRET: 'b' } },
    );
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('the SDK names itself in its handshake');
  });
});
