/**
 * Writes the snapshot of the kit's own vector set ({@link SNAPSHOT_FILE}) and its prebuilt JSON
 * export ({@link PREBUILT_EXPORT_DIR}); `npm run build` runs it after compiling. Loads the set in
 * full — every check the loader makes — first.
 * @module
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../docs/refs.js';
import { exportVectorsJson } from './export.js';
import { DEFAULT_VECTORS_DIR, loadVectorSetInFull } from './load.js';
import { contentKey } from './files.js';
import { SNAPSHOT_FILE } from './snapshot.js';

/**
 * Loads the kit's vectors in full and writes them, with their content key, as the snapshot.
 * @returns the number of cases written
 * @throws {VectorSetError} when the kit's own vectors do not load (nothing is written)
 */
export function writeSnapshot(): number {
  const key = contentKey(DEFAULT_VECTORS_DIR);
  const { root: _root, ...set } = loadVectorSetInFull(DEFAULT_VECTORS_DIR);
  if (key === undefined || contentKey(DEFAULT_VECTORS_DIR) !== key)
    throw new Error('the vectors changed while they were read: run the build again');
  mkdirSync(dirname(SNAPSHOT_FILE), { recursive: true });
  const tmp = `${SNAPSHOT_FILE}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify({ key, set }));
  renameSync(tmp, SNAPSHOT_FILE);
  exportVectorsJson({ ...set, root: DEFAULT_VECTORS_DIR }, PREBUILT_EXPORT_DIR);
  return set.cases.length;
}

/** Where the package holds the JSON export of its own vectors (`vectors-json/`, beside `vectors/`). */
export const PREBUILT_EXPORT_DIR = join(PACKAGE_ROOT, 'vectors-json');
