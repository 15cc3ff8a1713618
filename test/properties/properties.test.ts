/**
 * The properties against real targets: the reference holds every one; two defects no vector
 * can reach (bodies over 8 KiB) are caught, in process and over protocol v1, with a shrunk,
 * replayable counterexample and the known mistake named; a property whose operations the
 * target does not offer is skipped, never passed.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { runProperties } from '../../src/runner/properties.js';
import { loadModuleSubject } from '../../src/subjects/module-subject.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import { createTesteeSubject, type TesteeSubject } from '../../src/subjects/testee-subject.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const testees: TesteeSubject[] = [];
afterAll(async () => {
  for (const t of testees) await t.close();
});

describe('the properties', () => {
  it('have stable ids property.<family>.<name>, spec sections and readings', () => {
    expect(PROPERTIES.map((p) => p.id)).toEqual([
      'property.lf.content',
      'property.lf.sign',
      'property.hex.lowercase',
      'property.header.order',
      'property.header.duplicate',
      'property.header.missing',
      'property.header.roundtrip',
      'property.verify.exact',
      'property.verify.response-exact',
      'property.verify.webhook-exact',
      'property.verify.self',
    ]);
    for (const p of PROPERTIES) expect([p.id, p.spec.length > 0, p.readings.length > 0]).toEqual([p.id, true, true]);
  });

  it.each([1, 2, 3])('hold for the reference at seed %i', async (seed) => {
    const cases = await runProperties(createReferenceSubject(), { seed, runs: 60 });
    expect(cases.map((c) => [c.id, c.verdict, c.message])).toEqual(
      cases.map((c) => [c.id, 'passed', `held for 60 inputs (seed ${seed})`]),
    );
  });

  it('skip what the target does not offer, never pass it', async () => {
    const reference = createReferenceSubject();
    const verifierOnly = {
      ...reference,
      operations: reference.operations.filter((op) => op === 'request.verify'),
      call: reference.call.bind(reference),
    };
    const cases = await runProperties(verifierOnly, { seed: 1, runs: 10 });
    expect(cases.filter((c) => c.verdict === 'passed').map((c) => c.id)).toEqual(['property.verify.exact']);
    expect(cases.find((c) => c.id === 'property.verify.self')).toMatchObject({
      verdict: 'skipped',
      message: 'not run: signature.sign not offered',
    });
  });

  it('catch a signer that drops the LF after a body over 8 KiB, naming the mistake, replayable', async () => {
    const subject = await loadModuleSubject(join(ROOT, 'test/zoo/members/large-body-lf-dropped.ts'), ROOT);
    const cases = await runProperties(subject, { seed: 5, runs: 100 });
    const sign = cases.find((c) => c.id === 'property.lf.sign');
    expect(sign?.verdict).toBe('failed');
    expect(sign?.ops[0]?.diagnosis?.map((d) => d.mistake)).toContain('no-final-lf');
    const body = (sign?.property?.counterexample as { bodyLength: number }).bodyLength;
    expect(body).toBeGreaterThan(8192);
    const replay = sign?.property?.replay ?? '';
    const [seed, ...path] = replay.split(':');
    const again = await runProperties(subject, {
      seed: Number(seed),
      runs: 100,
      replay: { id: 'property.lf.sign', path: path.join(':') },
    });
    expect(
      again.map((c) => [c.id, c.verdict, (c.property?.counterexample as { bodyLength: number }).bodyLength]),
    ).toEqual([['property.lf.sign', 'failed', body]]);
    // its verifiers share the signer's content: every genuine message over 8 KiB is refused
    expect(cases.filter((c) => c.verdict === 'failed').map((c) => c.id)).toEqual([
      'property.lf.content',
      'property.lf.sign',
      'property.verify.exact',
      'property.verify.response-exact',
      'property.verify.webhook-exact',
    ]);
  });

  it('catch, over protocol v1, a verifier that skips the check for bodies over 8 KiB', async () => {
    const subject = await createTesteeSubject({
      command: 'node --import tsx test/zoo/protocol-adapter.ts large-body-unverified',
      cwd: ROOT,
      timeoutMs: 10_000,
    });
    testees.push(subject);
    const cases = await runProperties(subject, { seed: 7, runs: 100 });
    expect(cases.filter((c) => c.verdict !== 'passed').map((c) => [c.id, c.verdict])).toEqual([
      ['property.verify.exact', 'failed'],
      ['property.verify.response-exact', 'failed'],
      ['property.verify.webhook-exact', 'failed'],
    ]);
    const exact = cases.find((c) => c.id === 'property.verify.exact');
    expect(exact?.message).toMatch(
      /^request\.verify: accepted a message whose (body \(byte \d+\)|URL|method|timestamp|nonce|appId) changed after signing \(body of \d+ bytes\)/,
    );
    expect((exact?.property?.counterexample as { parts: { bodyLength: number } }).parts.bodyLength).toBeGreaterThan(
      8192,
    );
  }, 60_000);
});
