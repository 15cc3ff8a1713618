/**
 * The roles, and every per-kind fact read from them. Adding a role is a folder of src/roles/
 * with its `role.ts` and one line in {@link ROLES}; a vector kind no role owns is a type error
 * here ({@link KIND_INFO}), not a case that runs nowhere.
 * @module
 */
import { SCHEMA_KINDS } from '../vectors/kinds.js';
import type { VectorKind } from '../vectors/types.js';
import { clientRole } from './client/role.js';
import { gatewayRole } from './gateway/role.js';
import { merchantRole } from './merchant/role.js';
import { operationsRole } from './operations/role.js';
import type { KindInfo, Role } from './role.js';

/**
 * Every role, in the order failures are read: the operations, then the roles end to end.
 * @example ROLES.map((r) => r.name) // ['operations', 'client', 'gateway', 'merchant']
 */
export const ROLES = [operationsRole, clientRole, gatewayRole, merchantRole] as const;

/** The kinds the roles own. */
type OwnedKind = { [R in (typeof ROLES)[number] as string]: keyof R['kinds'] }[string];
/** A kind no role owns (never, when every kind has its role). */
type Unowned = Exclude<VectorKind, OwnedKind>;

/**
 * Each vector kind's check, diagnosis and role.
 * @example KIND_INFO.merchant.role.name // 'merchant'
 */
export const KIND_INFO: { readonly [K in VectorKind]: KindInfo<K> & { readonly role: Role } } = kindInfo(ROLES);

/**
 * Every vector kind, in the order reports show them: the roles' order, and each role's kinds in its order.
 * The kit's vectors folder defines the same kinds (a schema each: `SCHEMA_KINDS`); loading this module
 * fails, naming the kind, when the two differ (a kind no role owns, or a role's kind with no schema).
 * @example VECTOR_KINDS.slice(-3) // ['client', 'gateway', 'merchant']
 */
export const VECTOR_KINDS: readonly VectorKind[] = kindsInOrder(ROLES);

/**
 * The kinds whose cases are end to end (client, gateway, merchant): their failures are read after
 * the operations', as their likely consequence.
 * @example END_TO_END_KINDS.has('merchant') // true
 */
export const END_TO_END_KINDS: ReadonlySet<VectorKind> = new Set(
  VECTOR_KINDS.filter((k) => KIND_INFO[k].role.endToEnd),
);

/**
 * The role `pgv2kit run` is pointed at by its options (`--gateway`, `--merchant`), if any.
 * @param given - the run's options, by name
 * @returns the role, or undefined for a run of the operations (a testee, a module, the reference)
 * @example targetRole({ merchant: true })?.name // 'merchant'
 */
export function targetRole(given: Readonly<Record<string, unknown>>): Role | undefined {
  return (ROLES as readonly Role[]).find((r) => r.target !== undefined && given[r.target.option] === true);
}

/**
 * The role of a name.
 * @param name - a role's name
 * @returns the role
 * @example roleNamed('merchant').kinds // { merchant: … }
 */
export function roleNamed(name: RegisteredRole): Role {
  return ROLES.find((r) => r.name === name) as Role;
}

/** The name of a role in {@link ROLES}. */
export type RegisteredRole = (typeof ROLES)[number]['name'];

// --- internal ---

function kindsInOrder(roles: readonly Role[]): VectorKind[] {
  const kinds = roles.flatMap((r) => Object.keys(r.kinds) as VectorKind[]);
  const noSchema = kinds.filter((k) => !SCHEMA_KINDS.includes(k));
  const noRole = SCHEMA_KINDS.filter((k) => !kinds.includes(k));
  // the kit's own data and code disagree: a broken build or install, never a user's mistake
  if (noSchema.length > 0 || noRole.length > 0)
    throw new Error(
      [
        ...noSchema.map((k) => `kind ${k} has a role but no schema (vectors/schema/${k}.schema.json)`),
        ...noRole.map((k) => `kind ${k} has a schema but no role (src/roles/registry.ts)`),
      ].join('; '),
    );
  return kinds;
}

function kindInfo(roles: readonly Role[]): { readonly [K in VectorKind]: KindInfo<K> & { readonly role: Role } } {
  // a kind no role owns does not compile: Unowned must be never
  const complete: [Unowned] extends [never] ? true : { readonly unowned: Unowned } = true;
  void complete;
  const info: Partial<Record<VectorKind, KindInfo<VectorKind> & { role: Role }>> = {};
  for (const role of roles) {
    for (const [kind, entry] of Object.entries(role.kinds) as Array<[VectorKind, KindInfo<VectorKind>]>) {
      if (info[kind]) throw new Error(`kind ${kind} belongs to two roles: ${info[kind].role.name} and ${role.name}`);
      info[kind] = { ...entry, role };
    }
  }
  return info as { readonly [K in VectorKind]: KindInfo<K> & { readonly role: Role } };
}
