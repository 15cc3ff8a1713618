/**
 * What `pgv2kit compare` does, loaded only when the command runs (compare.ts declares it).
 * @module
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../atomic-file.js';
import { fileSystemReason } from '../../file-errors.js';
import {
  badgeFiles,
  badgeSvg,
  badgeVerdict,
  caseRows,
  compareHtml,
  compareMarkdown,
  compareWarnings,
  readCompareEntries,
} from '../../reports/compare.js';
import { recomputeRun } from '../../reports/results-verdict.js';
import { resolvePath } from '../_files.js';
import { jsonOutput } from '../_json-output.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { compareOptions } from './compare.js';

/**
 * The mark of a folder compare wrote: the badges it wrote there (JSON), so that a later comparison replaces
 * those and never removes a file it did not write (issue 25, item 3).
 */
const MARK = '.pgv2kit-compare.json';
/** What an --out folder may already hold: an earlier comparison's files. */
const OWN = new Set(['compare.html', 'compare.md', 'badges', MARK]);

/**
 * Runs `pgv2kit compare`.
 * @param context - the parsed options, the runs and the io
 * @returns 0 once written
 */
export async function runCompare({
  values,
  positionals,
  io: given,
}: CommandContext<typeof compareOptions>): Promise<number> {
  const { io, emit } = jsonOutput(values.json === true, given);
  if (positionals.length === 0) throw new UsageError('give the results.json (or report folder) of each run to compare');
  const out = resolvePath(io.cwd, values.out ?? 'compare');
  const earlier = existsSync(out) ? earlierBadges(out) : [];
  // a path that holds no run's results is a CompareInputError: a usage error (exit 2)
  const entries = readCompareEntries(positionals.map((p) => resolvePath(io.cwd, p)));
  const badges = badgeFiles(entries.map((e) => e.key));
  const mark = (files: readonly string[]): void =>
    writeFileAtomic(join(out, MARK), `${JSON.stringify({ badges: files }, null, 2)}\n`);
  try {
    // everything new is written first, marked as compare's before it is: a write that fails loses nothing
    mkdirSync(join(out, 'badges'), { recursive: true });
    mark([...new Set([...earlier, ...badges])]);
    entries.forEach((e, i) => writeFileAtomic(join(out, 'badges', badges[i] ?? ''), badgeSvg(e.results)));
    writeFileAtomic(join(out, 'compare.md'), compareMarkdown(entries));
    writeFileAtomic(join(out, 'compare.html'), compareHtml(entries, out));
    // then the earlier comparison's badges not written again go (a badge of a run not compared now would mislead)
    const now = new Set(badges);
    for (const f of earlier) if (!now.has(f)) rmSync(join(out, 'badges', f), { force: true });
    mark(badges);
  } catch (e) {
    const reason = fileSystemReason(e);
    if (reason === undefined) throw e;
    throw new UsageError(`--out ${out} cannot be written: ${reason}`);
  }
  const differ = caseRows(entries).filter((r) => r.differs).length;
  const judged = entries.map((e) => recomputeRun(e.results));
  entries.forEach((e, i) =>
    io.stdout(
      `${badgeVerdict(e.results).toUpperCase().padEnd(15)} ${e.key}: ${judged[i]?.summary ?? ''}  ` +
        `(badges/${badges[i] ?? ''})\n`,
    ),
  );
  const warnings = compareWarnings(entries);
  for (const w of warnings) io.stdout(`note: ${w}\n`);
  io.stdout(`${differ} case${differ === 1 ? '' : 's'} differ between the implementations\n`);
  io.stdout(`compare: ${join(out, 'compare.html')}\n`);
  emit({
    command: 'compare',
    exitCode: EXIT.ok,
    out,
    runs: entries.map((e, i) => ({
      file: e.file,
      key: e.key,
      verdict: badgeVerdict(e.results),
      conformant: judged[i]?.conformant ?? false,
      summary: judged[i]?.summary ?? '',
      totals: judged[i]?.totals ?? null,
      disagreements: [...(e.caseDisagreements ?? []), ...(judged[i]?.disagreements ?? [])],
      badge: `badges/${badges[i] ?? ''}`,
    })),
    differ,
    notes: warnings,
  });
  return EXIT.ok;
}

// --- internal ---

/**
 * The badges an earlier comparison wrote in a folder, which this one may replace; refuses a folder compare did not
 * write, or whose badges/ holds a file it did not write (a user's own badge is never removed).
 */
function earlierBadges(out: string): string[] {
  if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder`);
  const files = readdirSync(out);
  if (files.length === 0) return [];
  const other = files.filter((f) => !OWN.has(f));
  const give = "give a new folder or an earlier comparison's";
  if (other.length > 0)
    throw new UsageError(
      `--out ${out} holds other files (${other.slice(0, 3).join(', ')}${other.length > 3 ? ', …' : ''}): ${give}`,
    );
  let written: string[] = [];
  try {
    const mark = JSON.parse(readFileSync(join(out, MARK), 'utf8')) as { badges?: unknown };
    if (Array.isArray(mark.badges)) written = mark.badges.filter((b): b is string => typeof b === 'string');
  } catch {
    throw new UsageError(`--out ${out} was not written by pgv2kit compare (no ${MARK} in it): ${give}`);
  }
  const badgesDir = join(out, 'badges');
  const ours = new Set(written);
  const foreign = existsSync(badgesDir) ? readdirSync(badgesDir).filter((f) => !ours.has(f)) : [];
  if (foreign.length > 0)
    throw new UsageError(
      `--out ${out}: badges/ holds files pgv2kit compare did not write (${foreign.slice(0, 3).join(', ')}): ` +
        `they are never removed; ${give}`,
    );
  return written.filter((f) => /^[A-Za-z0-9._-]+\.svg$/.test(f));
}
