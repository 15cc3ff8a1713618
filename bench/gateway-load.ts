/**
 * Load and faults on the reference gateway (issue item 6), in process, on loopback.
 *
 * Load half: 200 distinct 2 MiB files (2,097,152 bytes of seeded AES-CTR keystream each,
 * SHA-256 kept) uploaded all at once through the reference client (`upload`: the signed
 * credentials request, then the multipart POST), over one undici Agent with a connection
 * per upload. Wall time gives uploads/s and MiB/s; `process.memoryUsage()` is sampled
 * every 20 ms (peak against the baseline taken just before the run) and the kernel's
 * high-water mark of the RSS is read beside it. Then every stored file is
 * checked: the SHA-256 the storage computed while streaming, and the SHA-256 of the bytes
 * read back from disk, against the file sent.
 *
 * Fault half: a second gateway (short body timeout, so that stalled bodies are answered
 * quickly) gets 1,000 malformed requests — bad JSON, wrong content types, oversized
 * headers and bodies, truncated and forged multipart bodies, bodies that stop half-way,
 * unreadable HTTP — from 32 concurrent senders, with a correct upload after every 10th,
 * and the answers are counted: every malformed request should get a 4xx, none a 5xx,
 * nothing should reach the gateway's internal-error path or escape as an uncaught
 * exception, and every correct upload should be stored byte-identical.
 *
 * It measures, it never gates: the lines are printed whatever they say.
 *
 *     PGV2KIT_BENCH_UPLOADS=200 PGV2KIT_BENCH_MALFORMED=1000 npx tsx bench/run.ts gateway
 * @module
 */
import { createCipheriv, createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Agent } from 'undici';
import { signedRequest, upload, type Mutation } from '../dist/client/index.js';
import { startGateway, type Gateway } from '../dist/gateway/index.js';
import { envInt, formatNumber, summarize, table } from './_measure.js';

/** The one merchant of both gateways. */
const MERCHANT = { appId: 'bench-merchant', appSecret: 'bench-merchant-secret' } as const;
const SCENE = 'DISPUTE_EVIDENCE';
const CREDENTIALS_PATH = '/pg/v2/file/generateUploadUrl';
/** The default bucket of startGateway: the path of every uploadUrl. */
const UPLOAD_PATH = '/pgv2kit-evidence';
const MIB = 1024 * 1024;

/** The settings, each from its environment variable. */
export interface GatewayLoadConfig {
  /** PGV2KIT_BENCH_UPLOADS: concurrent uploads of the load half (200). */
  readonly uploads: number;
  /** PGV2KIT_BENCH_UPLOAD_BYTES: bytes of each file (2,097,152, the gateway's largest). */
  readonly fileBytes: number;
  /** PGV2KIT_BENCH_SAMPLE_MS: memory sampling interval (20). */
  readonly sampleMs: number;
  /** PGV2KIT_BENCH_MALFORMED: malformed requests of the fault half (1,000). */
  readonly malformed: number;
  /** PGV2KIT_BENCH_INTERLEAVE: one correct upload after every this many malformed requests (10). */
  readonly interleave: number;
  /** PGV2KIT_BENCH_FAULT_CONCURRENCY: requests in flight in the fault half (32). */
  readonly faultConcurrency: number;
  /** PGV2KIT_BENCH_STALL_MS: the fault gateway's body timeout, i.e. how long a stalled body waits for its answer (1,000). */
  readonly stallMs: number;
}

/**
 * The settings from the environment.
 * @returns the configuration, defaults where a variable is unset
 * @throws {RangeError} when a variable is not a positive integer, or the file size is over 2 MiB
 * @example gatewayLoadConfig().uploads // 200
 */
export function gatewayLoadConfig(): GatewayLoadConfig {
  const int = envInt;
  const config = {
    uploads: int('PGV2KIT_BENCH_UPLOADS', 200),
    fileBytes: int('PGV2KIT_BENCH_UPLOAD_BYTES', 2 * MIB),
    sampleMs: int('PGV2KIT_BENCH_SAMPLE_MS', 20),
    malformed: int('PGV2KIT_BENCH_MALFORMED', 1000),
    interleave: int('PGV2KIT_BENCH_INTERLEAVE', 10),
    faultConcurrency: int('PGV2KIT_BENCH_FAULT_CONCURRENCY', 32),
    stallMs: int('PGV2KIT_BENCH_STALL_MS', 1000),
  };
  if (config.fileBytes > 2 * MIB)
    throw new RangeError(
      `PGV2KIT_BENCH_UPLOAD_BYTES must be at most ${2 * MIB} (the gateway's file limit); got ${config.fileBytes}`,
    );
  return config;
}

