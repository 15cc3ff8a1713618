/**
 * `npm run bench`: runs the benchmarks, prints a table per benchmark, the ratios, and
 * two closing lines to grep (`ratio protocol …`, `ratio sign …`). It measures, it does
 * not gate: the exit code is 0 whether or not a ratio meets its aim (non-zero only when
 * a benchmark could not run).
 *
 *     npm run bench                 # build, then every benchmark
 *     npx tsx bench/run.ts sign     # only those whose name contains "sign" (dist/ must be built)
 *     npx tsx bench/run.ts gateway  # gateway-load (200 concurrent 2 MiB uploads, 1,000 malformed requests) and gateway-flood
 *     npx tsx bench/run.ts fuzz     # only fuzz-speed: fuzzParser headers/s in process and over protocol v1, beside echo
 *     npx tsx bench/run.ts properties   # only properties-overhead: a run with and without the properties
 *     npx tsx bench/run.ts startup      # only start-up: pgv2kit --help against node -e 0
 *     npx tsx bench/run.ts compare      # only compare-scale: 100 implementations and a 100,000-case file
 *     npx tsx bench/run.ts merge        # only merge-scale: pgv2kit merge of 1,000 shards against parsing them
 *     npx tsx bench/run.ts attack       # only writers-attack: the report writers' attack property, 1,000 inputs
 *     npx tsx bench/run.ts proxy        # only proxy-throughput: the judging proxy against the gateway direct, memory
 * @module
 */
import { loadVectorSet } from '../dist/index.js';
import { recordCalls } from './_inputs.js';
import { benchCompareScale } from './compare-scale.js';
import { benchFuzzSpeed } from './fuzz-speed.js';
import { benchPropertiesOverhead } from './properties-overhead.js';
import { benchStartup } from './startup.js';
import { benchMergeScale } from './merge-scale.js';
import { benchWritersAttack } from './writers-attack.js';
import { benchGatewayLoad } from './gateway-load.js';
import { benchGatewayFlood } from './gateway-flood.js';
import { benchProxyThroughput } from './proxy-throughput.js';
import { formatNumber, machine, summarize, table, type BenchResult, type Ratio } from './_measure.js';
import { benchProtocolCalls } from './protocol-calls.js';
import { benchProtocolRun } from './protocol-run.js';
import { benchSign } from './sign.js';

const HEADLINES: Record<Ratio['headline'], string> = {
  protocol: 'node adapter / echo',
  sign: 'reference / raw sha256',
};

const filter = process.argv.slice(2);
const wanted = (name: string): boolean => filter.length === 0 || filter.some((f) => name.includes(f));

const started = performance.now();
process.stdout.write(`pgv2kit bench, ${new Date().toISOString()}\nmachine: ${machine()}\n`);
process.stdout.write(
  'Everything shares these cores (runner, testee, and whatever else runs): other load moves the numbers; compare ratios, not absolutes.\n\n',
);

const results: BenchResult[] = [];
if (wanted('protocol-calls') || wanted('protocol-run')) {
  const set = loadVectorSet();
  if (wanted('protocol-calls')) results.push(report(await benchProtocolCalls(await recordCalls(set))));
  if (wanted('protocol-run')) results.push(report(await benchProtocolRun(set)));
}
if (wanted('sign')) results.push(report(await benchSign()));
// One run, not rounds: its own tables, and its two lines (integrity, faults) at the end of its section.
if (wanted('gateway-load')) process.stdout.write(await benchGatewayLoad());
// The memory of pgv2kit serve under 6,000 refused 60 KB requests to distinct ids: its table and its line.
if (wanted('gateway-flood')) process.stdout.write(await benchGatewayFlood());
// One run per subject, ~3 s each: its table and its two lines (in process, over protocol v1).
if (wanted('fuzz-speed')) process.stdout.write(await benchFuzzSpeed());
// Rounds of a whole run with and without the properties: its table and its ratio line.
if (wanted('properties-overhead')) process.stdout.write(await benchPropertiesOverhead());
// Rounds of the bare CLI start against a bare node: its table and its ratio line.
if (wanted('startup')) process.stdout.write(benchStartup());
// pgv2kit compare in process over 100 runs and a large file, against JSON.parse of the same bytes: its table and line.
if (wanted('compare-scale')) process.stdout.write(benchCompareScale());
// 1,000 shards merged, 10 shards merged and the files parsed, each in a child: its table and two ratio lines.
if (wanted('merge-scale')) process.stdout.write(await benchMergeScale());
// The report writers' attack property with 1,000 inputs from a fresh seed (~60 s): inputs, seed, time, findings.
if (wanted('writers-attack')) process.stdout.write(benchWritersAttack());
// The judging proxy (issue 26): requests/s through it against the gateway direct, added latency, memory over 100,000.
if (wanted('proxy-throughput')) process.stdout.write(await benchProxyThroughput());

const ratios = results.flatMap((r) => r.ratios);
if (ratios.length > 0) {
  process.stdout.write(
    `ratios (per round, both sides measured back to back; the closing line takes the lowest median of its rows)\n`,
  );
  process.stdout.write(
    table(
      ['ratio', 'median', 'min–max', 'aim', 'verdict'],
      ratios.map((r) => {
        const s = summarize(r.values);
        return [
          r.label,
          s.median.toFixed(2),
          `${s.min.toFixed(2)}–${s.max.toFixed(2)}`,
          `≥ ${r.aim.toFixed(2)}`,
          verdict(s.median, r.aim),
        ];
      }),
    ),
  );
}
process.stdout.write(`\nbench took ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
for (const headline of Object.keys(HEADLINES) as Ratio['headline'][]) {
  const rows = ratios.filter((r) => r.headline === headline);
  if (rows.length === 0) continue;
  const lowest = Math.min(...rows.map((r) => summarize(r.values).median));
  const aim = Math.max(...rows.map((r) => r.aim));
  process.stdout.write(
    `ratio ${headline} (${HEADLINES[headline]}): ${lowest.toFixed(2)} (aim ≥ ${aim.toFixed(2)}) ${verdict(lowest, aim)}\n`,
  );
}

// --- internal ---

function report(result: BenchResult): BenchResult {
  process.stdout.write(`${result.title}\n`);
  process.stdout.write(
    table(
      ['subject', 'unit', 'median', 'min', 'max', 'spread'],
      result.series.map((s) => {
        const m = summarize(s.values);
        return [
          s.label,
          s.unit,
          formatNumber(m.median),
          formatNumber(m.min),
          formatNumber(m.max),
          `${m.spreadPct.toFixed(0)}%`,
        ];
      }),
    ),
  );
  for (const note of result.notes) process.stdout.write(`  ${note}\n`);
  process.stdout.write('\n');
  return result;
}

/** Judged on the value as printed (two decimals), so that `0.80 (aim ≥ 0.80)` never reads "below aim". */
function verdict(value: number, aim: number): string {
  return Number(value.toFixed(2)) >= aim ? 'meets aim' : 'below aim';
}
