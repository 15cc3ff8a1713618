/**
 * The one ajv setup every JSON Schema of the kit is compiled with (the vector schemas, protocol
 * v1's, the gateway's request bodies): draft 2020-12, every error reported, strict schema
 * checking without the rules that refuse valid 2020-12 idioms.
 * @module
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ajv2020 } from '../deps.js';

/**
 * A new ajv instance with the kit's settings.
 * @param options - `verbose`: errors carry the schema and the data (for messages that quote them); `ownSchemas`:
 *   only the kit's own schemas are compiled with it, which its tests check against the draft 2020-12 meta-schema
 *   (test/gateway/schemas.test.ts), so a process does not check them again (compiling the meta-schema's validator
 *   was 20 ms of every process the gateway answered in); a schema of a user's vector folder is always checked
 * @returns the instance
 * @example createAjv({ verbose: true }).compile({ type: 'string' })('x') // true
 */
export function createAjv(options: { readonly verbose?: boolean; readonly ownSchemas?: boolean } = {}): Ajv2020 {
  const { Ajv2020: Ajv } = ajv2020();
  return new Ajv({
    validateSchema: options.ownSchemas !== true,
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    allowUnionTypes: true,
    verbose: options.verbose ?? false,
  });
}
