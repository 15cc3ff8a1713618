/**
 * The zoo test: the real runner (runCases, the whole vector set, target kind
 * 'module') against each defective implementation of test/zoo/members/, and against
 * the reference and the bug-free mini SDK, which must pass everything.
 *
 * For each member (registry: test/zoo/zoo.ts):
 * 1. every case of mustFail ends `failed` (not `error`);
 * 2. no other case fails: the failures are exactly mustFail, counted from the vectors by the
 *    member's rule (a new case the rule selects must fail, any other must not);
 * 3. the expected diagnosis is on the failures of the concerned operations (and cases);
 * 4. mustFail stays within the cases the bug may concern (mayFail), checked on the registry;
 * 5. every failure carries a diagnosis, unless it is a refusal of a valid case (one bit)
 *    or pinned `undiagnosed`; every diagnosis reads "your … is/equals … in which …" or
 *    "you accept …" and names none of the case's secrets or part values;
 * 6. the run's triage: its first cause names the member's own mistake (a diagnosis's, or the
 *    run-level `cause`), and every case of a cause with a mistake is explained by that mistake
 *    (diagnosed so, or a refusal the mistake could explain: couldExplain).
 *
 * `ZOO_SUMMARY=1 npx vitest run test/zoo` prints one line per member.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { caseOperations } from '../../src/roles/run-case.js';
import { runCases } from '../../src/runner/run.js';
import type { CaseResult, OpResult, RunResult } from '../../src/runner/result.js';
import { selectCases, type Selection } from '../../src/runner/select.js';
import { causeLine, triage } from '../../src/runner/triage.js';
import { createReferenceSubject } from '../../src/subjects/reference.js';
import type { Operation } from '../../src/protocol/operations.js';
import type { Json, Subject } from '../../src/subjects/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { VectorCase, VectorSet } from '../../src/vectors/types.js';
import { SDK_OPERATIONS, ZooSdk, zooSubject } from './members/_sdk.js';
import { ZOO, selects, type ZooMember } from './zoo.js';

const MEMBERS_DIR = fileURLToPath(new URL('./members/', import.meta.url));
const set = loadVectorSet();
/**
 * The implementation-side cases. Client-role cases need the reference gateway (their zoo:
 * test/zoo/clients/), gateway-role cases a gateway under test (suites/gateway-role.test.ts),
 * merchant-role cases a merchant (test/certify/): the whole-set runs here leave them out.
 */
const SELECTION: Selection = { only: [], skip: ['area:client', 'area:gateway', 'area:merchant'] };
const cases = selectCases(liveCases(set), SELECTION).map((l) => l.case);
const byId = new Map(cases.map((c) => [c.id, c]));

/** Yes/no operations: a refusal of a valid case is one bit, which no diagnosis can explain. */
const YES_NO: readonly Operation[] = [
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
  'authorization.parse',
  'upload.validate',
  'upload.formCheck',
];

/** The two forms of a diagnosis message. */
const MESSAGE_FORM = /^(you accept |your \S+ (equals?|is) .+ in which )/;

async function run(subject: Subject, description: string, vectors: VectorSet = set): Promise<RunResult> {
  return runCases({
    set: vectors,
    subject,
    target: { kind: 'module', description },
    selection: SELECTION,
    concurrency: 16,
  });
}

function failedCases(result: RunResult): CaseResult[] {
  return result.cases.filter((c) => c.verdict === 'failed');
}

function failedIds(result: RunResult): string[] {
  return failedCases(result).map((c) => c.id);
}

function notPassed(result: RunResult): string[] {
  return result.cases.filter((c) => c.verdict !== 'passed').map((c) => `${c.id}: ${c.verdict}: ${c.message}`);
}

function refused(o: OpResult): boolean {
  const got = o.got as { [key: string]: Json } | null;
  if (got === null || typeof got !== 'object' || Array.isArray(got)) return false;
  if ('rejected' in got) return true;
  const result = got['result'];
  return typeof result === 'object' && result !== null && !Array.isArray(result) && result['valid'] === false;
}

