/**
 * `pgv2kit proxy` (issue 26, items 1, 2 and 6): the command in process (its stop given by the test instead of a
 * signal), over real HTTP on loopback — the kit's gateway behind it with the Python example adapter's client
 * operations and a zoo client that drops the final LF in front; `pgv2kit check` on the proxy's traffic.har; a stub
 * gateway that signs its answer wrongly; `--merchant` before a stub merchant that accepts everything and before the
 * sample merchant. One real process, stopped with SIGINT, for what only a process shows: the signal, the --json
 * lines on its stdout, its exit code.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCommand } from '../../src/cli/command.js';
import { proxyCommand } from '../../src/cli/commands/proxy.js';
import { runProxyWith, type ProxyStarted } from '../../src/cli/commands/proxy.run.js';
import { LIVE_REPORT_FILES } from '../../src/live/session.js';
import { startGateway, type Gateway } from '../../src/gateway/gateway.js';
import { startSampleMerchant, type StartedSample } from '../../src/roles/merchant/certify/sample.js';
import { formatAuthorization } from '../../src/scheme/authorization.js';
import { sign } from '../../src/scheme/sign.js';
import { alive, tempFolders } from '../_support.js';
import { run, type RunResult } from '../cli/_run.js';
import { authHeader } from '../gateway/_support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The gateway's merchant, given to the proxy and the SDK alike (not the demo one: its secret must be masked). */
const SANDBOX = { appId: 'app_sandb0x26', appSecret: 'sk_test_ProxySandboxS3cretQ7' };
const CREDS = ['--app-id', SANDBOX.appId, '--secret', SANDBOX.appSecret];
const PYTHON = 'python3 examples/python-adapter/pgv2kit_adapter.py';
const tmp = tempFolders('pgv2kit-proxy-cli-');

interface Exchange {
  seq: number;
  kind: string;
  url: string;
  status: number | null;
  verdict: string;
  findings: Array<{ about: string; mistake?: string; message: string }>;
}
interface Results {
  verdict: string;
  exitCode: number;
  counts: { exchanges: number; conformant: number; notConformant: number };
  exchanges: Exchange[];
}
interface RunResults {
  cases: Array<{ id: string; verdict: string; ops: Array<{ message: string }> }>;
}
const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;
const mistakes = (e: Exchange): string[] => e.findings.flatMap((f) => (f.mistake ? [f.mistake] : []));

/**
 * Runs `pgv2kit proxy <args>` in process: `drive` runs once it listens, then the proxy is stopped as a SIGINT stops
 * it (the verdict's exit code, the reports written).
 */
async function proxyRun(
  args: readonly string[],
  drive: (started: ProxyStarted) => Promise<void>,
): Promise<RunResult & { started: ProxyStarted | undefined }> {
  let release: (s: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<NodeJS.Signals>((r) => (release = r));
  let failure: { e: unknown } | undefined;
  let started: ProxyStarted | undefined;
  const command = defineCommand({
    ...proxyCommand,
    run: (context) =>
      runProxyWith(context, {
        stop: () => stopped,
        started: (s) => {
          started = s;
          drive(s).then(
            () => release('SIGINT'),
            (e: unknown) => {
              failure = { e };
              release('SIGINT');
            },
          );
        },
      }),
  });
  const r = await run(['proxy', ...args], { commands: [command], cwd: ROOT, env: { ...process.env } });
  if (failure) throw failure.e;
  return { ...r, started };
}

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ merchants: [SANDBOX] });
});
afterAll(async () => {
  await gateway.close();
});

