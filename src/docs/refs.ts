/**
 * References to the shipped documentation: a reading (`R8`), a spec section (`5.3`,
 * `§5.3`), a known mistake (`no-final-lf`) or a failure kind (`sign-mismatch`) turned
 * into the file of `docs/` it points to — `docs/readings.md` (row R8),
 * `docs/gateway-spec.md#53-authorization-header`, `docs/mistakes/no-final-lf.md`,
 * `docs/failures/sign-mismatch.md` — as paths relative to the package. Files are read from
 * the installed package root, found from this module's own URL, so they hold in a clone and
 * in `node_modules/pgv2kit` alike. How a report or the terminal shows a reference is decided
 * in one place, src/docs/cite.ts. No dependencies but node:fs, node:path and node:url.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root: the folder holding package.json, docs/ and dist/ (this module is
 * `src/docs/refs.ts` in a clone, `dist/docs/refs.js` when built: two levels down).
 */
export const PACKAGE_ROOT: string = fileURLToPath(new URL('../../', import.meta.url)).replace(/[\\/]$/, '');

/** The shipped documents, relative to {@link PACKAGE_ROOT}. */
export const DOCS = Object.freeze({
  spec: 'docs/gateway-spec.md',
  readings: 'docs/readings.md',
  protocol: 'docs/PROTOCOL.md',
  index: 'docs/README.md',
  mistakes: 'docs/mistakes',
  failures: 'docs/failures',
});

/** What a reference points to. */
export interface DocRef {
  readonly kind: 'reading' | 'section' | 'mistake' | 'failure';
  /** As cited: `R8`, `§5.3`, `no-final-lf`. */
  readonly label: string;
  /** The file, relative to the package root, with `/`: `docs/readings.md`. */
  readonly file: string;
  /** The heading anchor in the file, without `#` (spec sections only, when the heading is found). */
  readonly anchor?: string;
  /** The section's heading as the spec writes it, e.g. `5.3 Authorization header` (spec sections only, when found). */
  readonly heading?: string;
}

/**
 * A reading as the row of docs/readings.md that holds it.
 * @param id - `R1` … `R16` (case-insensitive)
 * @returns the reference, or undefined when `id` is not an R-number
 * @example readingRef('R8') // { kind: 'reading', label: 'R8', file: 'docs/readings.md' }
 */
export function readingRef(id: string): DocRef | undefined {
  const m = /^R(\d+)$/i.exec(id.trim());
  return m ? { kind: 'reading', label: `R${Number(m[1])}`, file: DOCS.readings } : undefined;
}

/**
 * A spec section as its heading in docs/gateway-spec.md (a GitHub-style anchor).
 * @param section - `5.3`, `§5.3` or `5`
 * @returns the reference (without anchor when the shipped spec has no such heading), or
 *   undefined when `section` is not a section number
 * @example
 * const file = 'docs/gateway-spec.md';
 * const heading = '5.3 Authorization header';
 * sectionRef('§5.3') // { kind: 'section', label: '§5.3', file, anchor: '53-authorization-header', heading }
 */
export function sectionRef(section: string): DocRef | undefined {
  const m = /^§?\s*(\d+(?:\.\d+)*)\.?$/.exec(section.trim());
  if (!m?.[1]) return undefined;
  const number = m[1];
  const found = specHeadings().get(number);
  return {
    kind: 'section',
    label: `§${number}`,
    file: DOCS.spec,
    ...(found ? { anchor: headingSlug(found), heading: found } : {}),
  };
}

/**
 * A known mistake as its page.
 * @param id - the mistake's stable id (a diagnosis's `mistake`)
 * @returns the reference, or undefined when the package has no page for it
 * @example mistakeRef('no-final-lf')?.file // 'docs/mistakes/no-final-lf.md'
 */
export function mistakeRef(id: string): DocRef | undefined {
  return pageRef('mistake', DOCS.mistakes, id);
}

/**
 * The title of a known mistake, as the first line of its page says it (`# \`no-final-lf\`: <title>`).
 * @param id - the mistake's stable id
 * @returns the title, or undefined when the package has no page for it
 * @example mistakeTitle('no-final-lf') // 'the LF after the body was left out'
 */
