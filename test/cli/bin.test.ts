/**
 * The real `pgv2kit` binary, as a child process: bin/pgv2kit.js over the compiled dist/.
 * dist/ is built by the vitest global setup when it is stale.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'pgv2kit.js');
const ENTRY = join(ROOT, 'dist', 'cli', 'main.js');

function pgv2kit(
  args: readonly string[],
  env: Record<string, string> = {},
  bin = BIN,
): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', ...env },
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // suites/_support/build-dist.ts (vitest global setup) builds dist/ when it is stale
  expect(existsSync(ENTRY), 'npm run build did not produce dist/cli/main.js').toBe(true);
});

describe('bin/pgv2kit.js', () => {
  it('--version prints the version of package.json, exit 0', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(pgv2kit(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('explain end to end: MATCH exits 0, MISMATCH exits 1, the secret never printed', () => {
    const secret = 'sk_live_Bin7Tq2Wz9Xc4Vn';
    const content = `app_bin\n${secret}\nGET\nhttps://pg.example.com/pg/v2/payment/query?no=1\n1717171717000\nn-bin\n\n`;
    const sign = createHash('sha256').update(content).digest('hex');
    const args = [
      'explain',
      '--app-id',
      'app_bin',
      '--method',
      'GET',
      '--url',
      'https://pg.example.com/pg/v2/payment/query?no=1',
    ];
    const match = pgv2kit(
      [...args, '--authorization', `V2_SHA256 appId=app_bin,sign=${sign},timestamp=1717171717000,nonce=n-bin`],
      { PGV2_APP_SECRET: secret },
    );
    expect(match.stderr).toBe('');
    expect(match.code).toBe(0);
    expect(match.stdout).toContain("MATCH: the header's sign is the SHA-256 of the content above.");
    const mismatch = pgv2kit(
      [
        ...args,
        '--authorization',
        `V2_SHA256 appId=app_bin,sign=${'0'.repeat(64)},timestamp=1717171717000,nonce=n-bin`,
      ],
      { PGV2_APP_SECRET: secret },
    );
    expect(mismatch.code).toBe(1);
    for (const r of [match, mismatch]) expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('prepare (npm ci, npm pack, and npx in a clone, which links the clone into its cache) leaves a fresh dist/ as it is', () => {
    const entry = join(ROOT, 'dist/cli/main.js');
    const before = statSync(entry).mtimeMs;
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts/prepare.mjs')], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('not built again');
    expect(statSync(entry).mtimeMs).toBe(before);
  });

  it('a usage error exits 2 with one line and the hint, no stack trace', () => {
    expect(pgv2kit(['explain', '--bogus'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'pgv2kit explain: unknown option --bogus\nsee pgv2kit explain --help\n',
    });
  });

  it('without dist/ it names the command that builds it, in the kit folder quoted for sh, and exits 3', () => {
    // a folder name a shell would split or mangle: the printed cd must still land there
    const dir = mkdtempSync(join(tmpdir(), "pgv2kit bin 'x'-"));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(BIN, join(dir, 'bin', 'pgv2kit.js'));
      const r = pgv2kit(['--version'], {}, join(dir, 'bin', 'pgv2kit.js'));
      expect(r.code).toBe(3);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`the compiled CLI (dist/) is missing in ${dir}\n`);
      const fix = /^build it: (cd .*) && npm run build$/m.exec(r.stderr);
      expect(fix, r.stderr).not.toBeNull();
      expect(execFileSync('sh', ['-c', `${fix?.[1] ?? ''} && pwd -P`], { encoding: 'utf8' }).trim()).toBe(
        realpathSync(dir),
      );
      // the script it names is the one npm's prepare runs on npm ci / npm install in a clone
      const scripts = (
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
      ).scripts;
      expect(scripts['build']).toContain('tsc');
      expect(scripts['prepare']).toBe('node scripts/prepare.mjs');
      expect(readFileSync(join(ROOT, 'scripts/prepare.mjs'), 'utf8')).toContain("['run', 'build']");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
