/**
 * Sign speed: the reference `sign(parts)` (builds the §5.1 content, then SHA-256 in
 * hex) beside raw node:crypto SHA-256 in hex over the same content bytes, built
 * beforehand. Both loops make the same number of calls and fold every result into a
 * checksum, which must come out equal (same work, nothing optimised away).
 * @module
 */
import { createHash, hash } from 'node:crypto';
import { sign, signatureContent, type SignatureParts } from '../dist/index.js';
import { pairRatios, rounds, type BenchResult, type Series, type Ratio } from './_measure.js';

/** Body sizes, in bytes. */
const SIZES = [200, 8192] as const;
/** Milliseconds one timed loop should take (the iteration count is set from a trial). */
const TARGET_MS = 80;
const WARMUP = 1;
const ROUNDS = 15;

/**
 * Runs the benchmark.
 * @returns ops/s of both, per body size, and the reference/raw ratio, round by round
 * @throws {Error} when the two loops do not compute the same signs
 * @example const result = await benchSign();
 */
export async function benchSign(): Promise<BenchResult> {
  const series: Series[] = [];
  const ratios: Ratio[] = [];
  const notes: string[] = [];
  for (const size of SIZES) {
    const parts = partsWithBody(size);
    const content = signatureContent(parts);
    const n = iterationsFor(content);
    const checks: number[] = [];
    const timed = (loop: () => number) => (): number => {
      const t0 = performance.now();
      checks.push(loop());
      return (n / (performance.now() - t0)) * 1000;
    };
    const rates = await rounds(
      {
        reference: timed(() => signLoop(parts, n)),
        raw: timed(() => rawLoop(content, n)),
        oneShot: timed(() => oneShotLoop(content, n)),
      },
      WARMUP,
      ROUNDS,
    );
    if (new Set(checks).size !== 1) throw new Error(`sign and raw SHA-256 disagree for a ${size} B body`);
    const name = `${size} B body (${content.byteLength} B content)`;
    series.push(
      { label: `sign(parts), ${name}`, unit: 'ops/s', values: rates.reference },
      { label: `raw sha256, ${name}`, unit: 'ops/s', values: rates.raw },
      { label: `context: one-shot crypto.hash, ${name}`, unit: 'ops/s', values: rates.oneShot },
    );
    ratios.push({
      headline: 'sign',
      label: `reference / raw sha256, ${size} B body`,
      values: pairRatios(rates.reference, rates.raw),
      aim: 0.8,
    });
    notes.push(`${size} B body: ${n} calls a loop`);
  }
  notes.push(
    `${WARMUP} warm-up round, ${ROUNDS} measured rounds, the loops alternating; raw sha256 = createHash('sha256').update(content).digest('hex')`,
    "on the prebuilt content (the hash step of sign()); context: crypto.hash('sha256', content, 'hex'), no ratio, shows what createHash's own per-call cost is",
  );
  return { title: 'sign speed (one thread, in process)', series, ratios, notes };
}

// --- internal ---

/** Realistic parts: a payment-create request whose JSON body is exactly `size` bytes. */
function partsWithBody(size: number): SignatureParts {
  const item = '{"sku":"SKU-000000","name":"Evidence scan","quantity":1,"price":"149.90"},';
  let body = `{"merchantTradeNo":"MT20240611000187","amount":"149.90","currency":"EUR","items":[`;
  while (body.length + item.length + 2 <= size) body += item;
  body = `${body.replace(/,$/, '')}]}`.padEnd(size, ' ');
  return {
    appId: 'app_7f3a9c',
    appSecret: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc',
    method: 'POST',
    url: 'https://pg.example.com/pg/v2/payment/create',
    timestamp: '1718090123511',
    nonce: '8c1f4a2e9b7d3065',
    body: new Uint8Array(Buffer.from(body, 'utf8')),
  };
}

/** Iterations for a loop of about TARGET_MS, from short trials of the raw loop (the fastest of three: a busy moment must not shrink the loop). */
function iterationsFor(content: Uint8Array): number {
  let n = 1000;
  for (;;) {
    const ms = Math.min(...[0, 1, 2].map(() => timeMs(() => rawLoop(content, n))));
    if (ms > 10) return Math.max(1000, Math.round((n * TARGET_MS) / ms / 1000) * 1000);
    n *= 2;
  }
}

function timeMs(work: () => unknown): number {
  const t0 = performance.now();
  work();
  return performance.now() - t0;
}

function signLoop(parts: SignatureParts, n: number): number {
  let check = 0;
  for (let i = 0; i < n; i++) check = (check * 31 + sign(parts).charCodeAt(i & 63)) | 0;
  return check;
}

function oneShotLoop(content: Uint8Array, n: number): number {
  let check = 0;
  for (let i = 0; i < n; i++) check = (check * 31 + hash('sha256', content, 'hex').charCodeAt(i & 63)) | 0;
  return check;
}

function rawLoop(content: Uint8Array, n: number): number {
  let check = 0;
  for (let i = 0; i < n; i++)
    check =
      (check * 31 +
        createHash('sha256')
          .update(content)
          .digest('hex')
          .charCodeAt(i & 63)) |
      0;
  return check;
}
