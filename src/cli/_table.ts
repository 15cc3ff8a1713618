/**
 * Plain-text tables for command output: left-aligned first column, right-aligned numbers.
 * @module
 */

/**
 * Formats rows as an aligned table.
 * @param header - the column titles
 * @param rows - the cells; a number is right-aligned, text left-aligned
 * @param indent - text before every line
 * @returns the lines, each ending in LF
 * @example formatTable(['area', 'cases'], [['signature', 3]]) // 'area       cases\nsignature      3\n'
 */
export function formatTable(
  header: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string | number>>,
  indent = '',
): string {
  const all: ReadonlyArray<ReadonlyArray<string | number>> = [header, ...rows];
  const widths = header.map((_, col) => Math.max(...all.map((r) => String(r[col] ?? '').length)));
  return all
    .map((row) => {
      const cells = row.map((cell, col) => {
        const w = widths[col] ?? 0;
        return typeof cell === 'number' ? String(cell).padStart(w) : cell.padEnd(w);
      });
      return `${indent}${cells.join('  ').trimEnd()}\n`;
    })
    .join('');
}
