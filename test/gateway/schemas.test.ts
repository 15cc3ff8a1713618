/**
 * The gateway's body schemas (src/gateway/*.schema.json) are valid draft 2020-12 schemas: checked here against the
 * meta-schema, once, because the gateway compiles them without that check (src/gateway/_ajv.ts: `ownSchemas`, 20 ms
 * of every process it answers in).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { createAjv } from '../../src/vectors/ajv.js';

const DIR = join(PACKAGE_ROOT, 'src/gateway');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.schema.json'));

describe("the gateway's schemas", () => {
  it('are the two bodies it checks', () => {
    expect(FILES.sort()).toEqual(['credentials-request.schema.json', 'payment-create.schema.json']);
  });

  it.each(FILES)('%s is valid against the draft 2020-12 meta-schema', (file) => {
    const ajv = createAjv();
    const valid = ajv.validateSchema(JSON.parse(readFileSync(join(DIR, file), 'utf8')) as object);
    expect(ajv.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the check can fail: a keyword of the wrong type is refused', () => {
    const ajv = createAjv();
    expect(ajv.validateSchema({ type: 'object', required: 'amount' })).toBe(false);
  });
});