describe('pgv2kit proxy --upstream: the kit gateway behind it', () => {
  const reports = join(tmp(), 'proxy');
  let r: Awaited<ReturnType<typeof proxyRun>>;
  const runs: Record<string, RunResult> = {};
  const runDirs: Record<string, string> = {};
  /** A run's one case: its verdict and what the SDK reported, the gateway's URL taken out. */
  const zooCase = (name: string, url: string) => {
    const c = (JSON.parse(readFileSync(join(runDirs[name] ?? '', 'results.json'), 'utf8')) as RunResults).cases[0];
    // the refusal, not the gateway's diagnosis: behind the proxy the gateway verifies over its own URL, not the one
    // the client signed, so only the proxy, which saw the client's URL, can name the mistake
    const refusal = /^against <gateway>: refused: payment: HTTP \d+: \{"code":"\w+"/.exec(
      c?.ops[0]?.message.replaceAll(url, '<gateway>') ?? '',
    );
    return { id: c?.id, verdict: c?.verdict, refusal: refusal?.[0] };
  };

  beforeAll(async () => {
    r = await proxyRun(['--upstream', gateway.baseUrl, '--upload', ...CREDS, '--report-dir', reports], async (s) => {
      const sdk = (name: string, testee: string[], gatewayUrl: string, only: string) =>
        run(
          [
            'run',
            ...testee,
            '--gateway',
            gatewayUrl,
            ...CREDS,
            '--only',
            only,
            '--report-dir',
            (runDirs[name] = tmp()),
          ],
          { cwd: ROOT, env: { ...process.env } },
        ).then((got) => void (runs[name] = got));
      await sdk('python', ['--testee', PYTHON], s.proxyUrl, 'client');
      const zoo = ['--module', join(ROOT, 'test/live/_no-final-lf-client.ts')];
      await sdk('zoo', zoo, s.proxyUrl, 'id:client.create-payment');
      await sdk('zoo-direct', zoo, gateway.baseUrl, 'id:client.create-payment');
    });
  }, 30_000);

  it('the Python adapter passes through the proxy as it does direct; each exchange it made is conformant', () => {
    expect(runs['python']?.code).toBe(0);
    expect(runs['python']?.stdout).toMatch(/\b0 failed\b/);
    const got = results(reports).exchanges;
    const python = got.slice(0, -1); // the last is the zoo client's
    // the plain client cases run against --gateway: a payment, and each upload's credentials and upload
    expect(python.filter((e) => e.kind === 'api').length).toBeGreaterThanOrEqual(8);
    expect(python.filter((e) => e.kind === 'upload').length).toBeGreaterThanOrEqual(7);
    for (const e of python) expect([e.seq, e.verdict, e.findings]).toEqual([e.seq, 'conformant', []]);
  });

  it('a zoo client that drops the final LF: refused by the gateway as directly, the proxy names no-final-lf', () => {
    expect(runs['zoo']?.code).toBe(1);
    expect(runs['zoo-direct']?.code).toBe(1);
    const through = zooCase('zoo', r.started?.proxyUrl ?? '');
    expect(through).toEqual(zooCase('zoo-direct', gateway.baseUrl));
    expect(through).toMatchObject({ id: 'client.create-payment', verdict: 'failed' });
    expect(through.refusal).toBe('against <gateway>: refused: payment: HTTP 401: {"code":"UNAUTHORIZED"');
    const last = results(reports).exchanges.at(-1) as Exchange;
    expect([last.url.endsWith('/pg/v2/payment/create'), last.status, last.verdict]).toEqual([
      true,
      401,
      'not conformant',
    ]);
    expect(mistakes(last)).toEqual(['no-final-lf']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/no-final-lf/);
    expect(r.stdout).toContain(`reports: ${reports}`);
    // the merchant's secret never appears: not in the lines, not in the reports
    expect(r.stdout + r.stderr).not.toContain(SANDBOX.appSecret);
    for (const f of ['results.json', 'report.html', 'traffic.har'])
      expect(readFileSync(join(reports, f), 'utf8')).not.toContain(SANDBOX.appSecret);
  });

  it('pgv2kit check on the traffic.har gives the same verdicts and mistakes, exchange by exchange', async () => {
    const again = join(tmp(), 'check');
    const c = await run(['check', join(reports, 'traffic.har'), ...CREDS, '--report-dir', again], { cwd: ROOT });
    expect(c.code).toBe(1);
    const pick = (e: Exchange) => [e.seq, e.kind, e.verdict, mistakes(e)];
    const proxied = results(reports).exchanges;
    expect(proxied.length).toBeGreaterThan(15);
    expect(results(again).exchanges.map(pick)).toEqual(proxied.map(pick));
  });
});

/** A server on loopback answering every request with `answer`; closed after the tests. */
async function stub(answer: (body: Buffer) => { status: number; headers: Record<string, string>; body: string }) {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const a = answer(Buffer.concat(chunks));
      res.writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) });
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((r) => server.close(() => r())));
  return url;
}

