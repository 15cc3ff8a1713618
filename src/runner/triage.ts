/**
 * Triage: the failing cases of a run grouped by what explains them — the known mistake of their
 * first diagnosis — most cases first, so one bug shows as one line ("95 cases: the LF after the
 * body was left out") before the list; and the failing cases ordered root causes first: the
 * scheme's own operations, then the roles (client, gateway, merchant) whose failures are their
 * end-to-end consequences.
 * @module
 */
import { mistakeTitle } from '../docs/refs.js';
import type { Diagnosis } from '../diagnosis/diagnosis.js';
import { RUN_CAUSES } from '../diagnosis/run-causes.js';
import { END_TO_END_KINDS, KIND_INFO, ROLES } from '../roles/registry.js';
import type { VectorKind } from '../vectors/types.js';
import { VERDICT_INFO, type CaseKind, type CaseResult } from './result.js';

/** What triage reads of a case: a run's case, or a report's clean view of one. */
export type TriageCase = Pick<CaseResult, 'id' | 'kind' | 'verdict' | 'message'> &
  Partial<Pick<CaseResult, 'result'>> & {
    readonly ops: ReadonlyArray<{
      readonly op: string;
      readonly status: string;
      readonly message: string;
      readonly diagnosis?: readonly Diagnosis[];
      readonly couldExplain?: readonly string[];
    }>;
  };

/**
 * The kinds in the order a failure is read: the scheme's operations (where a signer's or a
 * verifier's bug is), the properties over them, then the roles that use them end to end — the
 * roles' order in the registry (src/roles/registry.ts).
 * @example CAUSE_ORDER.indexOf('property') < CAUSE_ORDER.indexOf('client') // true
 */
export const CAUSE_ORDER: readonly CaseKind[] = [
  ...ROLES.filter((r) => !r.endToEnd).flatMap((r) => Object.keys(r.kinds) as VectorKind[]),
  'property',
  ...ROLES.filter((r) => r.endToEnd).flatMap((r) => Object.keys(r.kinds) as VectorKind[]),
];

/** One likely cause and the failing cases it explains. */
export interface Cause {
  /** The known mistake's id (or a run-level cause's), or null for the failures no known mistake explains. */
  readonly mistake: string | null;
  /** In words: the mistake's title, or what the unexplained failures have in common. */
  readonly title: string;
  /** How many failing cases it explains. */
  readonly count: number;
  /** Their ids, root causes first. */
  readonly cases: readonly string[];
  /** How many of them are in the scheme's own kinds (root causes) and how many in the roles (consequences). */
  readonly rootCauses: number;
  readonly consequences: number;
  /**
   * How many of them are refusals of genuine messages the mistake would refuse (not diagnosed: a refusal is one bit).
   */
  readonly refusals?: number;
}

/**
 * Groups the cases that fail the run by what explains them, most cases first (ties: the cause
 * whose first case comes first, root causes first):
 *
 * - a case joins a known mistake's group when its first diagnosis names the mistake;
 * - a refusal of a valid case (one bit: no diagnosis) joins the largest group whose mistake
 *   could explain it — a mistake diagnosed elsewhere in the run whose content for that case
 *   differs from the right one (the op's `couldExplain`, src/diagnosis/refusal-causes.ts);
 * - a run in which every genuine message is refused and nothing explains it (no diagnosed
 *   mistake explains a refusal, no signing failure is diagnosed) gets one run-level cause,
 *   `credentials-or-url`, holding those refusals and the undiagnosed signing failures;
 * - anything else is its own group, by the {@link gist} of what its first failing step says
 *   (numbers aside), errors apart from wrong answers, last; a group in the roles alone is
 *   pointed at the leading mistake as its likely consequence.
 * @param cases - a run's cases
 * @returns the causes; empty when nothing fails the run
 * @example triage(failedRun.cases)[0].mistake // 'no-final-lf'
 */
