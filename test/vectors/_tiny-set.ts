/**
 * A small vector set in a temporary folder — the kit's schemas, a notes table, one signature
 * file — for the loader's tests to change one thing in.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_VECTORS_DIR } from '../../src/vectors/load.js';
import { stringifyVectorFile } from '../../src/vectors/write.js';
import { sha256Hex } from '../../suites/_support/expectations.js';
import { tempFolders } from '../_support.js';

/** The signature content of the tiny set's one case. */
export const content =
  'app_1\nsk_test_x\nPOST\nhttps://pg.example.com/pg/v2/payment/create\n1717171717000\nn-1\n{"a":1}\n';

/**
 * A maker of tiny sets (their folders removed after the calling file's tests).
 * @returns a function taking a change to the file's data (or the file's raw text) and returning the folder
 */
export function tinySets(): (mutate?: (file: Record<string, unknown>) => void, raw?: string) => string {
  const folder = tempFolders('pgv2kit-vectors-');
  return (mutate = () => {}, raw) => {
    const dir = folder();
    cpSync(join(DEFAULT_VECTORS_DIR, 'schema'), join(dir, 'schema'), { recursive: true });
    writeFileSync(
      join(dir, 'notes.yaml'),
      'kind: notes\ntitle: t\nflags:\n  Baseline:\n    bugType: BASIC\n    description: plain\n',
    );
    mkdirSync(join(dir, 'signature'));
    const file: Record<string, unknown> = {
      kind: 'signature',
      title: 'tiny',
      cases: [
        {
          id: 'signature.tiny',
          comment: 'a plain case',
          spec: ['5.1', '5.2'],
          readings: [],
          flags: ['Baseline'],
          result: 'valid',
          inputs: {
            appId: 'app_1',
            appSecret: 'sk_test_x',
            method: 'POST',
            url: 'https://pg.example.com/pg/v2/payment/create',
            timestamp: '1717171717000',
            nonce: 'n-1',
            body: '{"a":1}',
          },
          expected: { content, sign: sha256Hex(new TextEncoder().encode(content)) },
        },
      ],
    };
    mutate(file);
    writeFileSync(join(dir, 'signature', 'tiny.yaml'), raw ?? stringifyVectorFile(file));
    return dir;
  };
}
