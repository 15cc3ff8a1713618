/**
 * The judging proxy's cost (issue 26, item 5: "cheap enough to leave on"), on loopback, three processes: the
 * reference gateway (startGateway) in one child, the proxy (startProxy, every exchange handed to a LiveSession
 * writing to a temporary report folder — what `pgv2kit proxy` does) in another, and the client here. The proxy in
 * its own process is what a user runs; sharing one event loop would charge the proxy with the client's and the
 * gateway's work and the other way round. Both children are plain node running dist/ (bench/_live-child.mjs).
 *
 * Throughput: rounds of N signed createPayment requests (`POST /pg/v2/payment/create`, a 2.5 body, each with its
 * own merchantTradeNo and nonce), pre-signed before the round for the URL each side addresses, sent with undici at
 * 32 in flight, straight to the gateway and through the proxy, back to back, the order alternating. Per round:
 * requests/s of each side and their ratio (aim ≥ 0.8), each request's latency (the proxy's added latency is the
 * median and p99 of proxied minus those of direct, at 32 in flight and then one request at a time), and the CPU each
 * process spent per request. A third side, the
 * proxy with its exchanges dropped (no session: no judging, no reports), tells the forwarding's cost from the session's.
 *
 * A gateway far away: the same requests, fewer, against the reference gateway behind a front that holds each one
 * PGV2KIT_BENCH_PROXY_FAR_MS (20) before passing it on — a sandbox's round trip — straight and through a second proxy:
 * the ratio a team running its tests through the proxy against a sandbox sees, the round trip setting the pace.
 *
 * Memory: a fresh proxy and session take 100,000 exchanges (PGV2KIT_BENCH_PROXY_EXCHANGES) in batches of a tenth;
 * after each batch the bench waits for the session to have judged every exchange, has the proxy process run a full
 * GC, and reads its heap and RSS; the kernel's RSS high-water mark (VmHWM) of the whole run and traffic.har's size
 * at the end. Bounded means the heap after 100,000 is that after 10,000.
 *
 * It measures, it never gates.
 *
 *     PGV2KIT_BENCH_PROXY_EXCHANGES=2000 npx tsx bench/run.ts proxy
 * @module
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { formatAuthorization } from '../dist/scheme/authorization.js';
import { sign } from '../dist/scheme/sign.js';
import { envInt, formatNumber, pairRatios, rounds, summarize, table } from './_measure.js';

const CHILD = fileURLToPath(new URL('./_live-child.mjs', import.meta.url));
// a secret sharing no text with the appId, as real ones (one that did made the masker scan every Authorization header)
const MERCHANT = { appId: 'bench-merchant', appSecret: 'f3Kq9vXz2LmT8wRb5NcY7hPd' } as const;
const PATH = '/pg/v2/payment/create';
const MIB = 1024 * 1024;

/** The settings, each from its environment variable. */
export interface ProxyBenchConfig {
  /** PGV2KIT_BENCH_PROXY_REQUESTS: requests per side per round (4,000). */
  readonly requests: number;
  /** PGV2KIT_BENCH_PROXY_ROUNDS: measured rounds, after one warm-up round (5). */
  readonly rounds: number;
  /** PGV2KIT_BENCH_PROXY_CONCURRENCY: requests in flight (32). */
  readonly concurrency: number;
  /** PGV2KIT_BENCH_PROXY_EXCHANGES: exchanges of the memory run (100,000). */
  readonly exchanges: number;
  /** PGV2KIT_BENCH_PROXY_ALONE: requests per side and round sent one at a time, for the unloaded latency (500). */
  readonly alone: number;
  /** PGV2KIT_BENCH_PROXY_FAR_MS: the round trip of the far gateway, a sandbox's (20 ms). */
  readonly farMs: number;
  /** PGV2KIT_BENCH_PROXY_FAR_REQUESTS: requests per side and round against the far gateway (1,600). */
  readonly farRequests: number;
}

/**
 * The settings from the environment.
 * @returns the configuration, defaults where a variable is unset
 * @throws {RangeError} when a variable is not a positive integer
 */
export function proxyBenchConfig(): ProxyBenchConfig {
  const int = envInt;
  return {
    requests: int('PGV2KIT_BENCH_PROXY_REQUESTS', 4000),
    rounds: int('PGV2KIT_BENCH_PROXY_ROUNDS', 5),
    concurrency: int('PGV2KIT_BENCH_PROXY_CONCURRENCY', 32),
    exchanges: int('PGV2KIT_BENCH_PROXY_EXCHANGES', 100_000),
    alone: int('PGV2KIT_BENCH_PROXY_ALONE', 500),
    farMs: int('PGV2KIT_BENCH_PROXY_FAR_MS', 20),
    farRequests: int('PGV2KIT_BENCH_PROXY_FAR_REQUESTS', 1600),
  };
}

