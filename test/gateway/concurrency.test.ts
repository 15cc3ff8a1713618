/**
 * Concurrent uploads keep their bytes apart: 20 uploads of 2 MiB at once, each file
 * different, each stored byte-identical under its own storageUri.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '../../src/gateway/index.js';
import { MERCHANT, correctForm, credentials, postForm } from './_support.js';

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startGateway({ merchants: [MERCHANT] });
});
afterAll(() => gateway.close());

/** 2 MiB whose byte j is (j * 7 + i) mod 256: every byte value, a different file for each i. */
function fileFor(i: number): Uint8Array {
  const out = new Uint8Array(2 * 1024 * 1024);
  for (let j = 0; j < out.length; j++) out[j] = (j * 7 + i) % 256;
  return out;
}

describe('concurrent uploads', () => {
  it('20 uploads of 2 MiB at once: every stored file byte-identical', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const { data } = await credentials(gateway, `conc.${i}`);
        const file = fileFor(i);
        const r = await postForm(data.uploadUrl, correctForm(data, file));
        return {
          i,
          status: r.status,
          storageUri: data.storageUri,
          sha256: createHash('sha256').update(file).digest('hex'),
        };
      }),
    );
    expect(results.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 204));
    for (const r of results) {
      expect(gateway.storage.get(r.storageUri)?.sha256).toBe(r.sha256);
      const bytes = await gateway.storage.read(r.storageUri);
      expect(bytes && Buffer.from(bytes).equals(Buffer.from(fileFor(r.i)))).toBe(true);
      expect(gateway.recorder.for(`conc.${r.i}`).uploads[0]?.stored).toBe(true);
    }
    expect(new Set(results.map((r) => r.storageUri)).size).toBe(20);
    expect(await gateway.storage.read('s3://nowhere/x.pdf')).toBeUndefined();
  });
});