/**
 * Runs both halves and returns the report: tables, notes and the two lines to grep,
 * `N/N stored files byte-identical` and `malformed: … crashes 0; correct requests interleaved: N/N succeeded`.
 * @param config - the settings (default: from the environment)
 * @returns the report text, ending in a blank line
 * @throws {Error} when a gateway cannot start (a refused upload or request is a result, not an error)
 * @example process.stdout.write(await benchGatewayLoad());
 */
export async function benchGatewayLoad(config: GatewayLoadConfig = gatewayLoadConfig()): Promise<string> {
  const started = performance.now();
  const load = await loadHalf(config);
  const fault = await faultHalf(config);
  const out: string[] = [];
  out.push(...load.text, '', ...fault.text, '');
  out.push(`gateway benchmark took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  out.push(load.line, fault.line, '');
  return `${out.join('\n')}\n`;
}

// --- load half ---

interface UploadOutcome {
  readonly ms: number;
  readonly storageUri?: string;
  readonly error?: string;
}

async function loadHalf(cfg: GatewayLoadConfig): Promise<{ text: string[]; line: string }> {
  collectGarbage();
  const atStart = process.memoryUsage();
  const t0 = performance.now();
  const files = Array.from({ length: cfg.uploads }, (_, i) => seededFile('load', i, cfg.fileBytes));
  const generateMs = performance.now() - t0;
  if (new Set(files.map((f) => f.sha256)).size !== files.length)
    throw new Error('the generated files are not all distinct');

  const gateway = await startGateway({ merchants: [MERCHANT] });
  const agent = new Agent({
    connections: cfg.uploads + 8,
    keepAliveTimeout: 10_000,
    headersTimeout: 120_000,
    bodyTimeout: 120_000,
    connect: { timeout: 30_000 },
  });
  try {
    const send = (file: Uint8Array, filename: string) =>
      upload({
        baseUrl: gateway.baseUrl,
        ...MERCHANT,
        filename,
        contentType: 'application/pdf',
        scene: SCENE,
        file,
        dispatcher: agent,
        timeoutMs: 120_000,
      });
    // Warm-up: one small upload through the same path (JIT, first connections); not counted.
    await send(seededFile('warm-up', 0, 64 * 1024).bytes, 'warm-up.pdf');

    // No GC forced here: after one, V8 re-grows its limits during the run and collects far
    // more often (in trials 15–20 % fewer uploads/s). The baseline holds what garbage there is.
    const baseline = process.memoryUsage();
    const hwmReset = resetPeakRss();
    const gcs = new GcWatch();
    const sampler = new MemorySampler(cfg.sampleMs);
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    const outcomes = await Promise.all(
      files.map(async (f, i): Promise<UploadOutcome> => {
        const s = performance.now();
        try {
          const r = await send(f.bytes, `evidence-${String(i).padStart(4, '0')}.pdf`);
          return { ms: performance.now() - s, storageUri: r.storageUri };
        } catch (e) {
          return { ms: performance.now() - s, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
        }
      }),
    );
    const wallMs = performance.now() - t1;
    const cpu = process.cpuUsage(cpu0);
    const peak = sampler.stop();
    const gcDuring = gcs.stop();
    const hwm = hwmReset ? peakRss() : undefined;

    // Integrity: the hash the storage computed while streaming, and the bytes read back from disk.
    const t2 = performance.now();
    const differ: string[] = [];
    let identical = 0;
    for (const [i, o] of outcomes.entries()) {
      const f = files[i] as SeededFile;
      const name = `file ${i}`;
      if (o.storageUri === undefined) {
        differ.push(`${name}: not uploaded (${clip(o.error ?? '?')})`);
        continue;
      }
      const stored = gateway.storage.get(o.storageUri);
      if (!stored) {
        differ.push(`${name}: nothing stored under ${o.storageUri}`);
        continue;
      }
      const disk = createHash('sha256')
        .update(await readFile(stored.path))
        .digest('hex');
      if (stored.size !== f.bytes.byteLength || stored.sha256 !== f.sha256 || disk !== f.sha256) {
        differ.push(
          `${name}: sent ${f.bytes.byteLength} B sha256 ${f.sha256.slice(0, 12)}…, stored ${stored.size} B sha256 ${stored.sha256.slice(0, 12)}…, on disk ${disk.slice(0, 12)}…`,
        );
        continue;
      }
      identical++;
    }
    const verifyMs = performance.now() - t2;
    const leftovers = (await gateway.storage.files()).filter((n) => n.startsWith('.incoming-')).length;
    collectGarbage();
    const after = process.memoryUsage();

    const ok = outcomes.filter((o) => o.storageUri !== undefined).length;
    const latency = summarize(outcomes.map((o) => o.ms));
    const sorted = outcomes.map((o) => o.ms).sort((a, b) => a - b);
    const p95 = sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] as number;
    const totalMiB = (cfg.uploads * cfg.fileBytes) / MIB;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const mib = (n: number): string => (n / MIB).toFixed(1);
    const text: string[] = [];
    text.push(
      `gateway load: ${cfg.uploads} concurrent uploads of ${cfg.fileBytes.toLocaleString('en-US')} B through the reference client (credentials, then multipart), loopback, in process`,
    );
    text.push(
      table(
        ['measure', 'value'],
        [
          ['uploads', `${ok}/${cfg.uploads} answered 204`],
          ['wall time, s', (wallMs / 1000).toFixed(2)],
          ['uploads/s', formatNumber((cfg.uploads / wallMs) * 1000)],
          ['file MiB/s', formatNumber((totalMiB / wallMs) * 1000)],
          ['latency per upload, ms: median', formatNumber(latency.median)],
          ['latency per upload, ms: p95', formatNumber(p95)],
          ['latency per upload, ms: max', formatNumber(latency.max)],
          [
            'CPU, s (user + system), all in this process',
            `${(cpuMs / 1000).toFixed(2)} (${(cpuMs / wallMs).toFixed(2)} cores)`,
          ],
          [
            'GC: major + minor collections, pause ms (all kinds)',
            `${gcDuring.major} + ${gcDuring.minor}, ${formatNumber(gcDuring.ms)}`,
          ],
        ],
      ).trimEnd(),
    );
    text.push('');
    text.push(
      table(
        ['memory, MiB', 'at start', 'baseline', 'peak', 'peak − baseline', 'after (GC)'],
        [
          ['rss', mib(atStart.rss), mib(baseline.rss), mib(peak.rss), mib(peak.rss - baseline.rss), mib(after.rss)],
          [
            'heapUsed',
            mib(atStart.heapUsed),
            mib(baseline.heapUsed),
            mib(peak.heapUsed),
            mib(peak.heapUsed - baseline.heapUsed),
            mib(after.heapUsed),
          ],
          [
            'arrayBuffers',
            mib(atStart.arrayBuffers),
            mib(baseline.arrayBuffers),
            mib(peak.arrayBuffers),
            mib(peak.arrayBuffers - baseline.arrayBuffers),
            mib(after.arrayBuffers),
          ],
          ...(hwm !== undefined
            ? [['rss high-water mark (kernel)', '', mib(baseline.rss), mib(hwm), mib(hwm - baseline.rss), '']]
            : []),
        ],
      ).trimEnd(),
    );
    text.push(
      `  at start: after a forced GC${gcNote}, before the ${cfg.uploads} files of ${mib(cfg.fileBytes)} MiB (${totalMiB.toFixed(0)} MiB, generated in ${(generateMs / 1000).toFixed(2)} s); baseline: just before the run, files held, one warm-up upload (64 KiB) done, no GC forced`,
    );
    text.push(
      `  client and gateway share this process: the peak holds upload()'s multipart bodies too (each a whole copy of its file, ${mib(cfg.fileBytes + 2048)} MiB, alive from its credentials answer to its 204)`,
    );
    text.push(
      `  ${peak.samples} memory samples every ${cfg.sampleMs} ms (longest gap ${peak.maxGapMs.toFixed(0)} ms: the event loop was that busy); undici Agent with ${cfg.uploads + 8} connections, client timeout 120 s`,
    );
    text.push(
      `  integrity: storage sha256 (computed while streaming) and sha256 of the bytes read back from disk, against the file sent, checked in ${(verifyMs / 1000).toFixed(2)} s; temporary files left: ${leftovers}`,
    );
    for (const d of differ.slice(0, 10)) text.push(`  differs: ${d}`);
    if (differ.length > 10) text.push(`  … and ${differ.length - 10} more`);
    const line =
      differ.length === 0
        ? `${identical}/${cfg.uploads} stored files byte-identical`
        : `${identical}/${cfg.uploads} stored files byte-identical; ${differ.length} differ or are missing (listed above)`;
    return { text, line };
  } finally {
    await agent.close();
    await gateway.close();
  }
}

