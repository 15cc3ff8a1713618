/**
 * How the reports and the terminal point at the shipped docs: the one place where a
 * reference (src/docs/refs.ts) becomes something a reader is shown.
 *
 * The decision. A report is read where it was not written: a CI artifact downloaded to a
 * laptop, a folder sent to a colleague. So no report names a file of the machine that wrote
 * it — never a `file:///…` URL nor an absolute path — and none links a path relative to the
 * report either: where the report will be opened from, against the kit's docs/, is not known.
 * A report says instead what the page says, where it is read — a known mistake's or a failure
 * kind's meaning and fix inline ({@link explained}), a reading's point and a section's heading
 * as the title of the reference ({@link citeRefsHtml}) — and names the page as text, relative
 * to the kit (`docs/mistakes/no-final-lf.md in the kit`: {@link inKit}, {@link docsNamed});
 * results.json carries the same relative path. A link to the docs at a public address would be
 * right only if the package declared a stable one (package.json `homepage`); it declares none,
 * so no report links out. The terminal is read where the kit runs: it names the page by its
 * path from the working folder ({@link docDisplayPath}) — still a path, never a URL.
 * @module
 */
import { isAbsolute, join, relative, sep } from 'node:path';
import { readingTexts } from './readings.js';
import { pageText } from './pages.js';
import { docPath, PACKAGE_ROOT, readingRef, refsIn, sectionRef, type DocRef } from './refs.js';

/**
 * A page named as a report names it: its path in the kit, as text.
 * @param ref - the page
 * @returns e.g. `docs/mistakes/no-final-lf.md in the kit`
 * @example
 * import { mistakeRef } from './refs.js';
 * inKit(mistakeRef('no-final-lf')!) // 'docs/mistakes/no-final-lf.md in the kit'
 */
export function inKit(ref: DocRef): string {
  return `${docPath(ref)} in the kit`;
}

/** A page's explanation as a report writes it inline: what it means, how to fix it, and the page named. */
export interface Explained {
  readonly means: string;
  readonly fix: string;
  /** The page, as {@link inKit} names it. */
  readonly page: string;
}

/**
 * What a known mistake's or a failure kind's page explains, for a report to say inline.
 * @param ref - the page, from `mistakeRef` or `failureRef` (undefined gives undefined)
 * @returns what it means and how to fix it (Markdown links reduced to their text, `code`
 *   spans in backticks) with the page named; undefined when there is no such page
 * @example
 * import { mistakeRef } from './refs.js';
 * explained(mistakeRef('no-final-lf'))?.fix // 'Append an LF after every part, the body included: …'
 */
export function explained(ref: DocRef | undefined): Explained | undefined {
  const text = pageText(ref);
  return ref && text ? { means: text.means, fix: text.fix, page: inKit(ref) } : undefined;
}

/**
 * Where a reference points, as a person at `cwd` types it (the terminal): relative to `cwd`
 * when the package is inside it (`docs/readings.md` in a clone, `node_modules/pgv2kit/docs/readings.md`
 * in a project that installed it), else the absolute path.
 * @param ref - the reference
 * @param cwd - the working folder (default: the process's)
 * @returns the path, with `#anchor` for a spec section
 * @example docDisplayPath(readingRef('R8')!) // 'docs/readings.md' — in a clone
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
 * The documents a reference text cites, named by their path in the package, for the
 * reports: readings grouped on one file, each section with its anchor.
 * @param text - e.g. `§5.1, R1`, or a case's sections and readings joined
 * @returns e.g. `docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)`; '' when nothing is cited
 * @example docsNamed('5.3, R8') // 'docs/gateway-spec.md#53-authorization-header, docs/readings.md (R8)'
 */
export function docsNamed(text: string): string {
  return named(refsIn(text), docPath);
}

/**
 * Marks every R-number and `§` section in HTML text (already escaped) as a citation whose
 * title says it — the reading's point and the kit's reading, the section's heading — and
 * names its file in the kit; bare section numbers (`5.1`) too when `bareSections` is set
 * (for lists of sections). No link: see the decision above.
 * @param escaped - HTML-escaped text, no markup
 * @param bareSections - mark `5.1` as well as `§5.1`
 * @returns the HTML with `<span class="doc" title="…">R8</span>` around each reference
 * @example
 * const title = 'R8: header grammar (5.3) — … (docs/readings.md in the kit)';
 * citeRefsHtml('reading R8') // `reading <span class="doc" title="${title}">R8</span>`
 */
export function citeRefsHtml(escaped: string, bareSections = false): string {
  const pattern = bareSections
    ? /\bR\d+\b|§\s*\d+(?:\.\d+)*|(?<![\w.§#&;])\d+(?:\.\d+)*(?![\w.]|;)/g
    : /\bR\d+\b|§\s*\d+(?:\.\d+)*/g;
  return escaped.replace(pattern, (m) => {
    const ref = m.startsWith('R') ? readingRef(m) : sectionRef(m);
    return ref ? `<span class="doc" title="${attr(citation(ref))}">${m}</span>` : m;
  });
}

/**
 * HTML (a status badge, a mistake's id) marked as citing a page: its title says what the
 * page says it means, and names the page in the kit. No link: see the decision above.
 * @param ref - the page, from `mistakeRef` or `failureRef`; undefined leaves the HTML alone
 * @param html - what cites it
 * @returns `<span class="doc" title="…">html</span>`, or `html`
 * @example
 * import { failureRef } from './refs.js';
 * const title = 'the implementation is not conformant on this case: … (docs/failures/failed.md in the kit)';
 * citePageHtml(failureRef('failed'), 'FAILED') // `<span class="doc" title="${title}">FAILED</span>`
 */
export function citePageHtml(ref: DocRef | undefined, html: string): string {
  if (!ref) return html;
  const text = pageText(ref);
  const title = text ? `${text.title}: ${text.means} (${inKit(ref)})` : inKit(ref);
  return `<span class="doc" title="${attr(title)}">${html}</span>`;
}

// --- internal ---

/**
 * What a reading or a section says, in one line, for the title of its citation:
 * `§5.3 Authorization header (docs/gateway-spec.md#53-authorization-header in the kit)`.
 */
function citation(ref: DocRef): string {
  if (ref.kind === 'reading') {
    const r = readingTexts().get(ref.label);
    const said = r ? `: ${r.point} — ${clip(r.reading, READING_CHARS)}` : '';
    return `${ref.label}${said} (${inKit(ref)})`;
  }
  return `${ref.heading ? `§${ref.heading}` : ref.label} (${inKit(ref)})`;
}

/** The most characters of a reading a citation's title quotes (R8's is 2,000: the page has it all). */
const READING_CHARS = 300;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/** Sections each with its path, then the readings on one path with their labels. */
function named(refs: readonly DocRef[], path: (r: DocRef) => string): string {
  const parts = [...new Set(refs.filter((r) => r.kind !== 'reading').map(path))];
  const readings = refs
    .filter((r) => r.kind === 'reading')
    .sort((a, b) => Number(a.label.slice(1)) - Number(b.label.slice(1)));
  const first = readings[0];
  if (first) parts.push(`${path(first)} (${readings.map((r) => r.label).join(', ')})`);
  return parts.join(', ');
}

/** Escapes a value for a double-quoted HTML attribute. */
function attr(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
