/**
 * What the npm package ships (`npm pack --dry-run --json`, scripts not run): the docs
 * that messages and reports cite, the example adapters `run --help` names, and every
 * path that `run --help`, README.md and the guides (docs/guide/) mention (paths in the
 * repository's development folders excepted: README says they are in the repository only).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { run } from '../cli/_run.js';

const ROOT = PACKAGE_ROOT;
/** Folders of the repository that the package does not ship (README's layout says so). */
const DEVELOPMENT = ['src/', 'suites/', 'test/', 'bench/', 'reports/', '.ci/', 'scripts/'];

/** The front door and the guides: what a user reads first, shipped with the package. */
const MARKDOWN = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs/guide'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/guide/${f}`),
];

let files: Set<string>;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: 60_000,
  });
  const [pack] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
  files = new Set((pack?.files ?? []).map((f) => f.path));
}, 90_000);

/** Whether the package holds the path: a file, or a folder with a file in it. */
function shipped(path: string): boolean {
  const p = path.replace(/^\.\//, '');
  if (files.has(p)) return true;
  const folder = p.endsWith('/') ? p : `${p}/`;
  return [...files].some((f) => f.startsWith(folder));
}

describe('the npm package', () => {
  it.each([
    'docs/gateway-spec.md',
    'docs/readings.md',
    'docs/PROTOCOL.md',
    'docs/README.md',
    'examples/node-adapter/adapter.mjs',
    'examples/python-adapter/pgv2kit_adapter.py',
    'examples/sample-merchant/merchant.mjs',
    'examples/consumers/python/test_signature_vectors.py',
    'examples/consumers/node/signature-vectors.test.mjs',
    'vectors-json/index.json',
    'vectors-json/signature/basics.json',
    'vectors-json/schema/signature.schema.json',
    'LICENSE',
    'src/protocol/protocol-v1.schema.json',
    'src/reports/results-v2.schema.json',
    'dist/reports/shard.schema.json',
    'dist/docs/refs.js',
    'package.json',
  ])('ships %s', (path) => {
    expect(files.has(path), `${path} is not in npm pack's list`).toBe(true);
  });

  it('ships every page of docs/mistakes and docs/failures', () => {
    const pages = [...files].filter((f) => /^docs\/(mistakes|failures)\/[a-z0-9-]+\.md$/.test(f));
    expect(pages.filter((f) => f.startsWith('docs/mistakes/')).length).toBeGreaterThan(50);
    expect(pages.filter((f) => f.startsWith('docs/failures/')).length).toBeGreaterThan(30);
    expect(files.has('docs/mistakes/no-final-lf.md')).toBe(true);
  });

  it('ships no tests, suites or sources beyond the published schemas', () => {
    const schemas = ['src/protocol/protocol-v1.schema.json', 'src/reports/results-v2.schema.json'];
    expect([...files].filter((f) => /^(test|suites|bench|src)\//.test(f) && !schemas.includes(f))).toEqual([]);
  });

  it('every path `pgv2kit run --help` names is in the package', async () => {
    const help = (await run(['run', '--help'])).stdout;
    const paths = [...help.matchAll(/\b((?:docs|examples|vectors|bin|dist|src)\/[\w./-]*[\w/])/g)].map(
      (m) => m[1] ?? '',
    );
    expect(paths).toContain('docs/PROTOCOL.md');
    expect(paths).toContain('examples/python-adapter/pgv2kit_adapter.py');
    expect(paths.filter((p) => !shipped(p))).toEqual([]);
  });

  it.each(MARKDOWN)('every path %s mentions is in the package (development folders: in the repository)', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(text).not.toContain('../shared/');
    const mentioned = new Set<string>();
    for (const m of text.matchAll(/\]\(([^)\s#]+)[^)]*\)|`([^`\s]+)`/g)) {
      // a link is relative to its file, a path in code to the kit's folder
      const p =
        m[1] !== undefined ? relative(ROOT, resolve(ROOT, dirname(file), m[1])) : (m[2] ?? '').replace(/^\.\//, '');
      const top = p.split('/')[0] ?? '';
      if (
        /^[\w.-]+(\/[\w.-]+)*\/?$/.test(p) &&
        p.includes('/') &&
        !p.startsWith('..') &&
        top !== 'node_modules' &&
        existsSync(join(ROOT, top))
      )
        mentioned.add(p);
    }
    if (file === 'README.md') {
      expect(mentioned).toContain('docs/gateway-spec.md');
      expect(mentioned).toContain('examples/python-adapter/pgv2kit_adapter.py');
    }
    const missing = [...mentioned].filter((p) =>
      DEVELOPMENT.some((d) => p.startsWith(d)) ? !existsSync(join(ROOT, p)) : !shipped(p),
    );
    expect(missing).toEqual([]);
  });
});
