/**
 * The areas `pgv2kit generate --seed` draws cases for (a module of its own: the command's
 * help names them without loading the generators).
 * @module
 */

/** The areas `generate --seed` can draw cases for. */
export const GENERATE_KINDS = ['signature', 'authorization', 'response', 'webhook', 'redirect'] as const;

/** One of {@link GENERATE_KINDS}. */
export type GenerateKind = (typeof GENERATE_KINDS)[number];
