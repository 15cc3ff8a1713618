/**
 * Every failing case of an HTTP role shows a curl command that sends its request again as it
 * went on the wire (issue 13, item 4): run the merchant role against a merchant that accepts
 * everything, take a forged webhook it wrongly accepted, run its curl command in a shell, and the
 * merchant receives the same request again — method, path, Authorization, body.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import busboy from 'busboy';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpCall } from '../../src/roles/merchant/as-gateway/target.js';
import { createSender } from '../../src/roles/merchant/as-gateway/send.js';
import { curlCommand } from '../../src/reports/curl.js';
import { shellPrintf } from '../../src/shell-quote.js';
import { APP_ID, APP_SECRET, startTestMerchant, type TestMerchant } from '../certify/_merchant.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const exec = promisify(execFile);
const tmp = tempFolders('pgv2kit-curl-');
let merchant: TestMerchant;
/** A request as the recording server got it. */
interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: readonly string[];
  readonly body: Buffer;
}
const hasCurl = await exec('curl', ['--version']).then(
  () => true,
  () => false,
);

beforeAll(async () => {
  merchant = await startTestMerchant('accept-all', (base) => ({
    notifyUrl: `${base}/notify`,
    returnUrl: `${base}/return`,
  }));
});
afterAll(async () => merchant.close());