// --- fault half ---

type Listener = 'api' | 'upload';

/** What a sender needs of the fault gateway. */
interface FaultTarget {
  readonly gateway: Gateway;
  readonly apiPort: number;
  readonly uploadPort: number;
  readonly agent: Agent;
  readonly stallMs: number;
}

/** One kind of malformed request; `variant` cycles through its forms. */
interface MalformedKind {
  readonly name: string;
  readonly listener: Listener;
  readonly what: string;
  send(target: FaultTarget, variant: number): Promise<number>;
}

interface KindTally {
  readonly kind: MalformedKind;
  readonly statuses: Map<number, number>;
}

async function faultHalf(cfg: GatewayLoadConfig): Promise<{ text: string[]; line: string }> {
  const internal: string[] = [];
  const escaped: string[] = [];
  const onEscape = (e: unknown): void => void escaped.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
  const gateway = await startGateway({
    merchants: [MERCHANT],
    bodyTimeoutMs: cfg.stallMs,
    log: (line) => void (line.includes('internal error') && internal.push(line)),
  });
  const agent = new Agent({
    connections: cfg.faultConcurrency * 2,
    keepAliveTimeout: 10_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
    connect: { timeout: 10_000 },
  });
  const target: FaultTarget = {
    gateway,
    apiPort: portOf(gateway.baseUrl),
    uploadPort: portOf(gateway.uploadUrl),
    agent,
    stallMs: cfg.stallMs,
  };
  // An exception escaping the gateway is counted as a crash instead of ending the benchmark.
  process.on('uncaughtException', onEscape);
  process.on('unhandledRejection', onEscape);
  try {
    const tallies: KindTally[] = MALFORMED.map((kind) => ({ kind, statuses: new Map() }));
    // The sequence: malformed requests round-robin over the kinds, a correct upload after every `interleave`-th.
    type Task = { readonly malformed: number } | { readonly correct: number };
    const tasks: Task[] = [];
    let corrects = 0;
    for (let i = 0; i < cfg.malformed; i++) {
      tasks.push({ malformed: i });
      if ((i + 1) % cfg.interleave === 0) tasks.push({ correct: corrects++ });
    }
    if (corrects === 0 || !('correct' in (tasks[tasks.length - 1] as Task))) tasks.push({ correct: corrects++ });
    const correctFailures: string[] = [];
    let correctOk = 0;

    collectGarbage();
    const before = process.memoryUsage();
    const t0 = performance.now();
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let t = next++; t < tasks.length; t = next++) {
        const task = tasks[t] as Task;
        if ('malformed' in task) {
          const tally = tallies[task.malformed % tallies.length] as KindTally;
          let status: number;
          try {
            status = await tally.kind.send(target, Math.floor(task.malformed / tallies.length));
          } catch {
            status = 0;
          }
          tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
        } else {
          const problem = await correctUpload(target, task.correct);
          if (problem === undefined) correctOk++;
          else correctFailures.push(`correct upload ${task.correct}: ${problem}`);
        }
      }
    };
    await Promise.all(Array.from({ length: cfg.faultConcurrency }, worker));
    const wallMs = performance.now() - t0;
    // A refused upload's temporary file is deleted just after the answer.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const leftovers = (await gateway.storage.files()).filter((n) => n.startsWith('.incoming-')).length;
    collectGarbage();
    const after = process.memoryUsage();
    const plain = gateway.recorder.for();
    const records = plain.requests.length + plain.uploads.length;

    const count = (pick: (status: number) => boolean): number =>
      tallies.reduce((n, t) => n + [...t.statuses].filter(([s]) => pick(s)).reduce((m, [, c]) => m + c, 0), 0);
    const c4xx = count((s) => s >= 400 && s < 500);
    const c5xx = count((s) => s >= 500);
    const none = count((s) => s === 0);
    const other = cfg.malformed - c4xx - c5xx - none;
    const crashes = internal.length + escaped.length;

    const text: string[] = [];
    text.push(
      `gateway faults: ${cfg.malformed.toLocaleString('en-US')} malformed requests, ${cfg.faultConcurrency} in flight, a correct upload (64 KiB, reference client) after every ${cfg.interleave}; body timeout ${cfg.stallMs} ms`,
    );
    text.push(
      table(
        ['kind', 'listener', 'requests', 'answers', 'what is sent'],
        tallies.map((t) => [
          t.kind.name,
          t.kind.listener,
          String([...t.statuses.values()].reduce((a, b) => a + b, 0)),
          [...t.statuses]
            .sort(([a], [b]) => a - b)
            .map(([s, c]) => `${s === 0 ? 'none' : s}×${c}`)
            .join(' '),
          t.kind.what,
        ]),
      ).trimEnd(),
    );
    text.push(`  took ${(wallMs / 1000).toFixed(1)} s; temporary upload files left behind: ${leftovers}`);
    text.push(
      `  crashes = requests that reached the gateway's internal-error path (500, logged: ${internal.length}) + exceptions that escaped to the process (${escaped.length}); "none" = the connection closed without an answer`,
    );
    const kept = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
    text.push(
      `  kept after GC: heap ${fmtSigned((after.heapUsed - before.heapUsed) / 1024)} KiB, arrayBuffers ${fmtSigned((after.arrayBuffers - before.arrayBuffers) / 1024)} KiB, with ${records.toLocaleString('en-US')} exchanges in the recorder (≈ ${formatNumber(Math.max(0, kept) / Math.max(1, records))} B each; the recorder never lets go while the gateway runs)`,
    );
    for (const line of [...internal, ...escaped].slice(0, 5)) text.push(`  crash: ${clip(line)}`);
    for (const f of correctFailures.slice(0, 5)) text.push(`  failed: ${f}`);
    const extra = [...(none > 0 ? [`no answer ${none}`] : []), ...(other > 0 ? [`other ${other}`] : [])];
    const line = `malformed: ${cfg.malformed} requests, 4xx ${c4xx}, 5xx ${c5xx}, crashes ${crashes}${extra.length > 0 ? `, ${extra.join(', ')}` : ''}; correct requests interleaved: ${correctOk}/${corrects} succeeded`;
    return { text, line };
  } finally {
    process.off('uncaughtException', onEscape);
    process.off('unhandledRejection', onEscape);
    await agent.close();
    await gateway.close();
  }
}

