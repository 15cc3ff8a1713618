/**
 * The readings (R1, R2, …) as the shipped docs/readings.md states them, one row each: the point
 * the spec leaves open and the kit's reading of it — for what quotes a reading whole (the JSON
 * export of the vectors).
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCS, PACKAGE_ROOT } from './refs.js';

/** One reading, as its row says it. */
export interface ReadingText {
  readonly id: string;
  /** The point the spec leaves open, e.g. `body ending in LF (5.1)`. */
  readonly point: string;
  /** The kit's reading of it. */
  readonly reading: string;
}

/**
 * Every reading of the shipped docs/readings.md, by id.
 * @returns R-number → its point and reading (an empty map when the file is missing)
 * @example readingTexts().get('R1')?.point // 'body ending in LF (5.1)'
 */
export function readingTexts(): ReadonlyMap<string, ReadingText> {
  let text: string;
  try {
    text = readFileSync(join(PACKAGE_ROOT, DOCS.readings), 'utf8');
  } catch {
    return new Map();
  }
  const out = new Map<string, ReadingText>();
  for (const line of text.split('\n')) {
    const m = /^\|\s*(R\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (!m?.[1] || out.has(m[1])) continue;
    const cells = splitRow(m[2] ?? '');
    out.set(m[1], { id: m[1], point: cells[0] ?? '', reading: cells[1] ?? '' });
  }
  return out;
}

/** A Markdown table row's cells (after the first), `\|` kept as a bar inside a cell. */
function splitRow(rest: string): string[] {
  return rest.split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}
