/**
 * The HTTP roles under an absent, a slow and a flooding target (issue 12, item 5): a target that
 * cannot be reached is one line and exit 3 in run --gateway, run --merchant, certify and fuzz,
 * before any case; a target that connects and never answers fails its checks (exit 1), never
 * "unreachable"; --deadline stops a run (exit 3, reports marked); an answer of a gigabyte is read
 * only as far as the judgement needs.
 */
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, MAX_BODY_BYTES } from '../../src/roles/merchant/as-gateway/send.js';
import { reach } from '../../src/subjects/reach.js';
import { tempFolders } from '../_support.js';
import { run } from './_run.js';

const tmp = tempFolders('pgv2kit-reach-');
const CREDENTIALS = { PGV2_APP_ID: 'app_reach', PGV2_APP_SECRET: 'sk_test_reach_secret_0001' };
// port 1: nothing listens there (a port freed by closing a server could be taken by a concurrent test)
const NOWHERE = 'http://127.0.0.1:1';

/** A server that accepts every connection and never answers (its sockets held until the end). */
let silent: TcpServer;
let silentUrl = '';
const held: Socket[] = [];
beforeAll(async () => {
  silent = createTcpServer((s) => void held.push(s.on('error', () => undefined)));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of held) s.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('reach', () => {
  it('a port nothing listens on: refused, named; a listening one: reached', async () => {
    expect(await reach(NOWHERE, 2000)).toEqual({ ok: false, reason: 'connection refused (127.0.0.1:1)' });
    expect(await reach(`${silentUrl}/anything?x=1`, 2000)).toMatchObject({ ok: true });
    expect(await reach('not a url', 2000)).toEqual({ ok: false, reason: '"not a url" is not a URL' });
  });
});

describe.concurrent('an unreachable target: one line, exit 3, before any case', () => {
  it.each([
    [
      ['run', '--gateway', NOWHERE],
      'gateway',
      NOWHERE,
      `the gateway at ${NOWHERE} cannot be reached: connection refused (127.0.0.1:1)`,
    ],
    [
      ['run', '--merchant', '--notify-url', `${NOWHERE}/n`, '--return-url', `${NOWHERE}/r`],
      'merchant',
      `${NOWHERE}/n`,
      `the merchant's notify endpoint at ${NOWHERE}/n cannot be reached: connection refused (127.0.0.1:1)`,
    ],
  ])('%j: the line, and reports that say no case ran and why', async (argv, kind, url, why) => {
    const cwd = tmp();
    const r = await run([...argv, '--report-dir', 'r'], { env: CREDENTIALS, cwd });
    expect(r).toEqual({ code: 3, stdout: `reports: ${join(cwd, 'r')}\n`, stderr: `pgv2kit run: ${why}\n` });
    const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as Record<string, unknown>;
    expect(results).toMatchObject({
      conformant: false,
      cases: [],
      target: { kind, description: url },
      aborted: {
        kind: 'target-unreachable',
        message: why,
        command: url,
        ended: 'not reached: connection refused (127.0.0.1:1)',
        stderrTail: [],
      },
    });
    // what to do about it, as docs/failures/target-unreachable.md says, the page named in the kit
    expect(readFileSync(join(cwd, 'r', 'report.md'), 'utf8')).toMatch(
      new RegExp(
        `\\*\\*The target could not be reached\\*\\*: ${why.replace(/[.()]/g, '\\$&')}\\. No case ran\\. How to fix it: Check the URL with \`curl -v <url>\` .* \\(docs/failures/target-unreachable\\.md in the kit\\)\n`,
      ),
    );
    expect(readFileSync(join(cwd, 'r', 'report.html'), 'utf8')).toContain('<h2>The target could not be reached</h2>');
    expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain('name="run.target-unreachable"');
  });

  it('fuzz: one line, exit 3', async () => {
    const r = await run(['fuzz', '--gateway', NOWHERE, '--runs', '5'], { env: CREDENTIALS, cwd: tmp() });
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: `pgv2kit fuzz: the gateway at ${NOWHERE} cannot be reached: connection refused (127.0.0.1:1)\n`,
    });
  });

  it('the return endpoint is reached too, when it is elsewhere', async () => {
    const r = await run(
      ['run', '--merchant', '--notify-url', `${silentUrl}/n`, '--return-url', `${NOWHERE}/r`, '--no-reports'],
      { env: CREDENTIALS },
    );
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: `pgv2kit run: the merchant's return endpoint at ${NOWHERE}/r cannot be reached: connection refused (127.0.0.1:1)\n`,
    });
  });
});

