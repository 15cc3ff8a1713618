/**
 * The reference gateway's memory under a flood of refused requests (issue 12, item 1): `pgv2kit
 * serve --json --quiet` started as a child (as a user runs it), then 6,000 unauthenticated
 * 60 KB JSON POSTs, each to a distinct `/s/<id>` path, from 32 concurrent senders, and on to
 * 30,000 (past the recorder's bound of ids, the growth must level off). The child's
 * RSS (`/proc/<pid>/status`, VmRSS) is read before, right after, and 5 s after the flood; the
 * growth is the line to read (aim: ≤ 100 MB; it was 394 MB when every refused body was recorded
 * whole under an unbounded number of ids). The baseline is the same child's RSS in the same run.
 *
 *     PGV2KIT_BENCH_FLOOD=6000 npx tsx bench/run.ts gateway-flood
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { table } from './_measure.js';

const BIN = fileURLToPath(new URL('../bin/pgv2kit.js', import.meta.url));
const MB = 1024 * 1024;

/**
 * Runs the flood and prints its table and its line.
 * @returns the text to print
 */
export async function benchGatewayFlood(): Promise<string> {
  const count = Number(process.env['PGV2KIT_BENCH_FLOOD'] ?? 6000);
  // the flood goes on to five times as many: past the recorder's id bound the growth must level off
  const longCount = count * 5;
  const size = 60 * 1024;
  const child = spawn(process.execPath, [BIN, 'serve', '--json', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const info = await new Promise<{ baseUrl: string }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`pgv2kit serve exited with ${String(code)}`)));
      child.stdout.once('data', (d: Buffer) =>
        resolve(JSON.parse(String(d).split('\n')[0] ?? '') as { baseUrl: string }),
      );
    });
    const rss = (): number =>
      Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = rss();
    const agent = new Agent({ connections: 32 });
    const body = Buffer.alloc(size, 0x61);
    const statuses = new Map<string, number>();
    let next = 0;
    const flood = async (until: number): Promise<void> => {
      await Promise.all(
        Array.from({ length: 32 }, async () => {
          while (next < until) {
            const i = next++;
            try {
              const r = await request(`${info.baseUrl}/s/flood-${i}/pg/v2/file/generateUploadUrl`, {
                method: 'POST',
                dispatcher: agent,
                headers: { 'content-type': 'application/json', accept: 'application/json' },
                body,
              });
              await r.body.dump();
              statuses.set(String(r.statusCode), (statuses.get(String(r.statusCode)) ?? 0) + 1);
            } catch (e) {
              const code = (e as { code?: string }).code ?? 'error';
              statuses.set(code, (statuses.get(code) ?? 0) + 1);
            }
          }
        }),
      );
    };
    const started = performance.now();
    await flood(count);
    const seconds = (performance.now() - started) / 1000;
    const after = rss();
    await flood(longCount);
    const afterLong = rss();
    await agent.close();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const later = rss();
    const mb = (n: number): string => (n / MB).toFixed(0);
    const answers = [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ');
    const met = (growth: number): string => (growth <= 100 * MB ? 'met' : 'NOT MET');
    return [
      `gateway-flood: ${count}, then ${longCount} in all, refused ${size / 1024} KB requests to distinct /s/<id> paths, pgv2kit serve as a child (${answers}; ${(count / seconds).toFixed(0)} requests/s)`,
      table(
        ['RSS', 'MB'],
        [
          ['before', mb(before)],
          [`after ${count}`, mb(after)],
          [`after ${longCount}`, mb(afterLong)],
          ['5 s later', mb(later)],
        ],
      ),
      `rss growth under the flood: ${mb(after - before)} MB after ${count} (aim ≤ 100 MB) ${met(after - before)}; ${mb(afterLong - before)} MB after ${longCount} ${met(afterLong - before)}`,
      '',
      '',
    ].join('\n');
  } finally {
    child.kill('SIGTERM');
  }
}
