/**
 * The gateway zoo (issue 24, item 6): the gateway role run against each member of ./registry.ts — the
 * reference gateway behind a front with one bug — must fail every case the member lists, each with a
 * message; and the front without a bug must pass every gateway case, so what fails is the bug, never the
 * front. Each member runs the cases it lists (the rule its bug breaks), not the whole role: the control
 * run shows the rest pass through the front untouched.
 *
 * `GATEWAY_ZOO_SUMMARY=1 npx vitest run test/zoo/gateways` prints each member's failing cases.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCases } from '../../../src/runner/run.js';
import { createGatewaySubject } from '../../../src/roles/gateway/subject.js';
import { loadVectorSet } from '../../../src/vectors/load.js';
import { startZooGateway, type GatewayBug } from './proxy.js';
import { GATEWAY_ZOO, INDEPENDENT_ZOO, type IndependentMember } from './registry.js';

const set = loadVectorSet();
const live = new Set(set.cases.filter((c) => c.case.kind === 'gateway' && !c.case.supersededBy).map((c) => c.case.id));

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const INDEPENDENT_CREDENTIALS = { appId: 'zoo-independent-app', appSecret: 'zoo-independent-secret' };

/**
 * A zoo gateway of its own (a child process, not the reference): the panel gateway with its one line changed,
 * written to a temporary file, started, and stopped by closing its stdin.
 */
async function startIndependent(member: IndependentMember): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const source = readFileSync(join(ROOT, member.from), 'utf8');
  const [line, buggy] = member.bug;
  expect(source.split(line).length - 1, `${member.id}: the line it changes is in ${member.from} once`).toBe(1);
  const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-gateway-zoo-'));
  const file = join(dir, `${member.id}.mjs`);
  writeFileSync(file, source.replace(line, buggy));
  const child = spawn(process.execPath, [file], {
    cwd: ROOT,
    env: {
      ...process.env,
      PGV2_APP_ID: INDEPENDENT_CREDENTIALS.appId,
      PGV2_APP_SECRET: INDEPENDENT_CREDENTIALS.appSecret,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (l) => resolve(l.replace(/^listening /, '')));
    child.once('exit', (code) => reject(new Error(`${member.id} exited with ${code} before listening`)));
  });
  return {
    baseUrl,
    close: () =>
      new Promise<void>((r) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          r();
        });
        child.stdin.end();
      }),
  };
}

async function run(bug: GatewayBug | IndependentMember, only: readonly string[]) {
  const gateway =
    'from' in bug ? { ...(await startIndependent(bug)), ...INDEPENDENT_CREDENTIALS } : await startZooGateway(bug);
  try {
    const subject = createGatewaySubject({
      baseUrl: gateway.baseUrl,
      appId: gateway.appId,
      appSecret: gateway.appSecret,
    });
    return await runCases({
      set,
      subject,
      target: { kind: 'gateway', description: gateway.baseUrl },
      selection: { only: [...only], skip: [] },
      concurrency: 4,
    });
  } finally {
    await gateway.close();
  }
}

describe('the gateway zoo', () => {
  it('the front without a bug passes every gateway case: it changes nothing on its own', async () => {
    const r = await run({}, ['kind:gateway']);
    expect(
      r.cases.filter((c) => c.verdict !== 'passed' && c.verdict !== 'skipped').map((c) => `${c.id}: ${c.message}`),
    ).toEqual([]);
    expect(r.cases.filter((c) => c.verdict === 'passed').length).toBeGreaterThan(20);
  }, 120_000);

  it('has at least 30 members, each naming live cases', () => {
    expect(GATEWAY_ZOO.length).toBeGreaterThanOrEqual(30);
    for (const m of GATEWAY_ZOO) {
      expect(m.mustFail.length, `${m.id} names the cases its bug fails`).toBeGreaterThan(0);
      for (const id of m.mustFail) expect(live.has(id), `${m.id}: ${id} is a live gateway case`).toBe(true);
    }
  });

  describe.concurrent.each(GATEWAY_ZOO.filter((m) => m.mustFail.length > 0))('$id', (member) => {
    it(`fails the gateway role: ${member.what}`, async () => {
      const r = await run(
        member.bug,
        member.mustFail.map((id) => `id:${id}`),
      );
      const verdicts = Object.fromEntries(r.cases.map((c) => [c.id, c.verdict]));
      if (process.env['GATEWAY_ZOO_SUMMARY'])
        console.log(member.id, r.cases.map((c) => `${c.id}=${c.verdict}: ${c.message}`).join('\n  '));
      expect(verdicts).toEqual(Object.fromEntries(member.mustFail.map((id) => [id, 'failed'])));
      for (const c of r.cases) expect(c.message, c.id).not.toBe('');
    }, 60_000);
  });

  // written apart from the kit: a panel gateway (test/panel/gateways/) copied with one bug
  describe.concurrent.each(INDEPENDENT_ZOO)('$id (a server of its own)', (member) => {
    it(`fails the gateway role: ${member.what}`, async () => {
      const r = await run(
        member,
        member.mustFail.map((id) => `id:${id}`),
      );
      expect(Object.fromEntries(r.cases.map((c) => [c.id, c.verdict]))).toEqual(
        Object.fromEntries(member.mustFail.map((id) => [id, 'failed'])),
      );
    }, 60_000);
  });
});