/**
 * Runs the throughput rounds and the memory run; returns the tables and the lines to grep,
 * `ratio proxy / direct …` and `proxy memory …`.
 * @param config - the settings (default: from the environment)
 * @returns the report text, ending in a blank line
 * @throws {Error} when a child cannot start
 */
export async function benchProxyThroughput(config: ProxyBenchConfig = proxyBenchConfig()): Promise<string> {
  const started = performance.now();
  const folder = mkdtempSync(join(tmpdir(), 'pgv2kit-bench-proxy-'));
  const gateway = await Child.start(['gateway']);
  const children: Child[] = [gateway];
  try {
    const proxy = await Child.start(['proxy', gateway.url, join(folder, 'throughput')]);
    children.push(proxy);
    const bare = await Child.start(['bare-proxy', gateway.url]);
    children.push(bare);
    const out = await throughput(config, gateway, proxy, bare);
    await bare.finish();
    children.pop();
    const thr = await proxy.finish();
    children.pop();
    out.push(
      `  the proxy's session over the ${formatNumber(thr.counts?.exchanges ?? 0)} exchanges of these rounds: ` +
        `${countsText(thr)}`,
      '',
    );
    const far = await Child.start(['far-gateway', String(config.farMs)]);
    children.push(far);
    const farProxy = await Child.start(['proxy', far.url, join(folder, 'far')]);
    children.push(farProxy);
    out.push(...(await farThroughput(config, far, farProxy)));
    await farProxy.finish();
    children.pop();
    await far.finish();
    children.pop();
    const memProxy = await Child.start(['proxy', gateway.url, join(folder, 'memory')]);
    children.push(memProxy);
    out.push(...(await memory(config, memProxy)));
    children.pop();
    out.splice(0, 0, `proxy-throughput (issue 26 item 5), took ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return `${out.join('\n')}\n\n`;
  } finally {
    for (const c of children) c.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

// --- throughput ---

interface RoundResult {
  readonly perSecond: number;
  readonly latencies: number[];
  readonly failed: number;
  /** CPU ms per request: the client, the gateway, the proxy (0 when not on the path). */
  readonly cpu: { readonly client: number; readonly gateway: number; readonly proxy: number };
}

async function throughput(cfg: ProxyBenchConfig, gateway: Child, proxy: Child, bare: Child): Promise<string[]> {
  let serial = 0;
  const side = (target: Child, through?: Child) => async (): Promise<RoundResult> => {
    const requests = Array.from({ length: cfg.requests }, () => signedPayment(target.url, ++serial));
    const before = { client: clientCpuMs(), gateway: await gateway.cpuMs(), proxy: (await through?.cpuMs()) ?? 0 };
    const run = await send(target.url, cfg.concurrency, requests.length, (i) => requests[i] as Signed);
    const per = (ms: number): number => ms / requests.length;
    return {
      ...run,
      cpu: {
        client: per(clientCpuMs() - before.client),
        gateway: per((await gateway.cpuMs()) - before.gateway),
        proxy: through ? per((await through.cpuMs()) - before.proxy) : 0,
      },
    };
  };
  const kept = await rounds(
    { direct: side(gateway), proxy: side(proxy, proxy), bare: side(bare, bare) },
    1,
    cfg.rounds,
  );
  // one request at a time: the latency the proxy adds when it is not saturated (at 32 in flight, when the proxy is
  // the slowest stage, most of its added latency is the queue: in flight ÷ its requests/s)
  const oneAtATime = (target: Child) => async (): Promise<number[]> => {
    const requests = Array.from({ length: cfg.alone }, () => signedPayment(target.url, ++serial));
    return (await send(target.url, 1, requests.length, (i) => requests[i] as Signed)).latencies;
  };
  const alone = await rounds({ direct: oneAtATime(gateway), proxy: oneAtATime(proxy) }, 1, 3);
  const aloneAdded = (p: number): number[] =>
    alone.proxy.map((l, i) => pct(l, p) - pct(alone.direct[i] as number[], p));
  const ratios = pairRatios(
    kept.proxy.map((r) => r.perSecond),
    kept.direct.map((r) => r.perSecond),
  );
  const bareRatios = pairRatios(
    kept.bare.map((r) => r.perSecond),
    kept.direct.map((r) => r.perSecond),
  );
  const addedMedian = kept.proxy.map((r, i) => pct(r.latencies, 50) - pct(kept.direct[i]!.latencies, 50));
  const addedP99 = kept.proxy.map((r, i) => pct(r.latencies, 99) - pct(kept.direct[i]!.latencies, 99));
  const row = (label: string, unit: string, values: number[], digits = 0): string[] => {
    const s = summarize(values);
    const f = (n: number): string => (digits === 0 ? formatNumber(n) : n.toFixed(digits));
    return [label, unit, f(s.median), f(s.min), f(s.max), `${s.spreadPct.toFixed(0)}%`];
  };
  const both = (label: string, unit: string, f: (r: RoundResult) => number, digits = 0): string[][] => [
    row(`direct, ${label}`, unit, kept.direct.map(f), digits),
    row(`proxy, ${label}`, unit, kept.proxy.map(f), digits),
    row(`proxy without session, ${label}`, unit, kept.bare.map(f), digits),
  ];
  const failed = [...kept.direct, ...kept.proxy, ...kept.bare].reduce((n, r) => n + r.failed, 0);
  const ratio = summarize(ratios);
  const added = { median: summarize(addedMedian).median, p99: summarize(addedP99).median };
  return [
    `  ${formatNumber(cfg.requests)} signed createPayment requests per side and round, ${cfg.concurrency} in flight, ` +
      `1 warm-up + ${cfg.rounds} rounds; client, gateway and proxy+session each in its own process`,
    table(
      ['subject', 'unit', 'median', 'min', 'max', 'spread'],
      [
        ...both('throughput', 'requests/s', (r) => r.perSecond),
        ...both('latency p50', 'ms', (r) => pct(r.latencies, 50), 2),
        ...both('latency p99', 'ms', (r) => pct(r.latencies, 99), 2),
        row('added latency p50 (proxy − direct)', 'ms', addedMedian, 2),
        row('added latency p99 (proxy − direct)', 'ms', addedP99, 2),
        row(`added latency p50, 1 in flight (${cfg.alone} a round, 3 rounds)`, 'ms', aloneAdded(50), 2),
        row(`added latency p99, 1 in flight (${cfg.alone} a round, 3 rounds)`, 'ms', aloneAdded(99), 2),
        ...both('client CPU', 'µs/request', (r) => r.cpu.client * 1000),
        ...both('gateway CPU', 'µs/request', (r) => r.cpu.gateway * 1000),
        row(
          'proxy, proxy+session CPU',
          'µs/request',
          kept.proxy.map((r) => r.cpu.proxy * 1000),
        ),
        row(
          'proxy without session, proxy CPU',
          'µs/request',
          kept.bare.map((r) => r.cpu.proxy * 1000),
        ),
        row('proxy / direct', 'ratio', ratios, 2),
        row('proxy without session / direct', 'ratio', bareRatios, 2),
      ],
    ),
    `  answers other than 200 (or no answer): ${failed}; ratio per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
    `ratio proxy / direct (requests/s at ${cfg.concurrency} in flight): ${ratio.median.toFixed(2)} ` +
      `(median of ${cfg.rounds} rounds, ${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}; aim ≥ 0.80) ` +
      `${Number(ratio.median.toFixed(2)) >= 0.8 ? 'meets aim' : 'below aim'}`,
    `proxy added latency: median ${added.median.toFixed(2)} ms, p99 ${added.p99.toFixed(2)} ms at ` +
      `${cfg.concurrency} in flight; median ${summarize(aloneAdded(50)).median.toFixed(2)} ms, p99 ` +
      `${summarize(aloneAdded(99)).median.toFixed(2)} ms at 1 in flight (medians of the rounds)`,
  ];
}

// --- a far gateway ---

/**
 * The same requests against a gateway a sandbox's round trip away (`far-gateway`): what a team running its tests
 * through the proxy against a sandbox sees. At 32 in flight the round trip, not the proxy's CPU, sets the pace.
 */
async function farThroughput(cfg: ProxyBenchConfig, far: Child, proxy: Child): Promise<string[]> {
  let serial = 20_000_000;
  const side = (target: Child) => async (): Promise<{ perSecond: number; latencies: number[]; failed: number }> => {
    const requests = Array.from({ length: cfg.farRequests }, () => signedPayment(target.url, ++serial));
    return send(target.url, cfg.concurrency, requests.length, (i) => requests[i] as Signed);
  };
  const kept = await rounds({ direct: side(far), proxy: side(proxy) }, 1, 3);
  const ratios = pairRatios(
    kept.proxy.map((r) => r.perSecond),
    kept.direct.map((r) => r.perSecond),
  );
  const added = kept.proxy.map((r, i) => pct(r.latencies, 50) - pct(kept.direct[i]!.latencies, 50));
  const failed = [...kept.direct, ...kept.proxy].reduce((n, r) => n + r.failed, 0);
  const ratio = summarize(ratios);
  const s = (xs: number[]): string => formatNumber(summarize(xs).median);
  return [
    `  against a gateway ${cfg.farMs} ms away (a sandbox's round trip), ${formatNumber(cfg.farRequests)} requests a ` +
      `side and round, ${cfg.concurrency} in flight, 1 warm-up + 3 rounds: direct ${s(kept.direct.map((r) => r.perSecond))} ` +
      `requests/s, proxy ${s(kept.proxy.map((r) => r.perSecond))}; answers other than 200: ${failed}`,
    `ratio proxy / direct against a gateway ${cfg.farMs} ms away: ${ratio.median.toFixed(2)} (median of 3 rounds, ` +
      `${ratio.min.toFixed(2)}–${ratio.max.toFixed(2)}; aim ≥ 0.80) ` +
      `${Number(ratio.median.toFixed(2)) >= 0.8 ? 'meets aim' : 'below aim'}; added latency p50 ` +
      `${summarize(added).median.toFixed(2)} ms`,
    '',
  ];
}

// --- memory ---

async function memory(cfg: ProxyBenchConfig, proxy: Child): Promise<string[]> {
  const batch = Math.max(1, Math.ceil(cfg.exchanges / 10));
  const rows: string[][] = [];
  const t0 = performance.now();
  const start = await proxy.stats(true);
  rows.push(memoryRow(0, 0, start, start));
  let sent = 0;
  let failed = 0;
  const serialBase = 10_000_000;
  while (sent < cfg.exchanges) {
    const n = Math.min(batch, cfg.exchanges - sent);
    const from = sent;
    const run = await send(proxy.url, cfg.concurrency, n, (i) => signedPayment(proxy.url, serialBase + from + i));
    failed += run.failed;
    sent += n;
    const atEnd = await proxy.stats(false);
    // the session judges behind the proxy: wait until it caught up, then a full GC, then read
    let settled = atEnd;
    while (settled.judged < sent) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      settled = await proxy.stats(false);
    }
    rows.push(memoryRow(sent, sent - atEnd.judged, atEnd, await proxy.stats(true)));
  }
  const seconds = (performance.now() - t0) / 1000;
  const hwm = proxy.vmHwm();
  const done = await proxy.finish();
  const first = rows[1]!;
  const last = rows[rows.length - 1]!;
  return [
    `  memory of the proxy+session process over ${formatNumber(cfg.exchanges)} exchanges ` +
      `(${(cfg.exchanges / seconds).toFixed(0)} exchanges/s, ${cfg.concurrency} in flight, batches of ` +
      `${formatNumber(batch)}; after each: the judging backlog when the batch's last answer came, then heap and RSS ` +
      'after the session caught up and a full GC), MiB',
    table(['exchanges', 'backlog', 'heapUsed (GC)', 'heapTotal', 'external', 'arrayBuffers', 'rss'], rows),
    `  rss high-water mark (kernel, whole run): ${mib(hwm)} MiB; traffic.har ${mib(done.harBytes ?? 0)} MiB ` +
      `(${formatNumber((done.harBytes ?? 0) / cfg.exchanges)} bytes an exchange); answers other than 200: ${failed}; ` +
      `session: ${countsText(done)}`,
    `proxy memory: heapUsed after GC ${first[2]} MiB at ${first[0]}, ${last[2]} MiB at ${last[0]} exchanges; ` +
      `rss ${first[6]} → ${last[6]} MiB; traffic.har ${mib(done.harBytes ?? 0)} MiB`,
  ];
}