/** A correct upload through the reference client; undefined when it was stored byte-identical, else why not. */
async function correctUpload(target: FaultTarget, n: number): Promise<string | undefined> {
  const f = seededFile('correct', n, 64 * 1024);
  try {
    const r = await upload({
      baseUrl: target.gateway.baseUrl,
      ...MERCHANT,
      filename: `ok-${n}.pdf`,
      contentType: 'application/pdf',
      scene: SCENE,
      file: f.bytes,
      dispatcher: target.agent,
      timeoutMs: 30_000,
    });
    const stored = target.gateway.storage.get(r.storageUri);
    if (!stored) return `nothing stored under ${r.storageUri}`;
    return stored.sha256 === f.sha256 && stored.size === f.bytes.byteLength
      ? undefined
      : `stored sha256 ${stored.sha256.slice(0, 12)}… ≠ sent ${f.sha256.slice(0, 12)}…`;
  } catch (e) {
    return clip(e instanceof Error ? e.message : String(e));
  }
}

/** The malformed kinds, sent round-robin. */
const MALFORMED: readonly MalformedKind[] = [
  {
    name: 'bad JSON',
    listener: 'api',
    what: 'signed credentials request, body not valid JSON / not UTF-8 / BOM / wrong shape',
    send: (t, v) => {
      const bodies: Array<string | Uint8Array> = [
        '{"filename":"a.pdf","scene":',
        '{"filename":"a.pdf",}',
        'null garbage',
        Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
        `\ufeff{"filename":"a.pdf","scene":"${SCENE}"}`,
        '{"filename":7,"scene":"NOPE"}',
        '',
      ];
      return signed(t, bodies[v % bodies.length] as string | Uint8Array);
    },
  },
  {
    name: 'wrong content type',
    listener: 'api',
    what: 'signed credentials request, Content-Type / Accept not application/json',
    send: (t, v) => {
      const mutations: Mutation[] = [
        { kind: 'contentType', value: 'text/plain' },
        { kind: 'contentType', value: 'application/x-www-form-urlencoded' },
        { kind: 'contentType', value: 'multipart/form-data; boundary=x' },
        { kind: 'contentType', value: 'application/json; charset=iso-8859-1' },
        { kind: 'contentType', value: null },
        { kind: 'accept', value: 'text/html' },
      ];
      return signed(
        t,
        JSON.stringify({ filename: 'a.pdf', contentType: 'application/pdf', scene: SCENE }),
        mutations[v % mutations.length],
      );
    },
  },
  {
    name: 'tampered signature',
    listener: 'api',
    what: 'credentials request with the body changed after signing, a wrong secret, or no Authorization',
    send: (t, v) => {
      const mutations: Mutation[] = [
        { kind: 'body', body: JSON.stringify({ filename: 'b.pdf', scene: SCENE }) },
        { kind: 'secret', appSecret: 'not-the-secret' },
        { kind: 'authorization', form: () => null },
        { kind: 'appId', appId: 'nobody' },
      ];
      return signed(t, JSON.stringify({ filename: 'a.pdf', scene: SCENE }), mutations[v % mutations.length]);
    },
  },
  {
    name: 'oversized body',
    listener: 'api',
    what: 'Content-Length 1 MiB declared (16 KiB sent), or 96 KiB chunked: over the 64 KiB limit',
    send: (t, v) =>
      v % 2 === 0
        ? raw(
            t,
            t.apiPort,
            head('POST', CREDENTIALS_PATH, t.apiPort, [...JSON_HEADERS, ['Content-Length', String(MIB)]]),
            [Buffer.alloc(16 * 1024, 0x20)],
          )
        : raw(
            t,
            t.apiPort,
            head('POST', CREDENTIALS_PATH, t.apiPort, [...JSON_HEADERS, ['Transfer-Encoding', 'chunked']]),
            chunked(Buffer.alloc(96 * 1024, 0x20), 8192),
          ),
  },
  {
    name: 'oversized headers',
    listener: 'api',
    what: 'one 20 KiB header, or 300 headers of 70 B: over the 16 KiB header limit',
    send: (t, v) =>
      raw(
        t,
        t.apiPort,
        head('POST', CREDENTIALS_PATH, t.apiPort, [...JSON_HEADERS, ...bigHeaders(v), ['Content-Length', '2']]),
        [Buffer.from('{}')],
      ),
  },
  {
    name: 'body stops half-way',
    listener: 'api',
    what: 'Content-Length 2,048, 1,024 bytes sent, then nothing (connection kept open)',
    send: (t) =>
      raw(t, t.apiPort, head('POST', CREDENTIALS_PATH, t.apiPort, [...JSON_HEADERS, ['Content-Length', '2048']]), [
        Buffer.alloc(1024, 0x7b),
      ]),
  },
  {
    name: 'unreadable HTTP',
    listener: 'api',
    what: 'garbage request line, bad Content-Length, two Content-Lengths, bad header name, bad chunk size',
    send: (t, v) => {
      const host = `Host: 127.0.0.1:${t.apiPort}\r\n`;
      const texts = [
        'HELLO WORLD\r\n\r\n',
        `POST ${CREDENTIALS_PATH} HTTP/1.1\r\n${host}Content-Length: 12abc\r\n\r\n`,
        `POST ${CREDENTIALS_PATH} HTTP/1.1\r\n${host}Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello`,
        `POST ${CREDENTIALS_PATH} HTTP/1.1\r\n${host}Bad Header: x\r\n\r\n`,
        `POST ${CREDENTIALS_PATH} HTTP/1.1\r\n${host}Transfer-Encoding: chunked\r\n\r\nZZ\r\nxx\r\n0\r\n\r\n`,
      ];
      return raw(t, t.apiPort, texts[v % texts.length] as string, []);
    },
  },
  {
    name: 'wrong content type',
    listener: 'upload',
    what: 'a complete form sent as application/json, text/plain, multipart without boundary, multipart/mixed, urlencoded, none',
    send: (t, v) => {
      const types = [
        'application/json',
        'text/plain',
        'multipart/form-data',
        'multipart/mixed; boundary=B0undary',
        'application/x-www-form-urlencoded',
        undefined,
      ];
      const body = forgedForm(v, 1024);
      const type = types[v % types.length];
      return raw(
        t,
        t.uploadPort,
        head('POST', UPLOAD_PATH, t.uploadPort, [
          ...(type !== undefined ? [['Content-Type', type] as const] : []),
          ['Content-Length', String(body.byteLength)],
        ]),
        [body],
      );
    },
  },
  {
    name: 'truncated multipart',
    listener: 'upload',
    what: 'a form cut short (in a part header, in the file, before the close delimiter); Content-Length says the cut length',
    send: (t, v) => {
      const full = forgedForm(v, 8 * 1024);
      const cuts = [0.1, 0.35, 0.6, 0.9, (full.byteLength - 12) / full.byteLength];
      const body = full.subarray(0, Math.floor(full.byteLength * (cuts[v % cuts.length] as number)));
      return raw(
        t,
        t.uploadPort,
        head('POST', UPLOAD_PATH, t.uploadPort, [
          ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`],
          ['Content-Length', String(body.byteLength)],
        ]),
        [body],
      );
    },
  },
  {
    name: 'oversized body',
    listener: 'upload',
    what: 'Content-Length 4 MiB declared (16 KiB sent), or a chunked form whose file is 2 MiB + 4 KiB (every 4th)',
    send: (t, v) => {
      const type = ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`] as const;
      if (v % 4 !== 3)
        return raw(
          t,
          t.uploadPort,
          head('POST', UPLOAD_PATH, t.uploadPort, [type, ['Content-Length', String(4 * MIB)]]),
          [forgedForm(v, 16 * 1024)],
        );
      return raw(
        t,
        t.uploadPort,
        head('POST', UPLOAD_PATH, t.uploadPort, [type, ['Transfer-Encoding', 'chunked']]),
        chunked(forgedForm(v, 2 * MIB + 4096), 64 * 1024),
      );
    },
  },
  {
    name: 'oversized headers',
    listener: 'upload',
    what: 'one 20 KiB header, or 300 headers of 70 B',
    send: (t, v) => {
      const body = forgedForm(v, 512);
      return raw(
        t,
        t.uploadPort,
        head('POST', UPLOAD_PATH, t.uploadPort, [
          ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`],
          ...bigHeaders(v),
          ['Content-Length', String(body.byteLength)],
        ]),
        [body],
      );
    },
  },
  {
    name: 'body stops half-way',
    listener: 'upload',
    what: 'a 16 KiB form, half of it sent, then nothing (connection kept open)',
    send: (t, v) => {
      const body = forgedForm(v, 16 * 1024);
      return raw(
        t,
        t.uploadPort,
        head('POST', UPLOAD_PATH, t.uploadPort, [
          ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`],
          ['Content-Length', String(body.byteLength)],
        ]),
        [body.subarray(0, body.byteLength >> 1)],
      );
    },
  },
  {
    name: 'forged form',
    listener: 'upload',
    what: 'well-formed multipart, not issued: forged policy, no policy, no file, two files, file part misnamed, file not last, GET, wrong bucket',
    send: (t, v) => {
      const type = ['Content-Type', `multipart/form-data; boundary=${BOUNDARY}`] as const;
      const variants: Array<{ method?: string; path?: string; parts: Part[] }> = [
        { parts: [...forgedFields(v, true), filePart('file', 2048, v)] },
        { parts: [...forgedFields(v, false), filePart('file', 2048, v)] },
        { parts: forgedFields(v, true) },
        { parts: [...forgedFields(v, true), filePart('file', 1024, v), filePart('file2', 1024, v + 1)] },
        { parts: [...forgedFields(v, true), filePart('upload', 2048, v)] },
        { parts: [filePart('file', 2048, v), ...forgedFields(v, true)] },
        { method: 'GET', parts: [] },
        { path: '/another-bucket', parts: [...forgedFields(v, true), filePart('file', 2048, v)] },
      ];
      const pick = variants[v % variants.length] as (typeof variants)[number];
      const body = pick.parts.length > 0 ? multipart(pick.parts) : Buffer.alloc(0);
      return raw(
        t,
        t.uploadPort,
        head(pick.method ?? 'POST', pick.path ?? UPLOAD_PATH, t.uploadPort, [
          type,
          ['Content-Length', String(body.byteLength)],
        ]),
        [body],
      );
    },
  },
];

const JSON_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['Content-Type', 'application/json'],
  ['Accept', 'application/json'],
];

