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
import { readFileSync } from 'node:fs';
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
import { startGateway, type Gateway } from '../../src/gateway/gateway.js';
import { startSampleMerchant, type StartedSample } from '../../src/roles/merchant/certify/sample.js';
import { formatAuthorization } from '../../src/scheme/authorization.js';
import { sign } from '../../src/scheme/sign.js';
import { tempFolders } from '../_support.js';
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