function caseOf(result: CaseResult): VectorCase {
  const c = byId.get(result.id);
  if (!c) throw new Error(`no case ${result.id} in the vector set`);
  return c;
}

const summary: string[] = [];
afterAll(() => {
  if (process.env['ZOO_SUMMARY'])
    console.log(['member | failed | mustFail | diagnosed | one-bit refusals only', ...summary].join('\n'));
});

describe('correct implementations pass everything (no false failures)', () => {
  it('the reference, run as a module target, has no failure, error or skip', async () => {
    const result = await run(createReferenceSubject(), 'reference');
    expect(notPassed(result)).toEqual([]);
    expect(result.totals.passed).toBe(cases.length);
  });

  it('the zoo mini SDK without a bug, every operation routed to it, has no failure, error or skip', async () => {
    const result = await run(zooSubject('control', new ZooSdk(), SDK_OPERATIONS), 'test/zoo/members/_sdk.ts');
    expect(notPassed(result)).toEqual([]);
    expect(result.totals.passed).toBe(cases.length);
  });
});

describe('the registry', () => {
  it('lists every member module once, and nothing else', () => {
    const files = readdirSync(MEMBERS_DIR)
      .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(ZOO.map((m) => m.name).sort()).toEqual(files.sort());
    expect(ZOO.length).toBeGreaterThanOrEqual(18);
  });

  it.each(ZOO.filter((m) => Array.isArray(m.mustFail)))('$name: mustFail names cases of the vector set', (m) => {
    expect((m.mustFail as readonly string[]).filter((id) => !byId.has(id))).toEqual([]);
  });

  it.each(ZOO)('$name: mustFail selects only cases mayFail allows (4)', (m) => {
    const must = cases.filter((c) => selects(m.mustFail, c));
    expect(must.filter((c) => !mayFail(m, c)).map((c) => c.id)).toEqual([]);
  });
});

