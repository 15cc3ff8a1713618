/**
 * The re-serializations the forged webhooks of webhook.reserialized are signed over, against
 * what the languages really write: Python's json.dumps run here (python3), PHP's json_encode
 * written out from its documented defaults (no PHP on CI).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { RESERIALIZE } from '../../src/roles/merchant/as-gateway/reserialize.js';

const VALUE = {
  paymentNo: 'P1',
  note: 'Café/№7 東京 😀',
  nested: { n: 12, ok: true, none: null, list: [1, 'a/b'], empty: [] },
  quote: 'say "hi"\\',
  ctl: 'a\tb\u2028',
};

describe('RESERIALIZE', () => {
  it("python-json-dumps is what Python's json.dumps(json.loads(raw)) writes", () => {
    const raw = JSON.stringify(VALUE);
    const python = execFileSync(
      'python3',
      ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read())))'],
      { input: raw, encoding: 'utf8' },
    );
    expect(RESERIALIZE['python-json-dumps'](JSON.parse(raw))).toBe(python);
  });

  it("php-json-encode is what PHP's json_encode(json_decode($raw)) writes: \\/ and \\u escapes, no white space", () => {
    expect(RESERIALIZE['php-json-encode'](VALUE)).toBe(
      '{"paymentNo":"P1","note":"Caf\\u00e9\\/\\u21167 \\u6771\\u4eac \\ud83d\\ude00","nested":{"n":12,"ok":true,"none":null,"list":[1,"a\\/b"],"empty":[]},"quote":"say \\"hi\\"\\\\","ctl":"a\\tb\\u2028"}',
    );
  });

  it('compact-re-serialization is JSON.stringify', () => {
    expect(RESERIALIZE['compact-re-serialization'](VALUE)).toBe(JSON.stringify(VALUE));
  });
});
