/**
 * The client zoo test: the real runner (runCases over the client-role cases,
 * `selection: { only: ['client'] }`, the reference gateway started by startClientGateway
 * and handed over as `context`) against each defective client of test/zoo/clients/, and
 * against the reference client and the zoo's bug-free mini SDK, which must pass every case.
 *
 * For each member (registry: ./registry.ts):
 * 1. no case ends `error` or `skipped`: the bug is a nonconformance, never a crash;
 * 2. the failed cases are exactly the member's `caught` cases, their number the pinned `expectedFailures`;
 * 3. each failure message carries the group's pinned words;
 * 4. the gateway's record of each case carries the group's `recorded` words (a request's or
 *    an upload's problem), or no problem at all where the gateway saw nothing wrong; and
 *    the check's message quotes them after "the gateway saw: " or "(gateway: ".
 *
 * `CLIENT_ZOO_SUMMARY=1 npx vitest run test/zoo/clients` prints one line per member.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { ClientRecord } from '../../../src/checks/context.js';
import { startClientGateway } from '../../../src/roles/client/reference-gateway.js';
import type { RunResult } from '../../../src/runner/result.js';
import { runCases } from '../../../src/runner/run.js';
import { selectCases } from '../../../src/runner/select.js';
import { createReferenceSubject } from '../../../src/subjects/reference.js';
import type { Subject } from '../../../src/subjects/subject.js';
import { liveCases, loadVectorSet } from '../../../src/vectors/load.js';
import { ZooClient, clientSubject, type FormField } from './_client.js';
import { CLIENT_ZOO, mustFail, type CaughtBy } from './registry.js';

const DIR = fileURLToPath(new URL('./', import.meta.url));
const set = loadVectorSet();
const SELECTION = { only: ['client'], skip: [] };
const selected = selectCases(liveCases(set), SELECTION);
const clientIds = selected.map((l) => l.case.id);

/** A run over the client cases, with the gateway's records readable until it is closed. */
async function runClientCases<T>(
  subject: Subject,
  description: string,
  inspect: (result: RunResult, record: (id: string) => ClientRecord) => Promise<T>,
): Promise<T> {
  const gateway = await startClientGateway(selected, subject);
  if (!gateway?.context.gateway) throw new Error('startClientGateway started no gateway for the client cases');
  const view = gateway.context.gateway;
  try {
    const result = await runCases({
      set,
      subject,
      target: { kind: 'module', description },
      selection: SELECTION,
      context: gateway.context,
      concurrency: 8,
    });
    return await inspect(result, (id) => view.record(id));
  } finally {
    await gateway.close();
  }
}

/** Every problem the gateway recorded for a case, in words. */
function problems(record: ClientRecord): string[] {
  return [
    ...record.requests.map((r) => r.problem ?? (r.verified ? undefined : 'signature did not verify')),
    ...record.uploads.map((u) => u.problem),
  ].filter((p): p is string => p !== undefined);
}

/**
 * The problems the gateway recorded for a case: polled up to 3 s for the one expected (the
 * record should be there when the client has its answer; the poll keeps a slow record from
 * hiding behind a message check); where none is expected, read after 100 ms.
 */
