/**
 * The layer rules of .dependency-cruiser.cjs (npm run layers, in npm test) refuse what they
 * are meant to refuse: an import of a layer above, a cycle, a reach into another folder's _
 * file; and let through what is allowed: an import of a layer below, a cycle through a lazy
 * import. Run on a small tree written for the purpose, with the kit's own config.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-layers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(dir, 't-'));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
      include: ['src'],
    }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** dependency-cruiser over a tree, in a child process (async: the two trees are cruised at once). */
async function cruise(root: string): Promise<{ code: number | null; out: string }> {
  try {
    const r = await promisify(execFile)(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
        'src',
        '--config',
        join(ROOT, '.dependency-cruiser.cjs'),
        '--output-type',
        'err',
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    return { code: 0, out: r.stdout + r.stderr };
  } catch (e) {
    const err = e as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : null, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe.concurrent('the layer rules', () => {
  it("refuse an import of a layer above, a cycle, and a reach into another folder's _ file", async () => {
    const root = tree({
      'src/scheme/a.ts': "import { b } from '../cli/b.js';\nexport const a = b;\n",
      'src/cli/b.ts': 'export const b = 1;\n',
      'src/checks/c.ts': "import { d } from './d.js';\nexport const c = () => d;\n",
      'src/checks/d.ts': "import { c } from './c.js';\nexport const d = () => c;\n",
      'src/reports/r.ts': "import { p } from '../runner/_private.js';\nexport const r = p;\n",
      'src/runner/_private.ts': 'export const p = 1;\n',
    });
    const r = await cruise(root);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/layer-scheme: src\/scheme\/a\.ts → src\/cli\/b\.ts/);
    expect(r.out).toMatch(/no-circular: src\/checks\/[cd]\.ts/);
    expect(r.out).toMatch(/no-reach-into-private: src\/reports\/r\.ts → src\/runner\/_private\.ts/);
  });

  it("let through an import of a layer below, a folder's own _ file, and a cycle through a lazy import", async () => {
    const root = tree({
      'src/cli/b.ts':
        "import { a } from '../scheme/a.js';\nimport { q } from './_q.js';\nexport const b = a + q;\nexport const load = () => import('./c.js');\n",
      'src/cli/_q.ts': 'export const q = 1;\n',
      'src/cli/c.ts': "import type { b } from './b.js';\nexport const c: typeof b = 1;\n",
      'src/scheme/a.ts': 'export const a = 1;\n',
    });
    const r = await cruise(root);
    expect(r.out).toContain('no dependency violations found');
    expect(r.code).toBe(0);
  });
});
