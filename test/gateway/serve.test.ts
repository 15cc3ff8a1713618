/**
 * `pgv2kit serve`: the real binary as a child process (URLs printed, one signed request,
 * stopped by SIGTERM), and in process: options, credentials from flags or environment,
 * the JSON line, secrets masked, start-up failures.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serve } from '../../src/cli/commands/serve.run.js';
import type { CliIo } from '../../src/cli/io.js';
import type { Gateway } from '../../src/gateway/index.js';
import { verifyResponse } from '../../src/scheme/verify.js';
import { alive } from '../_support.js';
import { run } from '../cli/_run.js';
import { CREDENTIALS_PATH, PDF_BODY, authHeader, signedPost } from './_support.js';

const ROOT = join(import.meta.dirname, '../..');
const DEMO = { appId: 'pgv2kit-demo', appSecret: 'pgv2kit-demo-secret' };

describe('pgv2kit serve as a child process', () => {
  it('prints the URLs and the merchant, answers a signed request, stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'bin/pgv2kit.js'), 'serve', '--port', '0'], {
      cwd: ROOT,
      env: { ...process.env, PGV2_APP_ID: '', PGV2_APP_SECRET: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => void (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 200 && !stdout.includes('Stop with'); i++) await new Promise((r) => setTimeout(r, 25));
      const baseUrl = /^base URL +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
      const uploadUrl = /^upload URL +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
      expect(baseUrl, stdout + stderr).toBeDefined();
      expect(uploadUrl).toBeDefined();
      expect(uploadUrl).not.toBe(baseUrl);
      expect(stdout).toMatch(/^appId +pgv2kit-demo$/m);
      // the demo secret is published: in clear, labelled as a test credential (a masked one could not be used)
      expect(stdout).toMatch(
        /^secret +pgv2kit-demo-secret \(the demo merchant's: a published test credential, never a real one\)$/m,
      );
      expect(stdout).toContain(`POST ${baseUrl}/pg/v2/file/generateUploadUrl`);
      const url = `${baseUrl}${CREDENTIALS_PATH}`;
      const a = await signedPost(url, PDF_BODY, {}, DEMO);
      expect(a.status).toBe(200);
      expect(
        verifyResponse({
          ...DEMO,
          method: 'POST',
          url,
          status: 200,
          authorization: String(a.headers['authorization']),
          body: a.bytes,
        }).valid,
      ).toBe(true);
      for (let i = 0; i < 100 && !stderr.includes('-> 200 OK'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(stderr).toMatch(/api POST \/pg\/v2\/file\/generateUploadUrl -> 200 OK/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(stdout).toMatch(/stopped \(SIGTERM\)\n$/);
      // printed once, on its labelled line; the request log does not repeat it
      expect((stdout + stderr).split(DEMO.appSecret).length - 1).toBe(1);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('pgv2kit serve outliving the process that started it', () => {
  it('stops when its parent is killed (SIGKILL: nothing is passed on, as with npx): a line on stderr, the servers closed', async () => {
    // the parent: starts serve (its output straight to this test's pipes), says serve's pid, then waits to be killed
    const script = [
      "const { spawn } = require('node:child_process');",
      `const c = spawn(process.execPath, [${JSON.stringify(join(ROOT, 'bin/pgv2kit.js'))}, 'serve', '--port', '0', '--upload-port', '0'], { stdio: ['ignore', 'inherit', 'inherit'] });`,
      'process.stdout.write(`serve pid ${c.pid}\\n`);',
      'setInterval(() => {}, 1000);',
    ].join('\n');
    const parent = spawn(process.execPath, ['-e', script], {
      cwd: ROOT,
      env: { ...process.env, PGV2_APP_ID: '', PGV2_APP_SECRET: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    parent.stdout.setEncoding('utf8').on('data', (c: string) => void (stdout += c));
    parent.stderr.setEncoding('utf8').on('data', (c: string) => void (stderr += c));
    // every holder of the pipes gone: the parent and serve
    const closed = new Promise<void>((resolve) => parent.on('close', () => resolve()));
    let servePid = 0;
    try {
      for (let i = 0; i < 400 && !stdout.includes('Stop with'); i++) await new Promise((r) => setTimeout(r, 25));
      servePid = Number(/^serve pid (\d+)$/m.exec(stdout)?.[1]);
      const baseUrl = /^base URL +(http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
      expect(baseUrl, stdout + stderr).toBeDefined();
      expect(alive(servePid)).toBe(true);
      // it answers (an unsigned request is refused): the servers listen
      expect((await fetch(`${baseUrl}/pg/v2/payment/create`, { method: 'POST' })).status).toBeGreaterThanOrEqual(400);

      parent.kill('SIGKILL');
      // bounded: serve looks for its parent twice a second
      for (let i = 0; i < 200 && alive(servePid); i++) await new Promise((r) => setTimeout(r, 50));
      expect(alive(servePid)).toBe(false);
      await closed;
      expect(stderr).toContain(`pgv2kit serve: the process that started it (pid ${parent.pid}) has exited: stopping\n`);
      expect(stdout).toMatch(/stopped \(its parent process exited\)\n$/);
      await expect(fetch(`${baseUrl}/pg/v2/payment/create`, { method: 'POST' })).rejects.toThrow();
    } finally {
      parent.kill('SIGKILL');
      if (servePid > 0 && alive(servePid)) process.kill(servePid, 'SIGKILL');
    }
  }, 30_000);
});

describe('pgv2kit serve in process', () => {
  it.each([
    [['serve', '--port', 'abc'], /--port must be a port number from 0 to 65535, not "abc"/],
    [['serve', '--upload-port', '70000'], /--upload-port must be a port number/],
    [['serve', '--app-id', 'app_1'], /appId "app_1" needs a secret: set PGV2_APP_SECRET/],
    [['serve', '--secret', 'abcdefgh'], /--secret needs an appId/],
    [['serve', '--app-id', 'a b', '--secret', 'abcdefgh'], /comma or white space/],
    [['serve', '--host', ' '], /--host needs an address/],
  ])('%j: usage error, exit 2', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toContain('abcdefgh');
  });

  /** Runs serve() with a captured io until `body` is done with the gateway. */
  async function inProcess(
    values: Parameters<typeof serve>[0],
    env: Record<string, string>,
    body: (g: Gateway) => Promise<void>,
  ): Promise<{ code: number; stdout: string; stderr: string; secrets: string[] }> {
    let stdout = '';
    let stderr = '';
    const secrets: string[] = [];
    const io: CliIo = { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), env, cwd: ROOT };
    let stop!: (reason: string) => void;
    const stopped = new Promise<string>((resolve) => (stop = resolve));
    let failed: unknown;
    const code = await serve(
      values,
      io,
      (s) => secrets.push(s),
      () => stopped,
      (g) => {
        body(g)
          .catch((e: unknown) => (failed = e))
          .finally(() => stop('test'));
      },
    );
    if (failed) throw failed;
    return { code, stdout, stderr, secrets };
  }

  it('credentials from the environment, --json, --storage-dir kept, --quiet', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-serve-'));
    try {
      const merchant = { appId: 'app_env', appSecret: 'env-secret-123' };
      const r = await inProcess(
        { json: true, quiet: true, 'storage-dir': dir },
        { PGV2_APP_ID: merchant.appId, PGV2_APP_SECRET: merchant.appSecret },
        async (g) => {
          expect(g.storage.dir).toBe(dir);
          expect((await signedPost(`${g.baseUrl}${CREDENTIALS_PATH}`, PDF_BODY, {}, merchant)).status).toBe(200);
        },
      );
      expect(r.code).toBe(0);
      const line = JSON.parse(r.stdout) as Record<string, string>;
      expect(line).toEqual({
        baseUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as string,
        uploadUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) as string,
        appId: 'app_env',
        secret: 'en************ (14 chars)',
        testCredential: false,
        storageDir: dir,
      });
      expect(r.stderr).toBe('');
      expect(r.secrets).toEqual([merchant.appSecret]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--app-id and --secret, a host that is not loopback (warned; URLs reach it on 127.0.0.1), a request log line', async () => {
    const merchant = { appId: 'app_flag', appSecret: 'flag-secret-456' };
    const r = await inProcess(
      { 'app-id': merchant.appId, secret: merchant.appSecret, host: '0.0.0.0' },
      {},
      async (g) => {
        expect(g.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:/);
        expect((await signedPost(`${g.baseUrl}${CREDENTIALS_PATH}`, '{}', {}, merchant)).status).toBe(400);
      },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^secret +fl\*{13} \(15 chars\) \(from --secret\)$/m);
    expect(r.stdout).toMatch(/stopped \(test\)\n$/);
    expect(r.stderr).toMatch(/^pgv2kit serve: warning: listening on 0\.0\.0\.0: reachable from other machines/);
    expect(r.stderr).toMatch(
      /api POST \/pg\/v2\/file\/generateUploadUrl -> 400 INVALID_ARGUMENT: filename breaks required/,
    );
  });

  it.each([
    [{}, 401],
    [{ 'ignore-empty-items': true, 'fold-item-names': true }, 200],
  ])(
    'R8 (d), (e) as chosen (%j): a genuine header with a recased name and a trailing comma gets %i',
    async (values, status) => {
      const r = await inProcess({ quiet: true, ...values }, {}, async (g) => {
        const url = `${g.baseUrl}${CREDENTIALS_PATH}`;
        const authorization = `${authHeader({ ...DEMO, url, body: PDF_BODY }).replace('appId=', 'AppId=')},`;
        expect((await signedPost(url, PDF_BODY, { authorization }, DEMO)).status).toBe(status);
      });
      expect(r.code).toBe(0);
    },
  );

  it('the demo merchant: its published secret in clear in the JSON line, marked a test credential, never declared a secret to mask', async () => {
    const r = await inProcess({ json: true, quiet: true }, {}, async () => undefined);
    expect(JSON.parse(r.stdout.split('\n')[0] ?? '')).toMatchObject({
      appId: DEMO.appId,
      secret: DEMO.appSecret,
      testCredential: true,
    });
    expect(r.secrets).toEqual([]);
  });

  it('a secret from PGV2_APP_SECRET with the appId flag is labelled so', async () => {
    const r = await inProcess(
      { 'app-id': 'app_mix', quiet: true },
      { PGV2_APP_SECRET: 'mixed-secret-789' },
      async () => undefined,
    );
    expect(r.stdout).toMatch(/\(from PGV2_APP_SECRET\)$/m);
  });

  it('a port in use: exit 3 with the reason', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = String((blocker.address() as { port: number }).port);
      let err = '';
      const io: CliIo = { stdout: () => undefined, stderr: (s) => void (err += s), env: {}, cwd: ROOT };
      expect(
        await serve(
          { port },
          io,
          () => undefined,
          () => new Promise(() => undefined),
        ),
      ).toBe(3);
      expect(err).toMatch(/^pgv2kit serve: the gateway could not start: .*EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });
});
