/**
 * The properties of `pgv2kit run` (src/properties/catalogue.ts), one test each, against the
 * suite's subject (PGV2KIT_SUBJECT, default the reference) through the same pipelined engine
 * that `pgv2kit run` and `fuzz` use — one set of properties for every way the kit is run.
 * A property whose operations the subject does not offer is skipped.
 *
 * Seed and inputs: FC_SEED (default random, printed on failure), FC_NUM_RUNS (default 200).
 * Replay a failure as it prints it: [PGV2KIT_SUBJECT=<path>] FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties -t '<property id>'
 */
import { describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { runProperties } from '../../src/runner/properties.js';
import { replayCommand } from '../_support/replay.js';
import { loadSubject } from '../_support/subject.js';

const subject = await loadSubject();
const seed = process.env['FC_SEED'] !== undefined ? Number(process.env['FC_SEED']) : undefined;
const path = process.env['FC_PATH'];
const runs = Number(process.env['FC_NUM_RUNS'] ?? 200);

describe(`properties of ${subject.implementation.name}`, () => {
  it.each(PROPERTIES.map((p) => [p.id, p] as const))(
    '%s',
    async (id, p) => {
      const offered = p.operations.every((op) => subject.operations.includes(op));
      if (!offered) return; // not offered: nothing to hold it to (pgv2kit run reports it as skipped)
      const [c] = await runProperties(subject, {
        runs,
        ...(seed !== undefined ? { seed } : {}),
        ...(path !== undefined && seed !== undefined ? { replay: { id, path } } : {}),
        only: (x) => x === id,
      });
      const failure =
        c?.verdict === 'passed'
          ? undefined
          : `${c?.message ?? 'not run'}\n  replay: ${replayCommand(id, c?.property?.replay ?? '', process.env)}`;
      expect(failure).toBeUndefined();
    },
    60_000,
  );
});