function memoryRow(exchanges: number, backlog: number, _atEnd: Stats, gc: Stats): string[] {
  const m = gc.memory;
  return [
    exchanges === 0 ? '0' : formatNumber(exchanges),
    String(backlog),
    mib(m.heapUsed),
    mib(m.heapTotal),
    mib(m.external),
    mib(m.arrayBuffers),
    mib(m.rss),
  ];
}

// --- the client ---

interface Signed {
  readonly body: Buffer;
  readonly authorization: string;
}

/** A createPayment request signed for `${base}${PATH}`, the way the kit's client signs it (5.1–5.3). */
function signedPayment(base: string, serial: number): Signed {
  const body = Buffer.from(
    JSON.stringify({ merchantTradeNo: `BENCH-${serial}`, amount: '149.90', currency: 'EUR', description: 'bench' }),
  );
  const timestamp = String(Date.now());
  const nonce = `bench-${process.pid}-${serial}`;
  const s = sign({ ...MERCHANT, method: 'POST', url: `${base}${PATH}`, timestamp, nonce, body });
  return { body, authorization: formatAuthorization({ appId: MERCHANT.appId, sign: s, timestamp, nonce }) };
}

/** Sends `count` requests to `base`, `concurrency` in flight over as many keep-alive connections. */
async function send(
  base: string,
  concurrency: number,
  count: number,
  request: (i: number) => Signed,
): Promise<{ perSecond: number; latencies: number[]; failed: number }> {
  const pool = new Pool(base, { connections: concurrency, pipelining: 1 });
  const latencies = new Array<number>(count);
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const i = next++;
          const r = request(i);
          const at = performance.now();
          try {
            const res = await pool.request({
              method: 'POST',
              path: PATH,
              headers: {
                'content-type': 'application/json',
                accept: 'application/json',
                authorization: r.authorization,
              },
              body: r.body,
            });
            await res.body.dump();
            if (res.statusCode !== 200) failed += 1;
          } catch {
            failed += 1;
          }
          latencies[i] = performance.now() - at;
        }
      }),
    );
  } finally {
    await pool.close();
  }
  return { perSecond: count / ((performance.now() - t0) / 1000), latencies, failed };
}

function clientCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

// --- the children ---

interface Stats {
  readonly memory: NodeJS.MemoryUsage;
  readonly cpuMs: number;
  readonly judged: number;
}

interface Finished {
  readonly counts?: { exchanges: number; conformant: number; notConformant: number; notJudged: number };
  readonly harBytes?: number;
}

/** A child of bench/_live-child.mjs and its IPC channel (one question at a time). */
class Child {
  private constructor(
    private readonly process: ChildProcess,
    readonly url: string,
  ) {}

  static async start(args: string[]): Promise<Child> {
    const [role, ...rest] = args;
    const child = fork(CHILD, [role as string, MERCHANT.appId, MERCHANT.appSecret, ...rest], {
      // PGV2KIT_BENCH_PROXY_CPU_PROF=<folder>: the proxy process writes a V8 CPU profile there (node --cpu-prof)
      execArgv: [
        '--expose-gc',
        ...(role === 'proxy' && process.env['PGV2KIT_BENCH_PROXY_CPU_PROF']
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env['PGV2KIT_BENCH_PROXY_CPU_PROF']}`]
          : []),
      ],
      // the session's terminal lines go where a user's terminal would be: here /dev/null, written synchronously
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`bench child ${String(role)} exited with ${String(code)}`)));
      child.once('message', (m: { url: string }) => resolve(m.url));
    });
    child.removeAllListeners('exit');
    return new Child(child, url);
  }

  ask<T>(message: object, answer: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`bench child exited with ${String(code)}`));
      this.process.once('exit', onExit);
      const onMessage = (m: { type: string }): void => {
        if (m.type !== answer) return;
        this.process.off('message', onMessage);
        this.process.off('exit', onExit);
        resolve(m as T);
      };
      this.process.on('message', onMessage);
      this.process.send(message);
    });
  }

  stats(gc: boolean): Promise<Stats> {
    return this.ask<Stats>({ type: 'stats', gc }, 'stats');
  }

  async cpuMs(): Promise<number> {
    return (await this.stats(false)).cpuMs;
  }

  /** The kernel's RSS high-water mark of the child, bytes (0 where /proc cannot say). */
  vmHwm(): number {
    try {
      const status = readFileSync(`/proc/${this.process.pid ?? 0}/status`, 'utf8');
      return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  }

  async finish(): Promise<Finished> {
    const done = await this.ask<Finished>({ type: 'finish' }, 'finished');
    await new Promise((resolve) =>
      this.process.exitCode !== null ? resolve(null) : this.process.once('exit', resolve),
    );
    return done;
  }

  kill(): void {
    if (this.process.exitCode === null) this.process.kill('SIGTERM');
  }
}

// --- formats ---

function pct(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

function mib(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}

function countsText(f: Finished): string {
  const c = f.counts;
  if (c === undefined) return 'no counts';
  return `${c.conformant} conformant, ${c.notConformant} not conformant, ${c.notJudged} not judged`;
}
