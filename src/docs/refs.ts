/**
 * References to the shipped documentation: a reading (`R8`), a spec section (`5.3`,
 * `§5.3`), a known mistake (`no-final-lf`) or a failure kind (`sign-mismatch`) turned
 * into the file of `docs/` it points to — `docs/readings.md` (row R8),
 * `docs/gateway-spec.md#53-authorization-header`, `docs/mistakes/no-final-lf.md`,
 * `docs/failures/sign-mismatch.md`. Paths are resolved against the installed package
 * root, found from this module's own URL, so they hold in a clone and in
 * `node_modules/pgv2kit` alike. No dependencies but node:fs, node:path and node:url:
 * reports and the CLI can both use it.
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

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
 * @example sectionRef('§5.3') // { kind: 'section', label: '§5.3', file: 'docs/gateway-spec.md', anchor: '53-authorization-header' }
 */
export function sectionRef(section: string): DocRef | undefined {
  const m = /^§?\s*(\d+(?:\.\d+)*)\.?$/.exec(section.trim());
  if (!m?.[1]) return undefined;
  const number = m[1];
  const anchor = specAnchors().get(number);
  return { kind: 'section', label: `§${number}`, file: DOCS.spec, ...(anchor ? { anchor } : {}) };
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
 * @param bareSections - also read `5.3` without `§` (default: true; false for free text, where a number may be anything)
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
  for (const m of text.matchAll(/\bR(\d+)(?:\s*[-–]\s*R(\d+))?\b|§\s*(\d+(?:\.\d+)*)|(?<![\w.§])(\d+\.\d+)(?![\w.])/g)) {
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
 * Where a reference points, as a file: URL in the installed package (for report.html,
 * which may be read anywhere on the machine).
 * @param ref - the reference
 * @returns e.g. `file:///…/node_modules/pgv2kit/docs/gateway-spec.md#53-authorization-header`
 * @example docUrl(readingRef('R8')!) // 'file:///…/docs/readings.md'
 */
export function docUrl(ref: DocRef): string {
  const url = pathToFileURL(join(PACKAGE_ROOT, ...ref.file.split('/'))).href;
  return ref.anchor ? `${url}#${ref.anchor}` : url;
}

/**
 * Where a reference points, as a person at `cwd` types it: relative to `cwd` when the
 * package is inside it (`docs/readings.md` in a clone, `node_modules/pgv2kit/docs/readings.md`
 * in a project that installed it), else the absolute path.
 * @param ref - the reference
 * @param cwd - the working folder (default: the process's)
 * @returns the path, with `#anchor` for a spec section
 * @example docDisplayPath(readingRef('R8')!) // 'docs/readings.md' (in a clone)
 */
export function docDisplayPath(ref: DocRef, cwd: string = process.cwd()): string {
  const abs = join(PACKAGE_ROOT, ...ref.file.split('/'));
  const rel = relative(cwd, abs);
  const shown = rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : abs;
  return ref.anchor ? `${shown}#${ref.anchor}` : shown;
}

/**
 * A trailing pointer to the documents a reference text cites, for CLI messages:
 * readings grouped on one file, each section with its anchor.
 * @param text - e.g. `§5.1, R1`
 * @param cwd - the working folder (default: the process's)
 * @param bareSections - also read `5.3` without `§` (false for free text)
 * @returns e.g. `see docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)`; '' when nothing is cited
 * @example seeDocs('R8') // 'see docs/readings.md (R8)'
 */
export function seeDocs(text: string, cwd?: string, bareSections = true): string {
  const shown = named(refsIn(text, bareSections), (r) => docDisplayPath(r, cwd));
  return shown === '' ? '' : `see ${shown}`;
}

/**
 * The documents a reference text cites, named by their path in the package, for
 * report.md: readings grouped on one file, each section with its anchor.
 * @param text - e.g. `§5.1, R1`, or a case's sections and readings joined
 * @returns e.g. `docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)`; '' when nothing is cited
 * @example docsNamed('5.3, R8') // 'docs/gateway-spec.md#53-authorization-header, docs/readings.md (R8)'
 */
export function docsNamed(text: string): string {
  return named(refsIn(text), docPath);
}

/**
 * Links every R-number and `§` section in HTML text (already escaped) to its file in the
 * installed package (a file: URL, see {@link docUrl}); bare section numbers (`5.1`) too
 * when `bareSections` is set (for lists of sections).
 * @param escaped - HTML-escaped text, no markup
 * @param bareSections - link `5.1` as well as `§5.1`
 * @returns the HTML with `<a class="doc" href="file:…">R8</a>` around each reference
 * @example linkRefsHtml('reading R8') // 'reading <a class="doc" href="file:///…/docs/readings.md">R8</a>'
 */
export function linkRefsHtml(escaped: string, bareSections = false): string {
  const pattern = bareSections ? /\bR\d+\b|§\s*\d+(?:\.\d+)*|(?<![\w.§#&;])\d+(?:\.\d+)*(?![\w.]|;)/g : /\bR\d+\b|§\s*\d+(?:\.\d+)*/g;
  return escaped.replace(pattern, (m) => {
    const ref = m.startsWith('R') ? readingRef(m) : sectionRef(m);
    return ref ? `<a class="doc" href="${attr(docUrl(ref))}">${m}</a>` : m;
  });
}

/**
 * An HTML link to a shipped page (a known mistake, a failure kind), or the text alone
 * when the package has no such page.
 * @param ref - the page, from {@link mistakeRef} or {@link failureRef}
 * @param html - the link's content (HTML)
 * @returns `<a class="doc" href="file:…">html</a>`, or `html`
 * @example pageLinkHtml(mistakeRef('no-final-lf'), '<code>no-final-lf</code>')
 */
export function pageLinkHtml(ref: DocRef | undefined, html: string): string {
  return ref ? `<a class="doc" href="${attr(docUrl(ref))}">${html}</a>` : html;
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

/** Sections each with its path, then the readings on one path with their labels. */
function named(refs: readonly DocRef[], path: (r: DocRef) => string): string {
  const parts = [...new Set(refs.filter((r) => r.kind !== 'reading').map(path))];
  const readings = refs.filter((r) => r.kind === 'reading').sort((a, b) => Number(a.label.slice(1)) - Number(b.label.slice(1)));
  const first = readings[0];
  if (first) parts.push(`${path(first)} (${readings.map((r) => r.label).join(', ')})`);
  return parts.join(', ');
}

/** Escapes a value for a double-quoted HTML attribute. */
function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

let anchors: Map<string, string> | undefined;

/** Section number → anchor of its heading in the shipped spec (read once). */
function specAnchors(): Map<string, string> {
  if (anchors) return anchors;
  anchors = new Map();
  let text = '';
  try {
    text = readFileSync(join(PACKAGE_ROOT, ...DOCS.spec.split('/')), 'utf8');
  } catch {
    return anchors;
  }
  for (const line of text.split('\n')) {
    const m = /^#{1,6}\s+((\d+(?:\.\d+)*)\.?\s.*?)\s*#*\s*$/.exec(line);
    if (m?.[1] && m[2] && !anchors.has(m[2])) anchors.set(m[2], headingSlug(m[1]));
  }
  return anchors;
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
