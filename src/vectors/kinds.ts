/**
 * The vector kinds the kit's vectors folder defines: a kind is a schema `vectors/schema/<kind>.schema.json`
 * (besides `common` and `notes`, which every kind shares) and a folder `vectors/<kind>/` of its files. So a
 * role that brings a kind adds it as data (its schema and its vectors) and declares its case type in its own
 * folder (src/roles/<role>/kind.ts, see {@link VectorCases}); no list of kinds is written by hand.
 * The order the reports show kinds in is the roles' (src/roles/registry.ts, `VECTOR_KINDS`): here they are in
 * name order.
 * @module
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { VectorCases, VectorKind } from './types.js';

/** The schema files every kind shares, not kinds. */
const SHARED_SCHEMAS: ReadonlySet<string> = new Set(['common', 'notes']);

/**
 * The kit's vector kinds, in name order, read once from the kit's own schema folder.
 * @example SCHEMA_KINDS.includes('gateway') // true
 * @example SCHEMA_KINDS.includes('common') // false
 */
export const SCHEMA_KINDS: readonly VectorKind[] = schemaKinds(
  fileURLToPath(new URL('../../vectors/schema', import.meta.url)),
);

/**
 * Whether a name is one of the kit's vector kinds.
 * @param name - a folder's or a file's `kind`
 * @returns whether it names a kind
 * @example isVectorKind('merchant') // true
 * @example isVectorKind('notes') // false
 */
export function isVectorKind(name: string): name is VectorKind {
  return (SCHEMA_KINDS as readonly string[]).includes(name);
}

/**
 * The kinds a schema folder defines, in name order.
 * @param dir - a folder of `<name>.schema.json` files
 * @returns the names besides the shared ones
 * @example schemaKinds(`${DEFAULT_VECTORS_DIR}/schema`).includes('client') // true
 */
export function schemaKinds(dir: string): VectorKind[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.schema.json'))
    .map((f) => f.slice(0, -'.schema.json'.length))
    .filter((name) => !SHARED_SCHEMAS.has(name))
    .sort() as Array<keyof VectorCases>;
}
