/**
 * Loading an implementation as a module (--module, PGV2KIT_SUBJECT): each export form,
 * and each way a module can be unusable.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { combineSubjects } from '../../src/subjects/combine.js';
import { loadModuleSubject, ModuleSubjectError } from '../../src/subjects/module-subject.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';

const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const mod = (name: string, text: string): string => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe('loadModuleSubject', () => {
  it('takes an operations table: results, a throw as rejected, a non-object as failed, unknown names ignored', async () => {
    const s = await loadModuleSubject(
      mod(
        'ops.mjs',
        `export const implementation = { name: 'table', version: '1', language: 'js' };
         export const operations = {
           'signature.sign': (i) => ({ sign: 'x' + i.appId }),
           'authorization.parse': () => { throw new Error('bad header'); },
           'request.verify': () => 42,
           'no.such.op': () => ({}),
         };`,
      ),
      dir,
    );
    expect(s.implementation).toEqual({ name: 'table', version: '1', language: 'js' });
    expect(s.operations).toEqual(['signature.sign', 'authorization.parse', 'request.verify']);
    expect(await s.call('signature.sign', { appId: 'a' }, 'c')).toEqual({ result: { sign: 'xa' } });
    expect(await s.call('authorization.parse', {}, 'c')).toEqual({ rejected: { reason: 'bad header' } });
    expect(await s.call('request.verify', {}, 'c')).toEqual({
      failed: { reason: 'request.verify returned 42, not an object' },
    });
    expect(await s.call('response.verify', {}, 'c')).toEqual({
      unsupported: { reason: 'the module does not export response.verify' },
    });
  });

  it('takes a subject or a createSubject() export, with a default implementation name', async () => {
    const a = await loadModuleSubject(
      mod(
        'subject.mjs',
        `export const subject = { implementation: { name: 's', version: '0', language: 'js' }, operations: [], call: async () => ({ unsupported: { reason: 'none' } }) };`,
      ),
      dir,
    );
    expect(a.implementation.name).toBe('s');
    const b = await loadModuleSubject(
      mod(
        'create.mjs',
        `export async function createSubject() { return { implementation: { name: 'c', version: '0', language: 'js' }, operations: [], call: async () => ({ unsupported: { reason: 'none' } }) }; }`,
      ),
      dir,
    );
    expect(b.implementation.name).toBe('c');
    const c = await loadModuleSubject(
      mod('anon.mjs', `export const operations = { 'signature.sign': () => { throw 'plain'; } };`),
      dir,
    );
    expect(c.implementation).toEqual({ name: 'anon.mjs', version: 'unknown', language: 'javascript' });
    expect(await c.call('signature.sign', {}, 'x')).toEqual({ rejected: { reason: 'plain' } });
  });

  it('refuses a module that exports nothing usable, or cannot be imported', async () => {
    await expect(loadModuleSubject(mod('empty.mjs', 'export const nothing = 1;'), dir)).rejects.toThrow(
      new ModuleSubjectError('the module empty.mjs exports none of subject, createSubject() or operations'),
    );
    await expect(loadModuleSubject(mod('broken.mjs', 'export const = ;'), dir)).rejects.toThrow(
      /^cannot import the module broken\.mjs: /,
    );
    await expect(loadModuleSubject('missing.mjs', dir)).rejects.toBeInstanceOf(ModuleSubjectError);
  });

  it('loads a TypeScript module through tsx', async () => {
    const s = await loadModuleSubject(
      mod(
        'typed.ts',
        `export const operations: Record<string, (i: { appId: string }) => object> = { 'signature.sign': (i) => ({ sign: i.appId }) };`,
      ),
      dir,
    );
    expect(await s.call('signature.sign', { appId: 'q' }, 'c')).toEqual({ result: { sign: 'q' } });
  });
});

describe('combineSubjects', () => {
  it('sends each operation to the first subject that offers it, and closes them all', async () => {
    let closed = 0;
    const extra = {
      implementation: { name: 'x', version: '0', language: 'js' },
      operations: ['gateway.upload' as const],
      call: async () => ({ result: { status: 204 } }),
      close: async () => void closed++,
    };
    const s = combineSubjects(createReferenceSubject(), extra);
    expect(s.implementation.name).toBe('pgv2kit-reference');
    expect(s.operations).toContain('gateway.upload');
    expect(await s.call('gateway.upload', {}, 'c')).toEqual({ result: { status: 204 } });
    expect(await s.call('authorization.parse', { header: 'x' }, 'c')).toMatchObject({ rejected: {} });
    await s.close?.();
    expect(closed).toBe(1);
  });
});
