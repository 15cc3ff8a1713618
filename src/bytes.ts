/**
 * Byte counts as people write and read them: `16MiB`, `512 KiB`, `1048576`.
 * @module
 */

const UNITS: Readonly<Record<string, number>> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
};

/**
 * A byte count from text: an integer, optionally followed by a binary unit (K, KiB, KB = 1024;
 * M, MiB, MB = 1024²; G, GiB, GB = 1024³), case-insensitive, a space allowed before the unit.
 * @param text - the text
 * @returns the count, or undefined when the text is not a byte count above zero
 * @example parseBytes('16MiB') // 16777216
 */
export function parseBytes(text: string): number | undefined {
  const m = /^\s*(\d{1,15})\s*([a-z]*)\s*$/i.exec(text);
  const unit = m ? UNITS[(m[2] ?? '').toLowerCase()] : undefined;
  if (!m || unit === undefined) return undefined;
  const n = Number(m[1]) * unit;
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A byte count as people read it.
 * @param bytes - the count
 * @returns e.g. `16 MiB`, `1.5 KiB`, `12 bytes`
 * @example formatBytes(16 * 1024 * 1024) // '16 MiB'
 */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;
  let n = bytes;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit += 1;
  }
  return unit === 0
    ? `${bytes} byte${bytes === 1 ? '' : 's'}`
    : `${Number.isInteger(n) ? n : n.toFixed(1)} ${units[unit]}`;
}
