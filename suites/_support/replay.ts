/**
 * The line a failing property prints to replay it: the seed and path of its counterexample and
 * the suite's subject (PGV2KIT_SUBJECT, when set: without it the replay would run against the
 * reference), each shell-quoted, so that pasting it replays the same failure.
 */
import { shellQuote } from '../../src/shell-quote.js';

/**
 * The replay command of a property's failure.
 * @param id - the property id
 * @param replay - the failure's `<seed>:<path>` (as the run records it)
 * @param env - the environment the suite ran in
 * @returns e.g. `PGV2KIT_SUBJECT=./my-subject.ts FC_SEED=42 FC_PATH=3:0 npx vitest run suites/properties -t property.lf.sign`
 */
export function replayCommand(id: string, replay: string, env: Readonly<Record<string, string | undefined>>): string {
  const [seed = '', ...path] = replay.split(':');
  const subject = env['PGV2KIT_SUBJECT'];
  const vars = [
    ...(subject ? [`PGV2KIT_SUBJECT=${shellQuote(subject)}`] : []),
    `FC_SEED=${shellQuote(seed)}`,
    `FC_PATH=${shellQuote(path.join(':'))}`,
  ];
  return `${vars.join(' ')} npx vitest run suites/properties -t ${shellQuote(id)}`;
}