export function triage(cases: readonly TriageCase[]): Cause[] {
  const failing = byCause(cases.filter((c) => VERDICT_INFO[c.verdict].failsRun));
  const order = new Map(failing.map((c, i) => [c, i]));
  const groups = new Map<string, Group>();
  const add = (
    key: string,
    make: () => Omit<Group, 'cases' | 'ops' | 'refusals'>,
    c: TriageCase,
    refusal = false,
  ): void => {
    const group = groups.get(key) ?? { ...make(), ops: new Set<string>(), cases: [], refusals: 0 };
    const step = firstFailingStep(c);
    if (step) group.ops.add(step.op);
    group.cases.push(c);
    if (refusal) group.refusals++;
    groups.set(key, group);
  };
  const unexplained = (c: TriageCase): void => {
    const said = gist(firstFailingStep(c)?.message ?? c.message);
    const title =
      c.verdict === 'unexpected-pass'
        ? UNEXPLAINED['unexpected-pass']
        : `${c.verdict === 'error' ? 'error: ' : ''}${said}`;
    add(`u:${c.verdict}:${said.replace(/\d+/g, 'N')}`, () => ({ mistake: null, title }), c);
  };
  const refusals: Array<{ c: TriageCase; could: readonly string[] }> = [];
  for (const c of failing) {
    const d = c.ops.flatMap((o) => o.diagnosis ?? [])[0];
    const could = refusalCauses(c);
    if (d) add(`m:${d.mistake}`, () => ({ mistake: d.mistake, title: mistakeTitle(d.mistake) ?? d.mistake }), c);
    else if (could) refusals.push({ c, could });
  }
  const diagnosed = [...groups.values()].sort((a, b) => b.cases.length - a.cases.length);
  const joined = refusals.map(({ c, could }) => ({
    c,
    group: diagnosed.find((g) => g.mistake !== null && could.includes(g.mistake)),
  }));
  const credentials = credentialsCause(
    cases,
    failing,
    joined.some((j) => j.group !== undefined),
  );
  for (const { c, group } of joined) {
    if (group) add(`m:${group.mistake}`, () => group, c, true);
    else if (!credentials?.has(c)) unexplained(c);
  }
  for (const c of failing) {
    if (credentials?.has(c))
      add(
        'r:credentials-or-url',
        () => ({ mistake: 'credentials-or-url', title: RUN_CAUSES['credentials-or-url'].title }),
        c,
      );
    else if (!c.ops.some((o) => o.diagnosis?.length) && !refusals.some((r) => r.c === c)) unexplained(c);
  }
  const first = (g: Group): number => Math.min(...g.cases.map((c) => order.get(c) ?? 0));
  const all = [...groups.values()].sort((a, b) => b.cases.length - a.cases.length || first(a) - first(b));
  const explained = all.filter((g) => g.mistake !== null);
  const leading = explained.find((g) => g.mistake !== null && !(g.mistake in RUN_CAUSES))?.mistake ?? undefined;
  return [...explained, ...all.filter((g) => g.mistake === null)].map((g) => {
    const sorted = [...g.cases].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    const consequences = sorted.filter((c) => c.kind !== 'property' && END_TO_END_KINDS.has(c.kind)).length;
    const ops = g.mistake === null && g.ops.size > 0 ? ` — ${[...g.ops].join(', ')}` : '';
    const hint =
      g.mistake !== null || g.title.startsWith('error: ') || g.title === UNEXPLAINED['unexpected-pass']
        ? ''
        : leading !== undefined && consequences === sorted.length
          ? `; likely a consequence of ${leading}: the roles sign and verify as the operations above do`
          : '; no known mistake explains it';
    return {
      mistake: g.mistake,
      title: `${g.title}${ops}${hint}`,
      count: sorted.length,
      cases: sorted.map((c) => c.id),
      rootCauses: sorted.length - consequences,
      consequences,
      ...(g.refusals > 0 ? { refusals: g.refusals } : {}),
    };
  });
}

/**
 * What a failing step says, its particulars aside, so that the cases one bug fails alike read
 * alike: quoted values and URLs dropped, and parenthesised details that hold a number or a URL
 * (a port, a size); the first clause kept.
 * @param message - a step's message
 * @returns its gist, e.g. `refused: the payment response: the gateway answered HTTP 401: errorMessage "…"`
 */
export function gist(message: string): string {
  let s = message.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s)]+/gi, 'URL');
  for (let before = ''; before !== s;) {
    before = s;
    s = s.replace(/\s*\(([^()]*)\)/g, (all, inner: string) => (/\d|URL/.test(inner) ? '' : all));
  }
  return (s.split(';')[0] ?? s).trim() || message;
}

/**
 * Cases in the order a failure is read: by {@link CAUSE_ORDER} of their kind, run order within one.
 * @param cases - cases
 * @returns a new array, root causes first
 * @example byCause([{ kind: 'client' }, { kind: 'signature' }])[0].kind // 'signature'
 */
export function byCause<T extends Pick<CaseResult, 'kind'>>(cases: readonly T[]): T[] {
  return cases
    .map((c, i) => ({ c, i }))
    .sort((a, b) => causeRank(a.c.kind) - causeRank(b.c.kind) || a.i - b.i)
    .map((x) => x.c);
}

