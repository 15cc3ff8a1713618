/**
 * What `pgv2kit compare` does, loaded only when the command runs (compare.ts declares it).
 * @module
 */
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../atomic-file.js';
import { fileSystemReason } from '../../file-errors.js';
import {
  badgeFile,
  badgeSvg,
  badgeVerdict,
  caseRows,
  compareHtml,
  compareMarkdown,
  compareWarnings,
  readCompareEntries,
} from '../../reports/compare.js';
import { resolvePath } from '../_files.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import type { compareOptions } from './compare.js';

/** What an --out folder may already hold: an earlier comparison's files. */
const OWN = new Set(['compare.html', 'compare.md', 'badges']);

/**
 * Runs `pgv2kit compare`.
 * @param context - the parsed options, the runs and the io
 * @returns 0 once written
 */
export async function runCompare({ values, positionals, io }: CommandContext<typeof compareOptions>): Promise<number> {
  if (positionals.length === 0) throw new UsageError('give the results.json (or report folder) of each run to compare');
  const out = resolvePath(io.cwd, values.out ?? 'compare');
  if (existsSync(out)) {
    if (!statSync(out).isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder`);
    const other = readdirSync(out).filter((f) => !OWN.has(f));
    if (other.length > 0)
      throw new UsageError(
        `--out ${out} holds other files (${other.slice(0, 3).join(', ')}${other.length > 3 ? ', …' : ''}): ` +
          "give a new folder or an earlier comparison's",
      );
  }
  // a path that holds no run's results is a CompareInputError: a usage error (exit 2)
  const entries = readCompareEntries(positionals.map((p) => resolvePath(io.cwd, p)));
  try {
    // an earlier comparison's badges go: a badge left of a run not compared now would mislead
    rmSync(join(out, 'badges'), { recursive: true, force: true });
    mkdirSync(join(out, 'badges'), { recursive: true });
    for (const e of entries) writeFileAtomic(join(out, 'badges', badgeFile(e.key)), badgeSvg(e.results));
    writeFileAtomic(join(out, 'compare.md'), compareMarkdown(entries));
    writeFileAtomic(join(out, 'compare.html'), compareHtml(entries, out));
  } catch (e) {
    const reason = fileSystemReason(e);
    if (reason === undefined) throw e;
    throw new UsageError(`--out ${out} cannot be written: ${reason}`);
  }
  const differ = caseRows(entries).filter((r) => r.differs).length;
  for (const e of entries)
    io.stdout(
      `${badgeVerdict(e.results).toUpperCase().padEnd(15)} ${e.key}: ${e.results.summary}  ` +
        `(badges/${badgeFile(e.key)})\n`,
    );
  for (const w of compareWarnings(entries)) io.stdout(`note: ${w}\n`);
  io.stdout(`${differ} case${differ === 1 ? '' : 's'} differ between the implementations\n`);
  io.stdout(`compare: ${join(out, 'compare.html')}\n`);
  return EXIT.ok;
}