/** A signed credentials request through the reference client's low level (undici); the HTTP status. */
async function signed(t: FaultTarget, body: string | Uint8Array, mutate?: Mutation): Promise<number> {
  const r = await signedRequest({
    method: 'POST',
    url: `${t.gateway.baseUrl}${CREDENTIALS_PATH}`,
    ...MERCHANT,
    body,
    dispatcher: t.agent,
    timeoutMs: 30_000,
    ...(mutate ? { mutate } : {}),
  });
  return r.status;
}

function head(method: string, path: string, port: number, headers: ReadonlyArray<readonly [string, string]>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}Connection: close\r\n\r\n`;
}

function bigHeaders(v: number): Array<readonly [string, string]> {
  return v % 2 === 0
    ? [['X-Pad', 'a'.repeat(20 * 1024)]]
    : Array.from({ length: 300 }, (_, i) => [`X-Pad-${i}`, 'b'.repeat(60)] as const);
}

function chunked(body: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < body.byteLength; at += size) {
    const piece = body.subarray(at, at + size);
    out.push(Buffer.concat([Buffer.from(`${piece.byteLength.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
  }
  out.push(Buffer.from('0\r\n\r\n'));
  return out;
}

/**
 * One request on its own connection, bytes as given: writes the head and the pieces,
 * never ends its side (a body shorter than its Content-Length stalls), reads the answer,
 * closes. The status, or 0 when the connection closed without one (or nothing came
 * within the body timeout plus 10 s).
 */