/** A genuine payment request of SANDBOX's, signed (test/gateway/_support.ts) over the URL it is sent to. */
async function pay(base: string) {
  const url = `${base}/pg/v2/payment/create`;
  const body = JSON.stringify({ merchantTradeNo: 'MT26', amount: '1.00', currency: 'EUR', description: 'x' });
  const authorization = authHeader({ ...SANDBOX, method: 'POST', url, body, timestamp: String(Date.now()) });
  const r = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization },
    body,
  });
  return { status: r.statusCode, body: await r.body.text() };
}

describe('pgv2kit proxy --upstream: a gateway that signs its answer wrongly, --json', () => {
  it('is caught (R9): the answer passed on, the exchange not conformant; --json lines first and last; exit 1', async () => {
    const upstream = await stub(() => ({
      status: 200,
      headers: {
        'content-type': 'application/json',
        authorization: `V2_SHA256 appId=${SANDBOX.appId},sign=${'0'.repeat(64)},timestamp=1,nonce=n`,
      },
      body: '{"code":"OK","data":{"paymentNo":"P1"}}',
    }));
    const dir = join(tmp(), 'r');
    let answered: { status: number; body: string } | undefined;
    const r = await proxyRun(['--upstream', upstream, ...CREDS, '--json', '--report-dir', dir], async (s) => {
      answered = await pay(s.proxyUrl);
    });
    expect(answered).toEqual({ status: 200, body: '{"code":"OK","data":{"paymentNo":"P1"}}' });
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0] ?? '')).toEqual({ proxyUrl: r.started?.proxyUrl, upstream });
    expect(JSON.parse(lines[1] ?? '')).toMatchObject({
      command: 'proxy',
      kind: 'live',
      verdict: 'not conformant',
      exitCode: 1,
      reportsDir: dir,
      counts: { exchanges: 1, conformant: 0, notConformant: 1, notJudged: 0 },
    });
    expect(r.code).toBe(1);
    // the line per exchange went to stderr
    expect(r.stderr).toMatch(/#1 POST \/pg\/v2\/payment\/create → 200 {2}NOT CONFORMANT/);
    const [e] = results(dir).exchanges;
    expect(e?.findings.map((f) => f.about)).toEqual(['response']);
    expect(e?.findings[0]?.message).toMatch(/sign|signature/i);
  });

  it('an upstream that cannot be reached: 502, the line, results.json and report.html say why', async () => {
    const dir = join(tmp(), 'r');
    // a port that was free a moment ago: nothing listens there
    const down = await new Promise<string>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const port = (s.address() as AddressInfo).port;
        s.close(() => resolve(`http://127.0.0.1:${port}`));
      });
    });
    let status = 0;
    const r = await proxyRun(['--upstream', down, ...CREDS, '--report-dir', dir], async (s) => {
      status = (await pay(s.proxyUrl)).status;
    });
    expect(status).toBe(502);
    expect(r.stdout).toMatch(/#1 POST \/pg\/v2\/payment\/create → no answer \(the upstream .* could not be reached/);
    const [e] = results(dir).exchanges as Array<Exchange & { unanswered?: string }>;
    expect(e?.status).toBeNull();
    expect(e?.unanswered).toMatch(/could not be reached/);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toMatch(/answer none: the upstream .* could not be reached/);
    // the request itself was genuine, and no answer came: not judged (half an exchange never passes), nothing
    // judged, exit 1 — a CI run against a sandbox that is down never goes green
    expect([e?.verdict, r.code]).toEqual(['not judged', 1]);
    expect(r.stdout).toMatch(/^NOTHING JUDGED: /m);
  });
});

