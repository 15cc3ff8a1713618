/**
 * The gateway panel: correct gateway servers written from gateway-spec.md, readings.md and the kit's user docs
 * alone (test/panel/gateways/, each file's header states its choices). Each is a real HTTP server in a child
 * process; the kit plays the merchant against it — the gateway role twice against the same instance (a second
 * run meets a gateway that has state: used nonces, issued credentials) and `fuzz --gateway` at seeds 1–5 — and
 * nothing may fail but the kit's own defects listed in KNOWN_KIT_DEFECTS, each of which must still fail. Behind
 * the judging proxy (issue 26), a client's genuine calls to it are each judged conformant.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayment } from '../../src/client/create-payment.js';
import { upload } from '../../src/client/upload.js';
import { fuzzHttp } from '../../src/fuzz/http.js';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { judgeExchange } from '../../src/live/judge.js';
import { runCases } from '../../src/runner/run.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { loadVectorSet } from '../../src/vectors/load.js';
import { proxied } from '../live/_support.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Member {
  readonly name: string;
  readonly command: readonly [string, ...string[]];
}

const MEMBERS: readonly Member[] = [
  { name: 'py-strict-gateway', command: ['python3', 'test/panel/gateways/py-strict-gateway.py'] },
  { name: 'node-lenient-gateway', command: [process.execPath, 'test/panel/gateways/node-lenient-gateway.mjs'] },
  { name: 'py-wsgi-gateway', command: ['python3', 'test/panel/gateways/py-wsgi-gateway.py'] },
];

/** `fuzz` stands for the member's fuzz run (at every seed), any other id for a gateway-role case. */
interface KitDefect {
  readonly member: string;
  readonly id: string;
  readonly reason: string;
}

/**
 * Where the kit fails a correct member (a false failure, readings.md): excluded from the 0-failed requirement,
 * and required to fail still, so that this list cannot go stale once the kit is fixed.
 */
const KNOWN_KIT_DEFECTS: readonly KitDefect[] = [
  // none: gateway.upload-2mib (204 demanded for 2,097,152 bytes, R13 allows either) is superseded by
  // gateway.upload-2mib-either, and fuzz reads a signed 200 with a code that is not OK as a refusal (R16)
];

const CREDENTIALS = { appId: 'app_gw_panel', appSecret: 'gw-panel-secret' };
const SEEDS = [1, 2, 3, 4, 5];
const FUZZ_RUNS = 60;

const defectsOf = (member: string): Set<string> =>
  new Set(KNOWN_KIT_DEFECTS.filter((d) => d.member === member).map((d) => d.id));

