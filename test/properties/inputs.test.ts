/**
 * The properties' inputs reach what vectors cannot (issue 10, item 2): in the first 100 inputs
 * of a run, bodies at the buffer boundaries and up to 64 KiB, bodies ending in LF, CRLF and white
 * space, bytes that are not UTF-8, JSON with deep nesting, duplicate keys and unicode escapes;
 * URLs with ports, queries, percent-encoding of both cases and trailing slashes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOUNDARY_SIZES,
  MAX_BODY,
  propertyBodyArb,
  propertyPartsArb,
  propertyUrlArb,
} from '../../src/properties/inputs.js';

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const valid = (b: Uint8Array): boolean => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(b);
    return true;
  } catch {
    return false;
  }
};

describe('property inputs', () => {
  it('are sized at and around 1, 4, 8, 16 and 64 KiB', () => {
    expect(BOUNDARY_SIZES).toEqual([
      1023, 1024, 1025, 4095, 4096, 4097, 8191, 8192, 8193, 16383, 16384, 16385, 65535, 65536, 65537,
    ]);
    expect(MAX_BODY).toBe(65537);
  });

  it.each([1, 2, 3])('reach every kind of body in the first 100 inputs (seed %i)', (seed) => {
    const bodies = fc.sample(propertyBodyArb, { seed, numRuns: 100 });
    const sizes = new Set(bodies.map((b) => b.byteLength));
    expect(bodies.some((b) => b.byteLength === 0)).toBe(true);
    expect(bodies.filter((b) => b.byteLength > 8192).length).toBeGreaterThan(10);
    expect(bodies.some((b) => b.byteLength >= 65535)).toBe(true);
    expect(BOUNDARY_SIZES.filter((s) => sizes.has(s)).length).toBeGreaterThan(5);
    expect(bodies.every((b) => b.byteLength <= MAX_BODY)).toBe(true);
    expect(bodies.some((b) => text(b).endsWith('\r\n'))).toBe(true);
    expect(bodies.some((b) => text(b).endsWith('\n') && !text(b).endsWith('\r\n'))).toBe(true);
    expect(bodies.some((b) => / $|\t$/.test(text(b)))).toBe(true);
    expect(bodies.some((b) => !valid(b))).toBe(true);
  });

  it('hold JSON with deep nesting, duplicate keys and unicode escapes', () => {
    const bodies = fc.sample(propertyBodyArb, { seed: 5, numRuns: 400 }).map(text);
    expect(bodies.some((t) => t.startsWith('{"a":{"a":{"a":'))).toBe(true);
    expect(bodies.some((t) => /^\{"amount":.*,"amount":/.test(t))).toBe(true);
    expect(bodies.some((t) => t.includes('{"text":"\\u'))).toBe(true);
  });

  it('give URLs with ports, queries, percent-encoding of both cases and trailing slashes', () => {
    const urls = fc.sample(propertyUrlArb, { seed: 6, numRuns: 300 });
    expect(urls.some((u) => /:443\//.test(u))).toBe(true);
    expect(urls.some((u) => /:8443\//.test(u))).toBe(true);
    expect(urls.some((u) => u.includes('?'))).toBe(true);
    expect(urls.some((u) => /%[0-9a-f][a-f]/.test(u))).toBe(true);
    expect(urls.some((u) => /%[0-9A-F][A-F]/.test(u))).toBe(true);
    expect(urls.some((u) => /[^/]\/(\?|$)/.test(u) && !/:\/\/[^/]+\/$/.test(u))).toBe(true);
  });

  it('give non-ASCII appIds and nonces that a header carries verbatim', () => {
    const parts = fc.sample(propertyPartsArb, { seed: 7, numRuns: 300 });
    expect(parts.some((p) => /[^\x00-\x7f]/.test(p.appId))).toBe(true);
    expect(parts.some((p) => /[^\x00-\x7f]/.test(p.nonce))).toBe(true);
    expect(parts.every((p) => !/[\s,]/.test(p.appId + p.nonce + p.timestamp))).toBe(true);
  });
});