describe.concurrent(
  'a target that connects and never answers: its checks fail (exit 1), it is not "unreachable"',
  () => {
    it('certify: NOT CERTIFIED, exit 1, every call a timeout, the reason says so', async () => {
      const dir = join(tmp(), 'r');
      const r = await run(
        [
          'certify',
          '--notify-url',
          `${silentUrl}/n`,
          '--return-url',
          `${silentUrl}/r`,
          '--timeout',
          '0.025',
          '--seed',
          '1',
          '--report-dir',
          dir,
        ],
        { env: CREDENTIALS },
      );
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/reason: the merchant answered none of the (\d+) calls sent \(\1 timeout\)\n/);
      expect(r.stdout).toContain('Verdict: NOT CERTIFIED');
      expect(r.stdout + r.stderr).not.toContain('cannot be reached');
    });

    it('run --gateway: the cases error on the timeout, exit 1', async () => {
      const cwd = tmp();
      const r = await run(
        [
          'run',
          '--gateway',
          silentUrl,
          '--only',
          'gateway.credentials-valid,gateway.credentials-changed-*',
          '--timeout',
          '0.2',
          '--report-dir',
          'r',
        ],
        { env: CREDENTIALS, cwd },
      );
      expect(r.code).toBe(1);
      const json = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
        cases: Array<{ verdict: string; message: string }>;
      };
      expect(json.cases.length).toBeGreaterThan(0);
      expect(json.cases.every((c) => c.verdict === 'error' && /timed out after 200 ms/.test(c.message))).toBe(true);
    });
  },
);

describe.concurrent('--deadline', () => {
  it('run: no case starts after it; the rest are not run, the reports say DEADLINE PASSED, exit 3', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--merchant',
        '--notify-url',
        `${silentUrl}/n`,
        '--return-url',
        `${silentUrl}/r`,
        '--timeout',
        '0.2',
        '--deadline',
        '0.5',
        '--report-dir',
        'r',
      ],
      { env: CREDENTIALS, cwd },
    );
    expect(r.code).toBe(3);
    const json = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
      stopped: { kind: string; reason: string; notRun: number };
      conformant: boolean;
      cases: unknown[];
    };
    expect(json.stopped).toEqual({
      kind: 'deadline',
      reason: "the run's deadline of 0.5 s passed (--deadline)",
      notRun: expect.any(Number),
    });
    expect(json.stopped.notRun).toBeGreaterThan(30);
    expect(json.cases.length).toBeLessThan(10);
    expect(json.conformant).toBe(false);
    expect(r.stderr).toContain(
      `pgv2kit run: stopped early: the run's deadline of 0.5 s passed (--deadline); ${json.stopped.notRun} selected cases not run`,
    );
    expect(readFileSync(join(cwd, 'r', 'report.md'), 'utf8')).toContain(
      "**Deadline passed: the run's deadline of 0.5 s passed (--deadline).**",
    );
    expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toMatch(
      /name="run\.deadline"[^]*<error message="the run(&apos;|')s deadline/,
    );
  });

  it('certify: NOT CERTIFIED with the deadline as a reason, exit 3', async () => {
    const dir = join(tmp(), 'r');
    const r = await run(
      [
        'certify',
        '--notify-url',
        `${silentUrl}/n`,
        '--return-url',
        `${silentUrl}/r`,
        '--timeout',
        '0.2',
        '--deadline',
        '0.5',
        '--seed',
        '1',
        '--report-dir',
        dir,
      ],
      { env: CREDENTIALS },
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(
      /reason: the run's deadline of 0\.5 s passed \(--deadline\): \d+ of the checks did not run\n/,
    );
  });

  it.each([['0'], ['soon']])('--deadline %s → exit 2', async (value) => {
    const r = await run(['run', '--deadline', value, '--no-reports']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `pgv2kit run: --deadline must be a positive number, not ${JSON.stringify(value)}\nsee pgv2kit run --help\n`,
    });
  });
});

describe('an answer of a gigabyte', () => {
  let server: Server;
  let url = '';
  let written = 0;
  beforeAll(async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      // 1 GiB, written as fast as it is read: what the kit reads is what it costs
      const pump = (): void => {
        while (written < 1024 ** 3 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => undefined);
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('the merchant role reads at most MAX_BODY_BYTES of it, keeps 4096 characters, and moves on', async () => {
    const sender = createSender(5000);
    try {
      const outcome = await sender.send({
        method: 'POST',
        url,
        headers: [['content-type', 'application/json']],
        body: '{}',
      });
      expect(outcome).toMatchObject({ kind: 'response', status: 200 });
      expect(outcome.kind === 'response' ? outcome.body : '').toBe(`${'a'.repeat(4096)}…`);
    } finally {
      await sender.close();
    }
    // what the server managed to write before the connection went: the kit's read plus the socket buffers, never the gigabyte
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBeLessThan(MAX_BODY_BYTES + 16 * 1024 * 1024);
  });
});