describe('curl commands in the reports', () => {
  it('quotes what a shell would split, leaves out what curl sets itself, and takes out what curl would add', () => {
    const headers = [
      ['Content-Type', 'application/json'],
      ['Content-Length', '2'],
      ['Authorization', "V2_SHA256 appId=a,sign=s'x"],
    ];
    expect(curlCommand({ method: 'POST', url: 'http://h/p?a=1&b=2', headers, body: '{}' })).toBe(
      "curl -sS -i --globoff -X POST 'http://h/p?a=1&b=2' -H 'Content-Type: application/json' " +
        "-H 'Authorization: V2_SHA256 appId=a,sign=s'\\''x' -H Accept: -H User-Agent: --data-binary '{}'",
    );
    expect(curlCommand({ method: 'GET', url: 'http://h/r', headers: [] })).toBe(
      'curl -sS -i --globoff -X GET http://h/r -H Accept: -H User-Agent:',
    );
    // a body with no Content-Type: curl's form type taken out; an empty header value kept (`Name;`)
    expect(curlCommand({ method: 'POST', url: 'http://h/n', headers: [['X-Empty', '']], body: 'a' })).toBe(
      "curl -sS -i --globoff -X POST http://h/n -H 'X-Empty;' -H Accept: -H User-Agent: -H Content-Type: --data-binary a",
    );
    expect(curlCommand({ url: 'x' })).toBeUndefined();
    expect(curlCommand(null)).toBeUndefined();
  });

  it('a body outside printable ASCII goes through printf: any sh (dash too) writes back exactly its bytes', async () => {
    const body = '{"note":"l\'été\\n100%"}\n\r\n\uFEFF-\\x';
    const line = curlCommand({
      method: 'POST',
      url: 'http://h/n',
      headers: [['Content-Type', 'application/json']],
      body,
    });
    expect(line).toMatch(/^printf '[^']*' \| curl .* --data-binary @-$/);
    expect(line).not.toMatch(/[^\x20-\x7e]/);
    const printf = /^(printf '[^']*') \|/.exec(line ?? '')?.[1] ?? 'false';
    const { stdout } = await exec('sh', ['-c', printf], { encoding: 'buffer' });
    expect(Buffer.compare(stdout, Buffer.from(body, 'utf8'))).toBe(0);
    // a body starting with `-` is no printf option
    const dash = await exec('sh', ['-c', shellPrintf('-x %s\\')], { encoding: 'buffer' });
    expect(dash.stdout.toString('utf8')).toBe('-x %s\\');
  });

  it.skipIf(!hasCurl)(
    'a multi-line, non-ASCII body with a quote: pasted into sh, its curl line sends the bytes the kit sent',
    async () => {
      const got: Recorded[] = [];
      const server = createServer((q, s) => {
        const chunks: Buffer[] = [];
        q.on('data', (c: Buffer) => chunks.push(c));
        q.on('end', () => {
          got.push({ method: q.method ?? '', url: q.url ?? '', headers: q.rawHeaders, body: Buffer.concat(chunks) });
          s.end('SUCCESS');
        });
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      try {
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const call: HttpCall = {
          method: 'POST',
          url: `${base}/notify/[a]/../x?order=A1&lang=fr`,
          headers: [
            ['Content-Type', 'application/json; charset=utf-8'],
            ['Authorization', "V2_SHA256 appId=a'b,sign=00,timestamp=1,nonce=n"],
          ],
          body: `{\n  "note": "l'été, 100% \\\\ sûr",\r\n  "x": "\uFEFF\t"\n}\n\n`,
        };
        const sender = createSender(5000);
        try {
          expect((await sender.send(call)).kind).toBe('response');
        } finally {
          await sender.close();
        }
        const line = curlCommand(call) ?? 'false';
        const { stdout } = await exec('sh', ['-c', line], { timeout: 10_000 });
        expect(stdout).toMatch(/^HTTP\/1\.1 200/);
        const [kit, curl] = got;
        expect(Buffer.compare(curl?.body ?? Buffer.alloc(0), kit?.body ?? Buffer.alloc(1)), 'the body bytes').toBe(0);
        expect(kit?.body.toString('utf8')).toBe(call.body);
        expect([curl?.method, curl?.url]).toEqual([kit?.method, kit?.url]);
        // every header the kit wrote, in order, and none of curl's own
        const own = (r: Recorded | undefined): string[] => {
          const raw = r?.headers ?? [];
          const pairs = raw.flatMap((name, i) => (i % 2 === 0 ? [`${name}: ${raw[i + 1] ?? ''}`] : []));
          return pairs.filter((p) => !/^(host|content-length|connection):/i.test(p));
        };
        expect(own(curl)).toEqual(own(kit));
        expect(own(kit)).toEqual(call.headers.map(([n, v]) => `${n}: ${v}`));
      } finally {
        server.close();
      }
    },
  );

  it.runIf(hasCurl)('an upload goes as multipart: every part in order, the file made by node, run by sh', async () => {
    const received: Array<{ name: string; value?: string; filename?: string; type?: string; bytes?: Buffer }> = [];
    let method = '';
    let auth: string | undefined;
    const server = createServer((req, res) => {
      method = req.method ?? '';
      auth = req.headers.authorization;
      const bb = busboy({ headers: req.headers });
      bb.on('field', (name, value) => received.push({ name, value }));
      bb.on('file', (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () =>
          received.push({ name, filename: info.filename, type: info.mimeType, bytes: Buffer.concat(chunks) }),
        );
      });
      bb.on('close', () => res.writeHead(204).end());
      req.pipe(bb);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload?x=1`;
    const line = curlCommand({
      method: 'PUT',
      url,
      headers: [
        ['content-type', 'multipart/form-data; boundary=--x'],
        ['authorization', 'V2_SHA256 appId=a'],
      ],
      parts: [
        { name: 'key', value: '@not-a-file' },
        { name: 'policy', value: "it's <b64>" },
        { name: 'file', filename: 'evi;dence.pdf', contentType: 'application/pdf', size: 300 },
      ],
    });
    try {
      const { stdout } = await exec('sh', ['-c', line ?? 'false']);
      expect(stdout).toMatch(/^HTTP\/1\.1 204/);
    } finally {
      server.close();
    }
    expect(method).toBe('PUT');
    expect(auth).toBe('V2_SHA256 appId=a');
    // the file's bytes: byte i is i mod 256, as the kit's test files
    const file = Buffer.from(Array.from({ length: 300 }, (_, i) => i % 256));
    expect(received).toEqual([
      { name: 'key', value: '@not-a-file' },
      { name: 'policy', value: "it's <b64>" },
      { name: 'file', filename: 'evi;dence.pdf', type: 'application/pdf', bytes: file },
    ]);
  });

  it('a gateway case records its request: the curl command carries its URL, headers and body', async () => {
    const cwd = tmp();
    const r = await run(['run', '--only', 'id:gateway.*', '--no-properties', '--report-dir', 'g'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(cwd, 'g/results.json'), 'utf8')) as {
      cases: Array<{ id: string; curl: string | null }>;
    };
    const api = results.cases.find((c) => c.curl?.includes('/pg/v2/payment/create'));
    expect(api?.curl).toMatch(
      /^curl -sS -i --globoff -X POST http:\/\/127\.0\.0\.1:\d+\/pg\/v2\/payment\/create -H 'Content-Type: application\/json' .*-H 'Authorization: V2_SHA256 appId=[^']*' .*--data-binary '\{/,
    );
  });

  it.skipIf(!hasCurl)(
    'a forged webhook the merchant accepted: its curl command sends the same request again',
    async () => {
      const cwd = tmp();
      const r = await run(
        [
          'run',
          '--merchant',
          '--notify-url',
          `${merchant.url}/notify`,
          '--return-url',
          `${merchant.url}/return`,
          '--seed',
          '1',
          '--report-dir',
          'r',
        ],
        { cwd, env: { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET } },
      );
      expect(r.code).toBe(1);
      const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as {
        cases: Array<{ id: string; verdict: string; curl: string | null }>;
      };
      const forged = results.cases.find((c) => c.verdict === 'failed' && c.id.startsWith('merchant.webhook') && c.curl);
      expect(forged?.curl).toMatch(/^curl -sS -i --globoff -X POST /);
      const before = merchant.calls.length;
      const { stdout } = await exec('sh', ['-c', forged?.curl ?? 'false'], { timeout: 10_000 });
      expect(stdout).toMatch(/^HTTP\/1\.1 200/);
      const again = merchant.calls[before];
      const first = merchant.calls
        .slice(0, before)
        .find((c) => c.body === again?.body && c.headers['authorization'] === again.headers['authorization']);
      expect(again).toBeDefined();
      expect(first, 'the replayed request matches one the run sent').toBeDefined();
      expect([again?.method, again?.url]).toEqual([first?.method, first?.url]);
      expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain(
        `the request again (a gateway may refuse it now for its timestamp or nonce): \``,
      );
    },
    30_000,
  );
});

describe('curlCommand, an upload recorded part by part', () => {
  it('makes the file as the kit made it, and gives no command for a body recorded by its size alone', () => {
    const sent = {
      method: 'POST',
      url: 'http://127.0.0.1:9/bucket',
      headers: [['Content-Type', 'multipart/form-data; boundary=x']],
      parts: [{ name: 'file', filename: 'a.pdf', contentType: 'application/pdf', size: 4096 }],
    };
    expect(curlCommand(sent)).toBe(
      "node -e 'process.stdout.write(Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256)))' | " +
        'curl -sS -i --globoff -X POST http://127.0.0.1:9/bucket -H Accept: -H User-Agent: ' +
        "-F 'file=@-;filename=a.pdf;type=application/pdf'",
    );
    const { parts: _, ...raw } = sent;
    expect(curlCommand({ ...raw, bodySize: 4096 })).toBeUndefined();
  });
});

describe('curl commands come from the kit, never from a testee', () => {
  it("a testee's answer carrying a request of its own gets no curl command; a gateway step's does", async () => {
    const { buildModel } = await import('../../src/reports/_model.js');
    const { runCases } = await import('../../src/runner/run.js');
    const { loadVectorSet } = await import('../../src/vectors/load.js');
    const set = loadVectorSet();
    // an SDK answering signature.sign with a "sent" record of its own making: a method that is a shell command
    const forged = { method: 'GET;touch /tmp/pgv2kit-pwned;#', url: 'http://127.0.0.1:9/', headers: [] };
    const run = await runCases({
      set,
      subject: {
        implementation: { name: 'hostile', version: '1', language: 'js' },
        operations: ['signature.sign'],
        call: async () => ({ result: { sign: '00', sent: forged, call: forged } }),
      },
      target: { kind: 'module', description: 'hostile' },
      selection: { only: ['id:signature.generate-upload-url'], skip: [] },
      properties: false,
    });
    const model = buildModel(run, []);
    const failed = model.cases.find((c) => c.id === 'signature.generate-upload-url');
    expect(failed?.verdict).toBe('failed');
    expect(failed?.curl).toBeUndefined();
    // the same record on a gateway-role step is the kit's own: it gets its command, the method quoted
    const gatewayRun = {
      ...run,
      cases: run.cases.map((c) => ({ ...c, ops: c.ops.map((o) => ({ ...o, op: 'gateway.generateUploadUrl' })) })),
    };
    const curl = buildModel(gatewayRun as typeof run, []).cases[0]?.curl;
    expect(curl).toContain("-X 'GET;touch /tmp/pgv2kit-pwned;#'");
  });
});
