/**
 * `pgv2kit run --save`: where the failed properties' counterexamples go (a .yaml file in an
 * area folder of a vectors folder, made when missing), and writing them as cases of their own
 * kind — built and checked by src/generate/counterexample.ts, the set validated, nothing
 * written on a problem, and every problem printed.
 * @module
 */
import { existsSync } from 'node:fs';
import { counterexampleCase } from '../generate/counterexample.js';
import { IdAllocator, type GeneratedCase } from '../generate/generate.js';
import { writeCases } from '../generate/write.js';
import type { PropertyOptions } from '../runner/properties.js';
import { COUNTEREXAMPLE_AREAS, type CounterexampleKind, type RunResult } from '../runner/result.js';
import type { VectorLimits } from '../vectors/limits.js';
import { takenIds } from '../vectors/target.js';
import { loadableTarget, madeLine, problemsText, vectorFileTarget } from './_vector-target.js';
import { UsageError } from './command.js';

/** A --save file, its vectors folder and its area. */
export interface SaveTarget {
  readonly file: string;
  readonly root: string;
  readonly area: CounterexampleKind;
}

/**
 * Where --save writes: a .yaml file in an area folder of a vectors folder that counterexamples are saved in, checked
 * (and its folder's set loaded) before the run.
 */
export function saveTarget(file: string, properties: PropertyOptions | false, limits?: VectorLimits): SaveTarget {
  if (!properties) throw new UsageError("--save writes the properties' counterexamples: leave out --no-properties");
  return loadableTarget(vectorFileTarget(file, COUNTEREXAMPLE_AREAS, '--save') as SaveTarget, '--save', limits);
}

/**
 * Writes the failed properties' counterexamples of the target's area as vector cases (checked independently, the
 * set validated).
 */
export function saveCounterexamples(
  run: RunResult,
  to: SaveTarget,
  io: { stdout: (s: string) => void; stderr: (s: string) => void },
  limits?: VectorLimits,
): void {
  const failed = run.cases.filter(
    (c) =>
      c.kind === 'property' && (c.verdict === 'failed' || c.verdict === 'expected-failure') && c.property?.asVector,
  );
  if (failed.length === 0) return;
  let taken: string[];
  try {
    taken = takenIds(to.root, limits ? { limits } : {});
  } catch (e) {
    io.stderr(
      `pgv2kit run: --save: nothing was saved: the vector set in ${to.root} does not load: ${problemsText(e)}\n`,
    );
    return;
  }
  const ids = new IdAllocator(to.area, 'property', taken);
  const provenance = {
    generator: 'pgv2kit run (property counterexample)',
    kitVersion: run.kit.version,
    date: run.startedAt.slice(0, 10),
  };
  const cases: GeneratedCase[] = [];
  try {
    for (const c of failed) {
      const v = c.property?.asVector;
      if (!v || v.area !== to.area) {
        io.stdout(
          `--save: the counterexample of ${c.id} is not saved: it is ` +
            `${v ? `a ${v.area} case, not a ${to.area} one (give a file in ${v.area}/)` : 'not a vector case yet'}\n`,
        );
        continue;
      }
      const headline = `Counterexample of ${c.id} (seed ${c.property?.seed ?? ''}): ${c.message.split(' — ')[0]}`;
      const comment = headline.slice(0, 239);
      // the provenance names the replay: <property id>=<seed>:<path>
      const from = { ...provenance, ...(c.property?.replay ? { seed: `${c.id}=${c.property.replay}` } : {}) };
      cases.push(counterexampleCase(v, { id: ids.next(), comment, provenance: from }));
    }
    if (cases.length === 0) return;
    const written = writeCases({
      root: to.root,
      ...(limits ? { limits } : {}),
      file: to.file,
      area: to.area,
      title: 'Counterexamples of pgv2kit run properties',
      cases,
      append: existsSync(to.file),
    });
    io.stdout(madeLine(written.made));
    io.stdout(
      `saved ${written.ids.length} counterexample${written.ids.length === 1 ? '' : 's'} ` +
        `as ${written.ids.join(', ')} in ${to.file}\n`,
    );
  } catch (e) {
    io.stderr(`pgv2kit run: --save: the counterexamples could not be written (nothing was): ${problemsText(e)}\n`);
  }
}