describe.each(ZOO)('zoo member $name ($area): $bug', (m) => {
  it('the real runner fails exactly the cases the bug concerns, with the expected diagnosis', async () => {
    const result = await run(m.module.createSubject(), `test/zoo/members/${m.name}.ts`);
    const failed = failedIds(result);

    // the bug is a nonconformance, never a crash or an unanswered operation
    expect(
      result.cases.filter((c) => c.verdict === 'error' || c.verdict === 'skipped').map((c) => `${c.id}: ${c.message}`),
    ).toEqual([]);

    // (1) every case the bug concerns fails
    const must = cases.filter((c) => selects(m.mustFail, c)).map((c) => c.id);
    expect(
      must.filter((id) => !failed.includes(id)),
      'cases of mustFail that did not fail',
    ).toEqual([]);

    // (2) no other failure: exactly the cases of the rule
    expect(
      failed.filter((id) => !must.includes(id)),
      'failures outside mustFail',
    ).toEqual([]);

    // (3) the diagnosis
    for (const d of m.diagnosis ?? []) {
      let checked = 0;
      const missing: string[] = [];
      const unexpected: string[] = [];
      for (const cr of failedCases(result)) {
        const c = caseOf(cr);
        for (const o of cr.ops) {
          if (o.status !== 'fail' || !d.ops.includes(o.op)) continue;
          if (d.cases !== undefined && !selects(d.cases, c)) continue;
          if (oneBit(c, o) && !d.refusals) continue; // nothing to diagnose
          checked++;
          const named = (o.diagnosis ?? []).some((x) => x.mistake === d.mistake);
          const known = d.undiagnosed !== undefined && selects(d.undiagnosed, c);
          if (known && named) unexpected.push(`${c.id} ${o.op}`);
          if (!known && !named)
            missing.push(`${c.id} ${o.op}: ${(o.diagnosis ?? []).map((x) => x.mistake).join(', ') || 'no diagnosis'}`);
        }
      }
      expect(checked, `failures of ${d.ops.join(', ')} to diagnose as ${d.mistake}`).toBeGreaterThan(0);
      expect(missing, `failures not diagnosed ${d.mistake}`).toEqual([]);
      expect(
        unexpected,
        `failures pinned as undiagnosed that are now diagnosed ${d.mistake}: update the registry`,
      ).toEqual([]);
    }

    // (5) nothing left unexplained, and every explanation in the kit's words
    const unexplained: string[] = [];
    const badMessages: string[] = [];
    for (const cr of failedCases(result)) {
      const c = caseOf(cr);
      for (const o of cr.ops.filter((x) => x.status === 'fail')) {
        const pinned = (m.diagnosis ?? []).some(
          (d) => d.undiagnosed !== undefined && d.ops.includes(o.op) && selects(d.undiagnosed, c),
        );
        if (!o.diagnosis?.length && !oneBit(c, o) && !pinned) unexplained.push(`${c.id} ${o.op}`);
        for (const d of o.diagnosis ?? []) {
          const leaked = valuesOf(c).filter((v) => d.message.includes(v));
          if (!MESSAGE_FORM.test(d.message) || leaked.length > 0)
            badMessages.push(`${c.id} ${d.mistake}: ${d.message}`);
        }
      }
    }
    expect(unexplained, 'failures with no diagnosis that are not one-bit refusals').toEqual([]);
    expect(badMessages, 'diagnoses not in the form, or naming a value of the case').toEqual([]);

    // (6) the triage: the first cause names the member's own mistake, and no cause mixes failures of two mistakes
    const causes = triage(result.cases);
    const own = m.cause !== undefined ? [m.cause] : (m.diagnosis ?? []).map((d) => d.mistake);
    if (failed.length > 0 && own.length > 0)
      expect(causes[0]?.mistake, `the first cause: ${causes[0] ? causeLine(causes[0]) : 'none'}`).toBeOneOf(own);
    const mixed: string[] = [];
    for (const cause of causes.filter((x) => x.mistake !== null)) {
      for (const id of cause.cases) {
        const cr = result.cases.find((x) => x.id === id);
        const steps = cr?.ops.filter((o) => o.status === 'fail') ?? [];
        const named = steps.some((o) => o.diagnosis?.some((d) => d.mistake === cause.mistake));
        const couldBe = steps.length > 0 && steps.every((o) => o.couldExplain?.includes(cause.mistake ?? ''));
        const runLevel = cause.mistake === m.cause && steps.every((o) => !o.diagnosis?.length);
        if (!named && !couldBe && !runLevel)
          mixed.push(
            `${id} in ${cause.mistake}: ${steps.map((o) => `${o.op} ${(o.diagnosis ?? []).map((d) => d.mistake).join(',') || 'could be ' + (o.couldExplain ?? []).join(',')}`).join('; ')}`,
          );
      }
    }
    expect(mixed, 'cases grouped under a mistake that does not explain them').toEqual([]);

    const diagnosed = failedCases(result).filter((c) => c.ops.some((o) => o.diagnosis?.length)).length;
    summary.push(`${m.name} | ${failed.length} | ${must.length} | ${diagnosed} | ${failed.length - diagnosed}`);
  });
});

/** A refusal of a valid case by a yes/no operation: one bit, which no answer-based diagnosis can explain. */
function oneBit(c: VectorCase, o: OpResult): boolean {
  return c.result === 'valid' && YES_NO.includes(o.op) && refused(o);
}

/** The case's secret and the texts a content holds (appId, URL, nonce): a diagnosis names none of them. */
function valuesOf(c: VectorCase): string[] {
  const inputs = c.inputs as { [key: string]: unknown };
  return ['appSecret', 'appId', 'url', 'notifyUrl', 'returnUrl', 'nonce']
    .map((k) => inputs[k])
    .filter((v): v is string => typeof v === 'string' && v.length >= 4);
}

/** Whether a member may fail a case: its mayFail, or by default a case that runs one of the operations its bug reaches. */
function mayFail(m: ZooMember, c: VectorCase): boolean {
  if (m.mayFail) return selects(m.mayFail, c);
  return caseOperations(c).some((op) => m.module.routed.includes(op));
}