describe('pgv2kit proxy --merchant', () => {
  const NOTIFY = 'https://shop.example.test/pgv2/notify';
  const RETURN = 'https://shop.example.test/pgv2/return?order=A1&lang=fr';
  const BODY = '{"paymentNo":"P1","merchantTradeNo":"T1","status":"SUCCESS","amount":"10.00"}';
  /** A webhook of the sample merchant's credentials, signed with the kit's signer over the notifyUrl as registered. */
  const webhook = async (proxyUrl: string, body: string, signed = body) => {
    const creds = { appId: 'demo_merchant_app', appSecret: 'demo_sample_secret_5f1c2a7e' };
    const [timestamp, nonce] = [String(Date.now()), `n-${Math.random()}`];
    const s = sign({ ...creds, method: 'POST', url: NOTIFY, timestamp, nonce, body: signed });
    const authorization = formatAuthorization({ appId: creds.appId, sign: s, timestamp, nonce });
    const r = await request(`${proxyUrl}/pgv2/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body,
    });
    await r.body.dump();
    return r.statusCode;
  };
  const args = (merchant: string, dir: string) => [
    '--merchant',
    merchant,
    '--notify-url',
    NOTIFY,
    '--return-url',
    RETURN,
    '--app-id',
    'demo_merchant_app',
    '--secret',
    'demo_sample_secret_5f1c2a7e',
    '--report-dir',
    dir,
  ];
  let sample: StartedSample;
  beforeAll(async () => {
    sample = await startSampleMerchant();
  });
  afterAll(() => sample.close());

  it('a merchant that accepts a forged webhook is caught; its genuine one is conformant; exit 1', async () => {
    const yes = await stub(() => ({ status: 200, headers: { 'content-type': 'text/plain' }, body: 'SUCCESS' }));
    const dir = join(tmp(), 'r');
    const statuses: number[] = [];
    const r = await proxyRun(args(yes, dir), async (s) => {
      statuses.push(await webhook(s.proxyUrl, BODY.replace('10.00', '1000.00'), BODY)); // forged: changed after
      statuses.push(await webhook(s.proxyUrl, BODY));
      const page = await request(`${s.proxyUrl}/shop/thanks`);
      await page.body.dump();
      statuses.push(page.statusCode);
    });
    expect(statuses).toEqual([200, 200, 200]);
    const got = results(dir).exchanges.sort((a, b) => a.seq - b.seq);
    expect(got.map((e) => [e.kind, e.verdict])).toEqual([
      ['webhook', 'not conformant'],
      ['webhook', 'conformant'],
    ]);
    expect(got[0]?.findings.map((f) => f.about)).toEqual(['webhook', 'response']);
    expect(got[0]?.findings[1]?.message).toMatch(/the merchant accepted a webhook that does not verify/);
    // the other page: passed through, a short line, not an exchange
    expect(r.stdout).toMatch(/GET \/shop\/thanks → 200 {2}passed through, not judged/);
    expect(r.code).toBe(1);
  });

  it('the sample merchant passes: a genuine webhook, accepted, conformant; exit 0', async () => {
    const dir = join(tmp(), 'r');
    let status = 0;
    const r = await proxyRun(args(new URL(sample.deliverTo).origin, dir), async (s) => {
      status = await webhook(s.proxyUrl, BODY);
    });
    expect(status).toBe(200);
    expect(results(dir)).toMatchObject({ verdict: 'conformant', exitCode: 0, counts: { exchanges: 1 } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/#1 POST \/pgv2\/notify → 200 {2}CONFORMANT/);
  });

  it('a notifyUrl behind basic auth: its password masked in the banner, the line and every report', async () => {
    const dir = join(tmp(), 'r');
    const password = 'basic-auth-pw-8Hq2';
    const withAuth = args(sample.deliverTo.replace(/\/pgv2\/notify$/, ''), dir).map((a) =>
      a === NOTIFY ? NOTIFY.replace('https://', `https://hooks:${password}@`) : a,
    );
    const r = await proxyRun(withAuth, async (s) => void (await webhook(s.proxyUrl, BODY)));
    expect(r.stdout).toMatch(/^notifyUrl +https:\/\/hooks:ba\*+ \(18 chars\)@shop\.example\.test\/pgv2\/notify$/m);
    const outputs = [r.stdout, r.stderr, ...LIVE_REPORT_FILES.map((f) => readFileSync(join(dir, f), 'utf8'))];
    expect(outputs.filter((o) => o.includes(password))).toEqual([]);
    expect(results(dir).exchanges).toHaveLength(1);
  });
});