function raw(t: FaultTarget, port: number, headText: string, pieces: readonly Buffer[]): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let received = Buffer.alloc(0);
    let status = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(status);
    };
    const timer = setTimeout(finish, t.stallMs + 10_000);
    socket.on('error', () => undefined);
    socket.on('close', finish);
    socket.on('connect', () => {
      socket.write(headText);
      for (const p of pieces) socket.write(p);
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const headLines = received.subarray(0, end).toString('latin1').split('\r\n');
      status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(headLines[0] ?? '')?.[1] ?? 0);
      const length = Number(
        headLines
          .find((l) => /^content-length:/i.test(l))
          ?.slice(15)
          .trim() ?? 0,
      );
      if (received.byteLength >= end + 4 + length) finish();
    });
  });
}

type Part =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly filename: string; readonly type: string; readonly data: Buffer };

const BOUNDARY = 'pgv2kitBenchB0undary';

function multipart(parts: readonly Part[]): Buffer {
  const out: Buffer[] = [];
  for (const p of parts) {
    if ('value' in p)
      out.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    else
      out.push(
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}\r\n\r\n`,
        ),
        p.data,
        Buffer.from('\r\n'),
      );
  }
  out.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(out);
}

/** The fields of a presigned POST this gateway never issued. */
function forgedFields(v: number, withPolicy: boolean): Part[] {
  const date = '20250101T000000Z';
  const policy = Buffer.from(
    JSON.stringify({
      expiration: '2099-01-01T00:00:00.000Z',
      conditions: [{ bucket: 'pgv2kit-evidence' }, { key: `evidence/forged-${v}.pdf` }],
    }),
  ).toString('base64');
  return [
    { name: 'bucket', value: 'pgv2kit-evidence' },
    { name: 'key', value: `evidence/forged-${v}.pdf` },
    { name: 'Content-Type', value: 'application/pdf' },
    ...(withPolicy ? [{ name: 'policy', value: policy }] : []),
    { name: 'x-amz-algorithm', value: 'AWS4-HMAC-SHA256' },
    { name: 'x-amz-credential', value: `PGV2FORGED/${date.slice(0, 8)}/pgv2-local-1/s3/aws4_request` },
    { name: 'x-amz-date', value: date },
    { name: 'x-amz-signature', value: '0'.repeat(64) },
  ];
}

function filePart(name: string, size: number, v: number): Part {
  return {
    name,
    filename: `forged-${v}.pdf`,
    type: 'application/pdf',
    data: Buffer.from(seededFile('forged', v, size).bytes),
  };
}

function forgedForm(v: number, fileSize: number): Buffer {
  return multipart([...forgedFields(v, true), filePart('file', fileSize, v)]);
}

// --- shared ---

interface SeededFile {
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

/** `size` bytes of AES-128-CTR keystream keyed by `label` and numbered `n`: distinct per (label, n), the same every run. */
function seededFile(label: string, n: number, size: number): SeededFile {
  const key = createHash('sha256').update(`pgv2kit bench ${label}`).digest().subarray(0, 16);
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(n, 0);
  const bytes = createCipheriv('aes-128-ctr', key, iv).update(Buffer.alloc(size));
  return {
    bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** The peaks of `process.memoryUsage()`, sampled on a timer. */
class MemorySampler {
  readonly #timer: NodeJS.Timeout;
  #rss = 0;
  #heapUsed = 0;
  #arrayBuffers = 0;
  #samples = 0;
  #last = performance.now();
  #maxGap = 0;

  constructor(intervalMs: number) {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), intervalMs);
  }

  stop(): { rss: number; heapUsed: number; arrayBuffers: number; samples: number; maxGapMs: number } {
    clearInterval(this.#timer);
    this.#sample();
    return {
      rss: this.#rss,
      heapUsed: this.#heapUsed,
      arrayBuffers: this.#arrayBuffers,
      samples: this.#samples,
      maxGapMs: this.#maxGap,
    };
  }

  #sample(): void {
    const now = performance.now();
    this.#maxGap = Math.max(this.#maxGap, now - this.#last);
    this.#last = now;
    const m = process.memoryUsage();
    this.#rss = Math.max(this.#rss, m.rss);
    this.#heapUsed = Math.max(this.#heapUsed, m.heapUsed);
    this.#arrayBuffers = Math.max(this.#arrayBuffers, m.arrayBuffers);
    this.#samples++;
  }
}

/** Resets the kernel's RSS high-water mark of this process (Linux: /proc/self/clear_refs); false where it cannot. */
function resetPeakRss(): boolean {
  try {
    writeFileSync('/proc/self/clear_refs', '5');
    return peakRss() !== undefined;
  } catch {
    return false;
  }
}

/** The kernel's RSS high-water mark of this process (VmHWM), bytes; undefined where /proc cannot say. */
function peakRss(): number | undefined {
  try {
    const kb = /^VmHWM:\s*(\d+)\s*kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** Counts the GC pauses of the main thread while it runs (perf_hooks 'gc' entries). */
class GcWatch {
  readonly #observer: PerformanceObserver;
  #major = 0;
  #minor = 0;
  #ms = 0;

  constructor() {
    this.#observer = new PerformanceObserver((list) => this.#count(list.getEntries()));
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  stop(): { major: number; minor: number; ms: number } {
    this.#count(this.#observer.takeRecords());
    this.#observer.disconnect();
    return { major: this.#major, minor: this.#minor, ms: this.#ms };
  }

  #count(entries: readonly PerformanceEntry[]): void {
    for (const e of entries) {
      const kind = (e as PerformanceEntry & { readonly detail?: { readonly kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) this.#major++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MINOR) this.#minor++;
      this.#ms += e.duration;
    }
  }
}

let gcNote = '';
const gc: () => void = (() => {
  try {
    setFlagsFromString('--expose-gc');
    const fn = runInNewContext('gc') as unknown;
    if (typeof fn === 'function') return fn as () => void;
  } catch {
    // no forced GC: the baseline is what it is
  }
  gcNote = ' (unavailable here: no GC forced)';
  return () => undefined;
})();

function collectGarbage(): void {
  gc();
  gc();
}

function fmtSigned(n: number): string {
  return `${n >= 0 ? '+' : '−'}${Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > 200 ? `${one.slice(0, 200)}…` : one;
}
