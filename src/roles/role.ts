/**
 * What a role is to the kit: the vector kinds it owns and, for each, the check that runs a case
 * and the diagnosis that names the known mistake behind a failed step. A role is one folder of
 * src/roles/ exporting one {@link Role} (its `role.ts`); src/roles/registry.ts lists the roles,
 * and every per-kind fact the runner, the triage and the reports read comes from there.
 * @module
 */
import type { Check } from '../checks/check.js';
import type { OpOutcome } from '../checks/outcome.js';
import type { Diagnosis } from '../diagnosis/diagnosis.js';
import type { Json } from '../subjects/subject.js';
import type { VectorCase, VectorKind } from '../vectors/types.js';

/** The case of one kind. */
export type CaseOf<K extends VectorKind> = Extract<VectorCase, { kind: K }>;

/** What the kit knows of one vector kind. */
export interface KindInfo<K extends VectorKind> {
  /** Runs a case's operations against a subject and judges the answers. */
  readonly check: Check<K>;
  /**
   * The known mistakes that explain a failed step (most specific first; none when nothing fits or a refusal is one
   * bit).
   */
  readonly diagnose: (c: CaseOf<K>, outcome: OpOutcome) => Diagnosis[] | Promise<Diagnosis[]>;
  /**
   * For a genuine message refused (one bit, not diagnosed): the known mistakes whose content for it
   * differs from the right one — the triage joins the refusal to one of them diagnosed elsewhere in the run.
   */
  readonly couldExplain?: (c: CaseOf<K>, outcome: OpOutcome) => string[];
  /**
   * What the implementation does with the kit's messages, for the run-level causes of the triage:
   * `signs` (its signatures are checked), `verifies` (the kit sends it genuine messages it must accept).
   */
  readonly implementation?: { readonly signs?: true; readonly verifies?: true };
}

/**
 * A role's name: the SDK's operations, and the parties a payment involves end to end (`client`, `gateway`,
 * `merchant`). The names in use are the registry's (`ROLES`, src/roles/registry.ts).
 */
export type RoleName = string;

/** A role: its name, what it checks, and its kinds. */
export interface Role<
  T extends Partial<{ readonly [K in VectorKind]: KindInfo<K> }> = Partial<{ readonly [K in VectorKind]: KindInfo<K> }>,
> {
  readonly name: RoleName;
  /** What the role checks, in words (reports, help). */
  readonly title: string;
  /**
   * End to end (client, gateway, merchant): its cases use the operations, so its failures are read
   * after theirs, as their likely consequence (the triage), and run after the properties.
   */
  readonly endToEnd: boolean;
  /** Its kinds, in report order. */
  readonly kinds: T;
  /**
   * How `pgv2kit run` points at an implementation of the role (absent: the operations', reached
   * through a testee, a module or the reference): the option that names it, and how many of its
   * cases are in flight by default (the merchant's one at a time: a replay follows the call it repeats).
   */
  readonly target?: { readonly option: 'gateway' | 'merchant'; readonly concurrency?: number };
  /**
   * The run's pattern over the role's diagnoses, read once every case ran (a merchant is a black
   * box: a mistake shows in the pattern of its answers, not in one).
   */
  readonly pattern?: <R extends PatternCase>(
    cases: readonly R[],
    caseOf: (id: string) => VectorCase | undefined,
  ) => R[];
}

/** What a role's pattern reads of a case result. */
export type PatternCase = {
  readonly id: string;
  readonly kind: string;
  readonly ops: ReadonlyArray<{
    readonly op: string;
    readonly status: string;
    readonly got: Json;
    readonly diagnosis?: readonly Diagnosis[];
  }>;
};

/**
 * Declares a role (an identity function that keeps each kind's entry typed by its kind).
 * @param role - the role
 * @returns the same role
 * @example
 * import { merchantCheck } from './merchant/check.js';
 * defineRole({
 *   name: 'merchant',
 *   title: 'a merchant',
 *   endToEnd: true,
 *   kinds: { merchant: { check: merchantCheck, diagnose: () => [] } },
 * }).kinds.merchant.check.kind // 'merchant'
 */
export function defineRole<
  const N extends string,
  const T extends { readonly [K in keyof T]: K extends VectorKind ? KindInfo<K> : never },
>(role: Role<T> & { readonly name: N }): Role<T> & { readonly name: N } {
  return role;
}