describe('pgv2kit proxy: usage and start errors', () => {
  it.each([
    [[], /give --upstream <gateway base URL>/],
    [['--upstream', 'http://a.test', '--merchant', 'http://b.test'], /give --upstream or --merchant, not both/],
    [['--merchant', 'http://b.test', '--notify-url', 'https://b.test/n'], /--merchant needs --return-url/],
    [['--upstream', 'ftp://a.test'], /upstream "ftp:\/\/a.test" is not http or https/],
    [['--upstream', 'http://a.test', '--port', '70000'], /--port must be a port number/],
    [['--upstream', 'http://a.test', '--accept-body', 'SUCCESS'], /--accept-body .*--merchant/],
    [
      ['--merchant', 'http://b.test', '--notify-url', 'https://b.test/n', '--return-url', 'https://b.test/r'].concat([
        '--return-refusal-location',
        'ftp://b.test/failed',
      ]),
      /return-refusal-location/,
    ],
  ])('%j: exit 2 with the reason', async (argv, message) => {
    const r = await run(['proxy', ...argv, '--report-dir', join(tmp(), 'r')]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
  });

  it('a port in use: exit 3, nothing left in the report folder', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = String((busy.address() as AddressInfo).port);
    const dir = join(tmp(), 'r');
    const r = await run(['proxy', '--upstream', 'http://127.0.0.1:9', '--port', port, '--report-dir', dir]);
    busy.close();
    expect([r.code, r.stderr]).toEqual([3, expect.stringMatching(/the proxy could not start: .*EADDRINUSE/)]);
    expect(existsSync(join(dir, 'results.json'))).toBe(false);
  });
});

describe('pgv2kit proxy --host, --port, --upload-port', () => {
  it('listen where they say; the credentials answer points uploads at --upload-port', async () => {
    const free = async (): Promise<number> => {
      const s = createServer();
      await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
      const { port } = s.address() as AddressInfo;
      await new Promise((r) => s.close(r));
      return port;
    };
    const [api, up] = [await free(), await free()];
    const ports = ['--host', '127.0.0.1', '--port', String(api), '--upload', '--upload-port', String(up)];
    const r = await proxyRun(['--upstream', gateway.baseUrl, ...ports, ...CREDS, '--report-dir', tmp()], async () =>
      Promise.resolve(),
    );
    expect(r.started).toMatchObject({ proxyUrl: `http://127.0.0.1:${api}`, uploadUrl: `http://127.0.0.1:${up}` });
    expect(r.code, r.stderr).toBe(1); // nothing judged: no exchange
  });
});

