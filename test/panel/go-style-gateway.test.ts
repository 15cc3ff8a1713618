/**
 * A gateway of the panel: test/panel/members/go-style-gateway.py, a real HTTP server in a child
 * process whose header parser is py-go-style's (strings.TrimSpace, Split, EqualFold: R8 (a), (c),
 * (d), (e)). Conformant, so `fuzz --gateway` finds nothing at seeds 1–5, and the gateway-role cases
 * of signing it serves pass.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzHttp } from '../../src/fuzz/http.js';
import { runCases } from '../../src/runner/run.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { loadVectorSet } from '../../src/vectors/load.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CREDENTIALS = { appId: 'app_go_style', appSecret: 'go-style-secret' };
let child: ChildProcess;
let url: string;

beforeAll(async () => {
  child = spawn('python3', ['test/panel/members/go-style-gateway.py'], {
    cwd: root,
    env: { ...process.env, PGV2_APP_ID: CREDENTIALS.appId, PGV2_APP_SECRET: CREDENTIALS.appSecret },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  url = await new Promise<string>((resolve, reject) => {
    lines.once('line', (line) => resolve(line.replace(/^listening /, '')));
    child.once('exit', (code) => reject(new Error(`go-style-gateway.py exited with ${code} before listening`)));
  });
}, 20_000);

afterAll(async () => {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.stdin?.end(); // it stops when its stdin closes
  await exited;
});

describe('the Go-style gateway', () => {
  it('fuzz --gateway finds nothing at seeds 1–5', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = await fuzzHttp({ kind: 'gateway', url, ...CREDENTIALS, seed, runs: 40 });
      expect([seed, r.finding?.header, r.finding?.reason]).toEqual([seed, undefined, undefined]);
      expect(r.runs).toBe(40);
    }
  }, 60_000);

  it('passes the gateway-role cases of the credentials request that concern its signature', async () => {
    const set = loadVectorSet();
    const subject = createGatewaySubject({ baseUrl: url, ...CREDENTIALS });
    const only = [
      'gateway.credentials-valid',
      'gateway.credentials-changed-*',
      'gateway.credentials-header-ows-around-value',
      'gateway.credentials-unsigned',
      'gateway.credentials-header-missing-nonce',
      'gateway.credentials-other-scheme',
    ];
    const run = await runCases({
      set,
      subject,
      target: { kind: 'gateway', description: url },
      selection: { only, skip: [] },
    });
    expect(run.cases.filter((c) => c.verdict !== 'passed').map((c) => `${c.id}: ${c.message}`)).toEqual([]);
    expect(run.cases.length).toBeGreaterThanOrEqual(8);
  }, 60_000);
});
