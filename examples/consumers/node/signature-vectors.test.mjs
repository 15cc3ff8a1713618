// pgv2kit's signature vectors, checked by node:test and node:crypto: no kit code, no adapter.
//
// Reads the JSON export of the vectors (pgv2kit vectors export --format json --out <dir>, or the
// vectors-json/ folder the npm package ships) from $PGV2KIT_VECTORS_JSON, else from the package
// folder this file sits in. One test per signature case: the content built from the inputs (the
// six text parts, each followed by LF, then the body's bytes and one LF: spec 5.1, R1-R3) equals
// the expected content, and the sign is its SHA-256 in lower-case hex (5.2); a mistaken signer's
// candidate, when given, differs, and hashes to its own sign when its mistake is in the content.
//
//     PGV2KIT_VECTORS_JSON=./pgv2kit-vectors node --test signature-vectors.test.mjs
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const EXPORT = process.env.PGV2KIT_VECTORS_JSON || fileURLToPath(new URL('../../../vectors-json/', import.meta.url));
const TEXT_PARTS = ['appId', 'appSecret', 'method', 'url', 'timestamp', 'nonce'];
const read = (file) => JSON.parse(readFileSync(join(EXPORT, file), 'utf8'));
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The signature content of 5.1: each text part as UTF-8 and LF, the body's bytes, LF. */
function contentOf(inputs) {
  const parts = TEXT_PARTS.map((name) => Buffer.from(`${inputs[name]}\n`, 'utf8'));
  return Buffer.concat([...parts, Buffer.from(inputs.bodyHex, 'hex'), Buffer.from('\n')]);
}

const files = read('index.json')
  .files.filter((f) => f.kind === 'signature')
  .map((f) => read(f.file));
assert.ok(files.length > 0, `no signature file in ${EXPORT}`);
for (const doc of files) {
  assert.equal(doc.numberOfTests, doc.tests.length, doc.source);
  for (const c of doc.tests) {
    test(c.id, () => {
      const content = Buffer.from(c.expected.contentHex, 'hex');
      assert.deepEqual(contentOf(c.inputs), content, 'content built from the inputs');
      assert.equal(sha256(content), c.expected.sign, 'sign = lower-case hex SHA-256 of the content');
      if (c.candidate) {
        // the mistake is in the content (then it hashes to its sign), or in the sign alone
        if (c.candidate.contentHex !== undefined)
          assert.equal(sha256(Buffer.from(c.candidate.contentHex, 'hex')), c.candidate.sign.toLowerCase());
        assert.notEqual(c.candidate.sign, c.expected.sign);
      }
    });
  }
}