describe('pgv2kit proxy as a process', () => {
  it('--json: the first line, one exchange, SIGINT → the summary last, the reports, exit 0', async () => {
    const dir = join(tmp(), 'r');
    const child = spawn(
      process.execPath,
      [join(ROOT, 'bin/pgv2kit.js'), 'proxy', '--upstream', gateway.baseUrl, ...CREDS, '--json', '--report-dir', dir],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const lines = createInterface({ input: child.stdout });
    const out: string[] = [];
    const first = await new Promise<string>((resolve) => lines.once('line', resolve));
    lines.on('line', (l) => out.push(l));
    const started = JSON.parse(first) as { proxyUrl: string; upstream: string };
    expect(started).toEqual({
      proxyUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      upstream: gateway.baseUrl,
    });
    expect(await pay(started.proxyUrl)).toMatchObject({ status: 200 });
    child.kill('SIGINT');
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(JSON.parse(out[0] ?? '')).toMatchObject({ command: 'proxy', verdict: 'conformant', exitCode: 0 });
    expect(stderr).toMatch(/#1 POST \/pg\/v2\/payment\/create → 200 {2}CONFORMANT/);
    expect(stderr).toMatch(/SIGINT: stopping/);
    expect(stderr).not.toContain(SANDBOX.appSecret);
    expect(results(dir).counts).toMatchObject({ exchanges: 1, conformant: 1 });
  });

  it('stops as at Ctrl-C when the process that started it is killed (npx passes no signal on): reports, exit', async () => {
    const dir = join(tmp(), 'orphan');
    // the parent: starts the proxy (its output straight to this test's pipes), says its pid, then waits to be killed
    const args = ['proxy', '--upstream', gateway.baseUrl, ...CREDS, '--json', '--report-dir', dir];
    const script = [
      "const { spawn } = require('node:child_process');",
      `const c = spawn(process.execPath, ${JSON.stringify([join(ROOT, 'bin/pgv2kit.js'), ...args])}, { stdio: ['ignore', 'inherit', 'inherit'] });`,
      'process.stderr.write(`proxy pid ${c.pid}\\n`);',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const parent = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    parent.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
    const lines = createInterface({ input: parent.stdout });
    const out: string[] = [];
    lines.on('line', (l) => out.push(l));
    const closed = new Promise<void>((resolve) => parent.on('close', () => resolve()));
    let pid = 0;
    try {
      while (out.length === 0) await new Promise((r) => setTimeout(r, 20));
      pid = Number(/^proxy pid (\d+)$/m.exec(stderr)?.[1]);
      expect(await pay((JSON.parse(out[0] ?? '') as { proxyUrl: string }).proxyUrl)).toMatchObject({ status: 200 });
      parent.kill('SIGKILL');
      await closed; // every holder of the pipes gone: the proxy too
      expect(stderr).toContain(`pgv2kit proxy: the process that started it (pid ${parent.pid}) has exited: stopping`);
      expect(JSON.parse(out[1] ?? '')).toMatchObject({ command: 'proxy', verdict: 'conformant', exitCode: 0 });
      expect(results(dir).counts).toMatchObject({ exchanges: 1, conformant: 1 });
    } finally {
      parent.kill('SIGKILL');
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('a second signal while an exchange is in flight: exits at once, 143, no reports, nothing left behind', async () => {
    // an upstream that takes the request and never answers: the first signal waits for the exchange in flight
    let arrived: () => void = () => undefined;
    const held = new Promise<void>((r) => (arrived = r));
    const silent = createServer(() => arrived());
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const parent = tmp();
    const dir = join(parent, 'r');
    try {
      const upstream = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const child = spawn(
        process.execPath,
        [join(ROOT, 'bin/pgv2kit.js'), 'proxy', '--upstream', upstream, ...CREDS, '--json', '--report-dir', dir],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const first = await new Promise<string>((resolve) =>
        createInterface({ input: child.stdout }).once('line', resolve),
      );
      const exited = once(child, 'exit');
      const paying = pay((JSON.parse(first) as { proxyUrl: string }).proxyUrl).catch(() => undefined);
      await held;
      child.kill('SIGINT');
      while (!stderr.includes('SIGINT: stopping')) await new Promise((r) => setTimeout(r, 10));
      child.kill('SIGTERM');
      const [code] = (await exited) as [number];
      await paying;
      expect(code).toBe(143);
      expect(stderr).toContain('pgv2kit proxy: SIGTERM again: exiting now, no reports');
      expect(readdirSync(parent)).toEqual([]);
    } finally {
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });
});
