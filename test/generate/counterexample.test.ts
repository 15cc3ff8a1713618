/**
 * The vector cases of counterexamples (run --save, fuzz --save): each area's case carries what
 * failed and the expectation the kit's rules give it, agrees with the property or refuses to
 * be written, and passes the reference.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { counterexampleCase, headerParseCase } from '../../src/generate/counterexample.js';
import { GenerateCheckError } from '../../src/generate/generate.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { LoadedCase } from '../../src/vectors/types.js';

const provenance = { generator: 'test', kitVersion: '0', date: '2026-11-24' };
const base = (id: string) => ({ id, comment: 'a counterexample', provenance });

// the test's own signing: SHA-256 over the seven LF-terminated parts (5.1, 5.2)
const parts = {
  appId: 'app_1',
  appSecret: 'sk_test_1',
  method: 'POST',
  url: 'https://shop.example.net/hooks/pg?store=7',
  timestamp: '1700000000000',
  nonce: 'n-1',
};
const body = Buffer.from('{"paymentNo":"P1","amount":"10.00"}');
const content = (b: Buffer, p = parts): Buffer =>
  Buffer.concat([
    Buffer.from([p.appId, p.appSecret, p.method, p.url, p.timestamp, p.nonce].map((x) => `${x}\n`).join('')),
    b,
    Buffer.from('\n'),
  ]);
const signOf = (b: Buffer, p = parts): string => createHash('sha256').update(content(b, p)).digest('hex');
const header = (appId = parts.appId): string =>
  `V2_SHA256 nonce=${parts.nonce},appId=${appId},sign=${signOf(body)},timestamp=${parts.timestamp}`;
const message = (over: Partial<{ authorization: string; body: Buffer; url: string }> = {}) => ({
  appId: parts.appId,
  appSecret: parts.appSecret,
  method: parts.method,
  url: over.url ?? parts.url,
  authorization: over.authorization ?? header(),
  bodyB64: (over.body ?? body).toString('base64'),
});
const tampered = Buffer.from(body.toString().replace('10.00', '90.00'));

async function passes(area: string, c: object): Promise<string> {
  const outcome = await runCase(
    { case: { ...c, kind: area }, file: 'test' } as unknown as LoadedCase,
    createReferenceSubject(),
  );
  return outcome.status;
}

describe('counterexampleCase', () => {
  it('a genuine webhook refused: a valid webhook case, with the content a verifier builds', async () => {
    const c = counterexampleCase(
      { area: 'webhook', result: 'valid', message: message() },
      base('webhook.gen-property-1'),
    );
    expect(c).toMatchObject({
      result: 'valid',
      spec: ['5.5'],
      flags: ['Generated'],
      inputs: { notifyUrl: parts.url, method: 'POST', body: body.toString() },
      expected: { content: content(body).toString() },
    });
    expect(await passes('webhook', c)).toBe('pass');
  });

  it('a response whose body changed after signing: invalid, Tampered, sign-mismatch', async () => {
    const c = counterexampleCase(
      { area: 'response', result: 'invalid', changed: 'body', message: message({ body: tampered }) },
      base('response.gen-property-1'),
    );
    expect(c).toMatchObject({
      result: 'invalid',
      flags: ['Generated', 'Tampered'],
      inputs: { url: parts.url, status: 200 },
      expected: { content: content(tampered).toString(), problem: { kind: 'sign-mismatch' } },
    });
    expect(await passes('response', c)).toBe('pass');
  });

  it('a request under another appId: invalid, AppIdMismatch, and no content (verification stops before it)', async () => {
    const c = counterexampleCase(
      { area: 'request', result: 'invalid', changed: 'appId', message: message({ authorization: header('app_2') }) },
      base('request.gen-property-1'),
    );
    expect(c).toMatchObject({
      result: 'invalid',
      flags: ['Generated', 'AppIdMismatch'],
      expected: { problem: { kind: 'app-id-mismatch' } },
    });
    expect('content' in (c as { expected: object }).expected).toBe(false);
    expect(await passes('request', c)).toBe('pass');
  });

  it('writes nothing when the reference disagrees with the property, or the header is not one 5.3 writes', () => {
    expect(() =>
      counterexampleCase({ area: 'request', result: 'valid', message: message({ body: tampered }) }, base('request.x')),
    ).toThrow(GenerateCheckError);
    expect(() =>
      counterexampleCase(
        { area: 'request', result: 'invalid', changed: 'body', message: message() },
        base('request.x'),
      ),
    ).toThrow(/the reference verifier accepts it, but the property says it must be refused/);
    expect(() =>
      counterexampleCase(
        { area: 'request', result: 'invalid', message: message({ authorization: `${header()} ` }) },
        base('request.x'),
      ),
    ).toThrow(/not one 5.3 writes/);
  });

  it('four values a formatter mis-wrote: a format case with the header 5.3 writes', async () => {
    const items = { appId: 'a', sign: 'ff', timestamp: '1', nonce: 'x==' };
    const c = counterexampleCase({ area: 'authorization', items }, base('authorization.gen-property-1'));
    expect(c).toMatchObject({
      op: 'authorization.format',
      result: 'valid',
      inputs: { items },
      expected: { header: 'V2_SHA256 appId=a,sign=ff,timestamp=1,nonce=x==' },
    });
    expect(await passes('authorization', c)).toBe('pass');
  });

  it('a header: R8 decides the result (valid with values, invalid with the problem and its flag, or either)', async () => {
    expect(
      counterexampleCase(
        { area: 'authorization', header: 'V2_SHA256 nonce=n,appId=a,sign=ff,timestamp=1', flags: ['HeaderOrder'] },
        base('authorization.a'),
      ),
    ).toMatchObject({
      result: 'valid',
      flags: ['Generated', 'HeaderOrder'],
      expected: { items: { appId: 'a', nonce: 'n' } },
    });
    const missing = headerParseCase('V2_SHA256 appId=a,sign=ff,timestamp=1', base('authorization.b'));
    expect(missing).toMatchObject({
      result: 'invalid',
      flags: ['Generated', 'MissingItem'],
      expected: { problem: { kind: 'missing-item', item: 'nonce' } },
    });
    expect(
      headerParseCase('v2_sha256 appId=a,sign=ff,timestamp=1,nonce=n ', {
        ...base('authorization.c'),
        flags: ['FuzzFinding'],
      }),
    ).toMatchObject({ result: 'acceptable', flags: ['FuzzFinding', 'HeaderWhitespace', 'SchemeCase'] });
    // R8 (d), (e): an empty element, a recased name, each flagged for the variant that leaves it open
    expect(
      headerParseCase('V2_SHA256 appId=a,sign=ff,timestamp=1,nonce=n,', {
        ...base('authorization.d'),
        flags: ['FuzzFinding'],
      }),
    ).toMatchObject({ result: 'acceptable', flags: ['FuzzFinding', 'EmptyListElement'] });
    expect(
      headerParseCase('V2_SHA256 APPID=a,sign=ff,timestamp=1,nonce=n', {
        ...base('authorization.e'),
        flags: ['FuzzFinding'],
      }),
    ).toMatchObject({ result: 'acceptable', flags: ['FuzzFinding', 'ItemNameCase'] });
    expect(await passes('authorization', missing)).toBe('pass');
  });
});