async function settledProblems(record: () => ClientRecord, expected: string | undefined): Promise<string[]> {
  const until = Date.now() + (expected === undefined ? 100 : 3000);
  for (;;) {
    const found = problems(record());
    if ((expected !== undefined && found.some((p) => p.includes(expected))) || Date.now() >= until) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What the check's message quotes from the gateway's record, if anything. */
function gatewayPart(message: string): string | undefined {
  const at = message.search(/the gateway saw: |\(gateway: /);
  return at < 0 ? undefined : message.slice(at);
}

function notPassed(result: RunResult): string[] {
  return result.cases.filter((c) => c.verdict !== 'passed').map((c) => `${c.id}: ${c.verdict}: ${c.message}`);
}

const summary: string[] = [];
afterAll(() => {
  if (process.env['CLIENT_ZOO_SUMMARY']) console.log(['member | failed | words', ...summary].join('\n'));
});

describe('correct clients pass every client case (no false failures)', () => {
  it('the reference client (createReferenceSubject) passes every client case', async () => {
    await runClientCases(createReferenceSubject(), 'reference', async (result) => {
      expect(notPassed(result)).toEqual([]);
      expect(result.totals.passed).toBe(clientIds.length);
    });
  });

  it('the client zoo mini SDK without a bug passes every client case', async () => {
    await runClientCases(clientSubject('control', new ZooClient()), 'test/zoo/clients/_client.ts', async (result) => {
      expect(notPassed(result)).toEqual([]);
      expect(result.totals.passed).toBe(clientIds.length);
    });
  });

  it('a client that sends the formFields in another order (a HashMap copy) passes every case, the choice recorded (R14)', async () => {
    class ReorderingClient extends ZooClient {
      override fieldsToSend(fields: readonly FormField[]): FormField[] {
        return [...fields].reverse();
      }
    }
    await runClientCases(clientSubject('reordering', new ReorderingClient()), 'a reordering client', async (result) => {
      expect(notPassed(result)).toEqual([]);
      // every upload the gateway stored was reordered, and each says so
      const stored = result.cases.filter((c) => c.message.includes('the stored file is byte-identical'));
      expect(stored.length).toBeGreaterThan(0);
      for (const c of stored) {
        expect(c.choice).toBe('reordered');
        expect(c.message).toContain('sent the formFields in another order than received (acceptable, R14)');
      }
    });
  });
});

describe('the client zoo registry', () => {
  it('lists every member module once, and nothing else; at least 8 members', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.ts') && !f.startsWith('_') && !f.endsWith('.test.ts') && f !== 'registry.ts')
      .map((f) => f.replace(/\.ts$/, ''));
    expect(CLIENT_ZOO.map((m) => m.name).sort()).toEqual(files.sort());
    expect(CLIENT_ZOO.length).toBeGreaterThanOrEqual(8);
  });

  it('the selection holds the client cases of both files', () => {
    expect(clientIds.length).toBeGreaterThan(0);
    expect(clientIds.every((id) => id.startsWith('client.'))).toBe(true);
    expect(selected.some((l) => l.case.kind === 'client' && l.case.op === 'client.createPayment')).toBe(true);
  });

  it.each(CLIENT_ZOO)('$name: caught names client cases, each once, expectedFailures of them', (m) => {
    const must = mustFail(m);
    expect(must.filter((id) => !clientIds.includes(id))).toEqual([]);
    expect(new Set(must).size).toBe(must.length);
    expect(must.length).toBe(m.expectedFailures);
  });
});

describe.each(CLIENT_ZOO)('client zoo member $name: $bug', (m) => {
  it('the real runner fails exactly the cases the bug concerns, with the pinned words', async () => {
    await runClientCases(m.module.createSubject(), `test/zoo/clients/${m.name}.ts`, async (result, record) => {
      // (1) a nonconformance, never a crash or an unanswered operation
      expect(
        result.cases
          .filter((c) => c.verdict === 'error' || c.verdict === 'skipped')
          .map((c) => `${c.id}: ${c.verdict}: ${c.message}`),
      ).toEqual([]);

      // (2) exactly the cases of caught, their number pinned
      const failed = result.cases.filter((c) => c.verdict === 'failed');
      expect(failed.map((c) => c.id).sort(), 'failed cases').toEqual(mustFail(m).sort());
      expect(failed.length).toBe(m.expectedFailures);

      // (3) and (4) the words
      const byId = new Map(failed.map((c) => [c.id, c]));
      const wrong: string[] = [];
      const pairs = (m.caught as readonly CaughtBy[]).flatMap((g) => g.cases.map((id) => ({ g, id })));
      // the records are read side by side: each may wait for its problem to settle
      const records = await Promise.all(pairs.map(({ g, id }) => settledProblems(() => record(id), g.recorded)));
      for (const [i, { g, id }] of pairs.entries()) {
        const message = byId.get(id)?.message ?? '';
        if (!message.includes(g.message))
          wrong.push(`${id}: the message lacks ${JSON.stringify(g.message)}: ${message}`);
        const seen = records[i] ?? [];
        if (g.recorded === undefined) {
          if (seen.length > 0)
            wrong.push(`${id}: the gateway recorded ${JSON.stringify(seen)}, pinned as nothing (update the registry)`);
          continue;
        }
        if (!seen.some((p) => p.includes(g.recorded as string)))
          wrong.push(`${id}: the gateway's record lacks ${JSON.stringify(g.recorded)}: ${JSON.stringify(seen)}`);
        if (!gatewayPart(message)?.includes(g.recorded))
          wrong.push(
            `${id}: the check's message does not quote the gateway's ${JSON.stringify(g.recorded)}: ${message}`,
          );
      }
      expect(wrong).toEqual([]);
      summary.push(
        `${m.name} | ${failed.length} | ${[...new Set(m.caught.map((g) => g.recorded ?? g.message))].join(' / ')}`,
      );
    });
  });
});
