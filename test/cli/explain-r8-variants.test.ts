/**
 * explain reads a header as leniently as R8 lets a parser (R8 (d), (e)): an empty list element or a
 * recased item name is noted as open, not refused, and the sign is still compared. The sign is
 * computed here with node:crypto over content written by hand (5.1, 5.2).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { explainSignature } from '../../src/cli/explain/model.js';

const parts = {
  appId: 'app_51c2d0',
  appSecret: 'sk_test_explain',
  method: 'POST',
  url: 'https://pg.example.com/pg/v2/file/generateUploadUrl',
  timestamp: '1718090123511',
  nonce: 'n-7a1f03',
};
const body = '{"a":1}';
const sign = createHash('sha256')
  .update(`app_51c2d0\nsk_test_explain\nPOST\n${parts.url}\n1718090123511\nn-7a1f03\n${body}\n`, 'utf8')
  .digest('hex');
const input = {
  appId: parts.appId,
  appSecret: parts.appSecret,
  method: parts.method,
  url: parts.url,
  body: new TextEncoder().encode(body),
  bodySource: 'option' as const,
};

describe('explain and R8 (d), (e)', () => {
  it.each([
    [
      'a comma after the last item',
      `V2_SHA256 appId=app_51c2d0,sign=${sign},timestamp=1718090123511,nonce=n-7a1f03,`,
      /empty element.*R8 \(d\)/,
    ],
    [
      'AppId= for appId',
      `V2_SHA256 AppId=app_51c2d0,sign=${sign},timestamp=1718090123511,nonce=n-7a1f03`,
      /another letter case.*R8 \(e\)/,
    ],
  ])('%s: the sign matches, the leniency is noted', (_name, authorization, note) => {
    const e = explainSignature({ ...input, authorization });
    expect(e.verdict).toBe('match');
    expect(e.notes.map((n) => n.message).join('\n')).toMatch(note);
  });

  it('still refuses a duplicate that folding makes', () => {
    const e = explainSignature({
      ...input,
      authorization: `V2_SHA256 appid=evil,appId=app_51c2d0,sign=${sign},timestamp=1718090123511,nonce=n-7a1f03`,
    });
    expect(e.verdict).toBe('refused');
  });
});