/**
 * A kind's place in {@link CAUSE_ORDER} (a kind it does not list comes last).
 * @param kind - the kind
 * @returns its rank, 0 first
 * @example causeRank('signature') // 0
 */
export function causeRank(kind: CaseKind): number {
  const i = CAUSE_ORDER.indexOf(kind);
  return i === -1 ? CAUSE_ORDER.length : i;
}

/**
 * One line for a cause: `95 cases: the LF after the body was left out (no-final-lf; 30 of them genuine messages
 * refused, which it explains; 78 in the scheme's operations, 17 in the roles, their consequence)`.
 * @param cause - the cause
 * @returns the line
 * @example causeLine(triage(failedRun.cases)[0])
 */
export function causeLine(cause: Cause): string {
  const where =
    cause.consequences === 0
      ? ''
      : cause.rootCauses === 0
        ? `; all in the roles`
        : `; ${cause.rootCauses} in the scheme's operations, ${cause.consequences} in the roles, their consequence`;
  const refused = cause.refusals ? `; ${cause.refusals} of them genuine messages refused, which it explains` : '';
  const detail = cause.mistake ? ` (${cause.mistake}${refused}${where})` : where ? ` (${where.slice(2)})` : '';
  return `${cause.count} case${cause.count === 1 ? '' : 's'}: ${cause.title}${detail}`;
}

// --- internal ---

/** A cause being gathered. */
interface Group {
  readonly mistake: string | null;
  readonly title: string;
  readonly ops: Set<string>;
  readonly cases: TriageCase[];
  refusals: number;
}

/** The case's first failing (or erroring) step. */
function firstFailingStep(c: TriageCase): TriageCase['ops'][number] | undefined {
  return c.ops.find((o) => o.status === 'fail' || o.status === 'error');
}

/**
 * The mistakes that could explain a case that is refusals alone: every failing step a
 * refusal of the valid case (one bit, with `couldExplain`); the mistakes they all share.
 */
function refusalCauses(c: TriageCase): readonly string[] | undefined {
  const steps = c.ops.filter((o) => o.status === 'fail' || o.status === 'error');
  if (steps.length === 0 || steps.some((o) => o.status === 'error' || !o.couldExplain?.length)) return undefined;
  return steps.reduce<readonly string[]>(
    (shared, o) => shared.filter((m) => o.couldExplain?.includes(m)),
    steps[0]?.couldExplain ?? [],
  );
}

/**
 * A step that carries a genuine message to the implementation, which must accept it: a verify of a valid case, or a
 * role's exchange.
 */
function genuineStep(c: TriageCase, o: TriageCase['ops'][number]): boolean {
  if (c.result !== 'valid' || c.kind === 'property' || KIND_INFO[c.kind].implementation?.verifies !== true)
    return false;
  // an operation kind verifies in its verify steps; a role's every step carries a message to the implementation
  return o.op.endsWith('.verify') || END_TO_END_KINDS.has(c.kind);
}

/**
 * The run-level cause `credentials-or-url`: when every genuine message that reached the
 * implementation was refused (two at least), none of those refusals is explained by a
 * mistake diagnosed in the run, and no signing step's failure is diagnosed either, a wrong
 * secret (or a full URL built otherwise, R4) explains them all at once. Its cases: those
 * refusals, and the failing signing cases (signature, client) with no diagnosis.
 */
function credentialsCause(
  cases: readonly TriageCase[],
  failing: readonly TriageCase[],
  refusalExplained: boolean,
): Set<TriageCase> | undefined {
  if (refusalExplained) return undefined;
  const genuine = cases.flatMap((c) =>
    c.ops.filter((o) => genuineStep(c, o) && (o.status === 'pass' || o.status === 'fail')).map((o) => ({ c, o })),
  );
  if (genuine.length < 2 || genuine.some(({ o }) => o.status !== 'fail' || o.diagnosis?.length)) return undefined;
  const signing = failing.filter((c) => c.kind !== 'property' && KIND_INFO[c.kind].implementation?.signs === true);
  if (signing.some((c) => c.ops.some((o) => o.diagnosis?.length))) return undefined;
  return new Set(
    [...genuine.map(({ c }) => c), ...signing].filter(
      (c) => failing.includes(c) && !c.ops.some((o) => o.status === 'error'),
    ),
  );
}

/** The failures no known mistake explains that are not the implementation's answers. */
const UNEXPLAINED = {
  'unexpected-pass': 'listed as expected failures but passed (update the list: --update-expect-failures)',
} as const;
