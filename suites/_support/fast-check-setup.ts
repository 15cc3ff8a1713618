/**
 * fast-check settings for every property suite. A failing property prints its seed
 * and path; replay it with
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties/<file> -t "<property name>"
 * FC_NUM_RUNS raises or lowers the number of runs (default 200).
 */
import fc from 'fast-check';

const seed = process.env['FC_SEED'];
const path = process.env['FC_PATH'];
const numRuns = Number(process.env['FC_NUM_RUNS'] ?? 200);

fc.configureGlobal({
  numRuns,
  ...(seed !== undefined ? { seed: Number(seed) } : {}),
  ...(path !== undefined ? { path } : {}),
  endOnFailure: path !== undefined,
});
