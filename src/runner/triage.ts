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
import { VERDICT_INFO, type CaseArea, type CaseResult } from './result.js';

/** What triage reads of a case: a run's case, or a report's clean view of one. */
export type TriageCase = Pick<CaseResult, 'id' | 'kind' | 'verdict' | 'message'> & { readonly ops: ReadonlyArray<{ readonly op: string; readonly status: string; readonly message: string; readonly diagnosis?: readonly Diagnosis[] }> };

/**
 * The areas in the order a failure is read: the scheme's operations (where a signer's or a
 * verifier's bug is), the properties over them, then the roles that use them end to end.
 */
export const CAUSE_ORDER: readonly CaseArea[] = ['signature', 'authorization', 'request', 'response', 'webhook', 'redirect', 'upload', 'property', 'client', 'gateway', 'merchant'];

/** Areas whose failures are consequences of the scheme's operations (end-to-end roles). */
export const ROLE_AREAS: ReadonlySet<CaseArea> = new Set(['client', 'gateway', 'merchant']);

/** One likely cause and the failing cases it explains. */
export interface Cause {
  /** The known mistake's id, or null for the failures no known mistake explains. */
  readonly mistake: string | null;
  /** In words: the mistake's title, or what the unexplained failures have in common. */
  readonly title: string;
  /** How many failing cases it explains. */
  readonly count: number;
  /** Their ids, root causes first. */
  readonly cases: readonly string[];
  /** How many of them are in the scheme's own areas (root causes) and how many in the roles (consequences). */
  readonly rootCauses: number;
  readonly consequences: number;
}

/**
 * Groups the cases that fail the run by the known mistake of their first diagnosis, most cases
 * first (ties: the cause whose first case comes first, root causes first); the failures no known
 * mistake explains come last, grouped by the {@link gist} of what their first failing step says
 * (numbers aside), errors apart from wrong answers. A group of verifiers refusing genuine messages
 * for their sign is pointed at the leading signer mistake, which it most often shares, and a group
 * in the roles alone at that mistake as their likely consequence.
 * @param cases - a run's cases
 * @returns the causes; empty when nothing fails the run
 * @example triage(run.cases)[0] // { mistake: 'no-final-lf', title: 'the LF after the body was left out', count: 95, … }
 */
export function triage(cases: readonly TriageCase[]): Cause[] {
  const failing = byCause(cases.filter((c) => VERDICT_INFO[c.verdict].failsRun));
  const groups = new Map<string, { mistake: string | null; title: string; ops: Set<string>; cases: TriageCase[] }>();
  for (const c of failing) {
    const d = c.ops.flatMap((o) => o.diagnosis ?? [])[0];
    // no known mistake: the cases whose first failing step says the same thing (numbers and quoted values aside) go together
    const step = c.ops.find((o) => o.status === 'fail' || o.status === 'error');
    const said = gist(step?.message ?? c.message);
    const key = d ? `m:${d.mistake}` : `u:${c.verdict}:${said.replace(/\d+/g, 'N')}`;
    const group = groups.get(key) ?? { mistake: d?.mistake ?? null, title: d ? (mistakeTitle(d.mistake) ?? d.mistake) : c.verdict === 'unexpected-pass' ? UNEXPLAINED['unexpected-pass'] : `${c.verdict === 'error' ? 'error: ' : ''}${said}`, ops: new Set<string>(), cases: [] };
    if (step) group.ops.add(step.op);
    group.cases.push(c);
    groups.set(key, group);
  }
  const all = [...groups.values()].sort((a, b) => b.cases.length - a.cases.length);
  const explained = all.filter((g) => g.mistake !== null);
  // a verifier refusing genuine messages for their sign most often builds the content as its own signer does
  const signer = explained[0]?.mistake ?? undefined;
  return [...explained, ...all.filter((g) => g.mistake === null)].map((g) => {
    const consequences = g.cases.filter((c) => ROLE_AREAS.has(c.kind)).length;
    const ops = g.mistake === null && g.ops.size > 0 ? ` — ${[...g.ops].join(', ')}` : '';
    const refusedGenuine = /sign mismatch|sign does not match|refused, but the case is valid|refused the message exactly as signed/.test(g.title) && [...g.ops].some((op) => op.endsWith('.verify'));
    const inRoles = consequences === g.cases.length;
    const hint =
      g.mistake !== null || g.title.startsWith('error: ') || g.title === UNEXPLAINED['unexpected-pass']
        ? ''
        : signer !== undefined && refusedGenuine
          ? `; likely the same cause as ${signer}: a verifier builds the content as its signer does`
          : signer !== undefined && inRoles
            ? `; likely a consequence of ${signer}: the roles sign and verify as the operations above do`
            : '; no known mistake explains it';
    return { mistake: g.mistake, title: `${g.title}${ops}${hint}`, count: g.cases.length, cases: g.cases.map((c) => c.id), rootCauses: g.cases.length - consequences, consequences };
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
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/\s*\(([^()]*)\)/g, (all, inner: string) => (/\d|URL/.test(inner) ? '' : all));
  }
  return (s.split(';')[0] ?? s).trim() || message;
}

/**
 * Cases in the order a failure is read: by {@link CAUSE_ORDER} of their area, run order within one.
 * @param cases - cases
 * @returns a new array, root causes first
 * @example byCause(failing)[0].kind // 'signature'
 */
export function byCause<T extends Pick<CaseResult, 'kind'>>(cases: readonly T[]): T[] {
  return cases.map((c, i) => ({ c, i })).sort((a, b) => causeRank(a.c.kind) - causeRank(b.c.kind) || a.i - b.i).map((x) => x.c);
}

/**
 * An area's place in {@link CAUSE_ORDER} (an area it does not list comes last).
 * @param kind - the area
 * @returns its rank, 0 first
 * @example causeRank('signature') // 0
 */
export function causeRank(kind: CaseArea): number {
  const i = CAUSE_ORDER.indexOf(kind);
  return i === -1 ? CAUSE_ORDER.length : i;
}

/**
 * One line for a cause: `95 cases: the LF after the body was left out (no-final-lf; 78 in the scheme's operations, 17 in the roles)`.
 * @param cause - the cause
 * @returns the line
 * @example causeLine(triage(run.cases)[0])
 */
export function causeLine(cause: Cause): string {
  const where = cause.consequences === 0 ? '' : cause.rootCauses === 0 ? `; all in the roles` : `; ${cause.rootCauses} in the scheme's operations, ${cause.consequences} in the roles, their consequence`;
  return `${cause.count} case${cause.count === 1 ? '' : 's'}: ${cause.title}${cause.mistake ? ` (${cause.mistake}${where})` : where ? ` (${where.slice(2)})` : ''}`;
}

/** The failures no known mistake explains that are not the implementation's answers. */
const UNEXPLAINED = {
  'unexpected-pass': 'listed as expected failures but passed (update the list: --update-expect-failures)',
} as const;