async function start(member: Member): Promise<{ child: ChildProcess; url: string }> {
  const [command, ...args] = member.command;
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, PGV2_APP_ID: CREDENTIALS.appId, PGV2_APP_SECRET: CREDENTIALS.appSecret },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve(line.replace(/^listening /, '')));
    child.once('exit', (code) => reject(new Error(`${member.name} exited with ${code} before listening`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin?.end(); // each member stops when its stdin closes
  await exited;
}

describe.each(MEMBERS)('the panel gateway $name', (member) => {
  const defects = defectsOf(member.name);
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    ({ child, url } = await start(member));
  }, 20_000);

  afterAll(async () => {
    await stop(child);
  });

  it('passes every gateway-role case, twice against the same instance', async () => {
    const set = loadVectorSet();
    for (const round of [1, 2]) {
      const run = await runCases({
        set,
        subject: createGatewaySubject({ baseUrl: url, ...CREDENTIALS }),
        target: { kind: 'gateway', description: `${member.name} (${url})` },
        selection: { only: ['kind:gateway'], skip: [] },
      });
      // the slow case (it waits 630 s: pgv2kit run --slow) is skipped, never counted as passed
      const notPassed = run.cases.filter(
        (c) => c.verdict !== 'passed' && !(c.verdict === 'skipped' && c.flags.includes('SlowCase')),
      );
      const unexpected = notPassed.filter((c) => !defects.has(c.id)).map((c) => `${c.id}: ${c.message}`);
      expect([round, unexpected]).toEqual([round, []]);
      // a listed defect that passes is stale: the kit was fixed, the list must shrink
      const failing = new Set(notPassed.map((c) => c.id));
      const stale = [...defects].filter((id) => id !== 'fuzz' && !failing.has(id));
      expect([round, stale]).toEqual([round, []]);
      expect(run.cases.length).toBeGreaterThanOrEqual(32);
    }
  }, 60_000);

  // issue 24's done-when: an SDK pointed at a gateway of its own (run --testee X --gateway URL): one member
  // stands for all, the client cases being the SDK's, not the gateway's
  it.runIf(member.name === 'py-strict-gateway')(
    'an SDK run against it (the Python example adapter, run --testee … --gateway URL) passes its client cases',
    async () => {
      const reports = mkdtempSync(join(tmpdir(), 'pgv2kit-panel-sdk-'));
      try {
        const adapter = 'python3 examples/python-adapter/pgv2kit_adapter.py';
        const args = ['bin/pgv2kit.js', 'run', '--testee', adapter, '--gateway', url, '--only', 'client'];
        const r = spawnSync(process.execPath, [...args, '--report-dir', reports], {
          cwd: root,
          env: { ...process.env, PGV2_APP_ID: CREDENTIALS.appId, PGV2_APP_SECRET: CREDENTIALS.appSecret },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(r.stdout + r.stderr).toMatch(/\n(\d+) passed, 0 failed\n/);
        expect(r.status).toBe(0);
        const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8')) as {
          cases: Array<{ id: string; ops: Array<{ message: string }> }>;
        };
        const here = results.cases.filter((c) => c.ops[0]?.message.startsWith(`against ${url}: `)).map((c) => c.id);
        // the plain upload and payment cases met this gateway (not the kit's)
        expect(here).toEqual(expect.arrayContaining(['client.upload-pdf', 'client.create-payment']));
      } finally {
        rmSync(reports, { recursive: true, force: true });
      }
    },
    60_000,
  );

  // issue 26: the live judge passes every correct gateway's genuine answers (no false failure behind the proxy)
  it("behind the judging proxy (--upload), a client's genuine payment and upload are each judged conformant", async () => {
    const merchants = new MerchantBook([CREDENTIALS]);
    const p = await proxied(merchants, { upstream: url, upload: true });
    try {
      const client = { baseUrl: p.proxy.url, ...CREDENTIALS };
      const paid = await createPayment({
        ...client,
        payment: { merchantTradeNo: `MT-${member.name}`, amount: '12.50', currency: 'EUR' },
      });
      expect(paid.code).toBe('OK');
      const file = new TextEncoder().encode('%PDF-1.7\n%panel\n');
      const stored = { filename: 'evidence.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE', file };
      await upload({ ...client, ...stored });
      const exchanges = await p.seen(3);
      const judged = await Promise.all(exchanges.map(async (ex) => [ex.kind, await judgeExchange(ex, { merchants })]));
      expect(judged).toEqual([
        ['api', { verdict: 'conformant', findings: [], notes: expect.any(Array) }],
        ['api', { verdict: 'conformant', findings: [], notes: expect.any(Array) }],
        ['upload', { verdict: 'conformant', findings: [], notes: expect.any(Array) }],
      ]);
    } finally {
      await p.proxy.close();
    }
  });

  it(`fuzz --gateway finds nothing at seeds 1–5 (${FUZZ_RUNS} headers each)`, async () => {
    const findings: (string | undefined)[] = [];
    for (const seed of SEEDS) {
      const r = await fuzzHttp({ kind: 'gateway', url, ...CREDENTIALS, seed, runs: FUZZ_RUNS });
      findings.push(r.finding === undefined ? undefined : `${r.finding.header}: ${r.finding.reason}`);
      if (r.finding === undefined) expect(r.runs).toBe(FUZZ_RUNS);
    }
    if (defects.has('fuzz')) {
      // still the listed defect (a refusal the fuzzer reads as an acceptance), and nothing else
      const found = findings.filter((f) => f !== undefined);
      expect(found).not.toEqual([]);
      expect(found.filter((f) => !/must be refused .* but got 200/.test(f))).toEqual([]);
    } else expect(findings).toEqual(SEEDS.map(() => undefined));
  }, 60_000);
});