export function mistakeTitle(id: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(id)) return undefined;
  const cached = TITLES.get(id);
  if (cached !== undefined || TITLES.has(id)) return cached;
  let title: string | undefined;
  try {
    const first = readFileSync(join(PACKAGE_ROOT, DOCS.mistakes, `${id}.md`), 'utf8').split('\n', 1)[0] ?? '';
    title = /^# `[^`]+`: (.+)$/.exec(first)?.[1]?.trim();
  } catch {
    title = undefined;
  }
  TITLES.set(id, title);
  return title;
}

const TITLES = new Map<string, string | undefined>();

/**
 * A failure kind (a case status, a testee failure, a header, verification or upload
 * problem) as its page.
 * @param kind - e.g. `error`, `sign-mismatch`, `file-not-last`
 * @returns the reference, or undefined when the package has no page for it
 * @example failureRef('error')?.file // 'docs/failures/error.md'
 */
export function failureRef(kind: string): DocRef | undefined {
  return pageRef('failure', DOCS.failures, kind);
}

/**
 * Every reading and spec section cited in a reference text, in order, each once.
 * Understands `§5.1, R1`, `5.3, R8`, `R7-R12` (a range), `(4.2, R14)`.
 * @param text - a `ref` of a diagnosis, a case's sections and readings, a message
 * @param bareSections - also read `5.3` without `§` (default: true; false for free text, where a number may be
 *   anything)
 * @returns the references
 * @example refsIn('§5.1, R1').map((r) => r.label) // ['§5.1', 'R1']
 */
export function refsIn(text: string, bareSections = true): DocRef[] {
  const out: DocRef[] = [];
  const seen = new Set<string>();
  const add = (r: DocRef | undefined): void => {
    if (r && !seen.has(r.label)) {
      seen.add(r.label);
      out.push(r);
    }
  };
  for (const m of text.matchAll(
    /\bR(\d+)(?:\s*[-–]\s*R(\d+))?\b|§\s*(\d+(?:\.\d+)*)|(?<![\w.§])(\d+\.\d+)(?![\w.])/g,
  )) {
    if (m[1] !== undefined) {
      const from = Number(m[1]);
      const to = m[2] !== undefined ? Number(m[2]) : from;
      for (let n = from; n <= to && n - from < 32; n++) add(readingRef(`R${n}`));
    } else if (m[3] !== undefined || bareSections) add(sectionRef(m[3] ?? m[4] ?? ''));
  }
  return out;
}

/**
 * Where a reference points, relative to the package root: `docs/gateway-spec.md#53-authorization-header`.
 * @param ref - the reference
 * @returns the path with its anchor
 * @example docPath(sectionRef('5.3')!) // 'docs/gateway-spec.md#53-authorization-header'
 */
export function docPath(ref: DocRef): string {
  return ref.anchor ? `${ref.file}#${ref.anchor}` : ref.file;
}

/**
 * A GitHub-style heading anchor: lower case, punctuation removed, spaces as hyphens.
 * @param heading - the heading text (without the leading #s)
 * @returns the anchor, without `#` (no de-duplication suffix)
 * @example headingSlug('5.3 Authorization header') // '53-authorization-header'
 */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

// --- internal ---

let headings: Map<string, string> | undefined;

/** Section number → its heading in the shipped spec (read once). */
function specHeadings(): Map<string, string> {
  if (headings) return headings;
  headings = new Map();
  let text: string;
  try {
    text = readFileSync(join(PACKAGE_ROOT, ...DOCS.spec.split('/')), 'utf8');
  } catch {
    return headings;
  }
  for (const line of text.split('\n')) {
    const m = /^#{1,6}\s+((\d+(?:\.\d+)*)\.?\s.*?)\s*#*\s*$/.exec(line);
    if (m?.[1] && m[2] && !headings.has(m[2])) headings.set(m[2], m[1]);
  }
  return headings;
}

const pages = new Map<string, boolean>();

function pageRef(kind: 'mistake' | 'failure', folder: string, id: string): DocRef | undefined {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(id)) return undefined;
  const file = `${folder}/${id}.md`;
  let exists = pages.get(file);
  if (exists === undefined) {
    exists = existsSync(join(PACKAGE_ROOT, ...file.split('/')));
    pages.set(file, exists);
  }
  return exists ? { kind, label: id, file } : undefined;
}
