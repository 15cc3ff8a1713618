/**
 * Causes the triage reads off a whole run, not off one case: a pattern no single answer
 * shows. Each has a page `docs/mistakes/<id>.md`, like a known mistake.
 * @module
 */

/**
 * The run-level causes, by id.
 * @example RUN_CAUSES['credentials-or-url'].ref // 'R4'
 */
export const RUN_CAUSES = Object.freeze({
  'credentials-or-url': {
    ref: 'R4',
    title:
      'every genuine message refused, and no known mistake explains it: check ' +
      'the credentials, and how the implementation builds the full URL (R4)',
  },
}) satisfies Readonly<Record<string, { readonly ref: string; readonly title: string }>>;

/** A cause of {@link RUN_CAUSES}. */
export type RunCause = keyof typeof RUN_CAUSES;
