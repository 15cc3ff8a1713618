/**
 * The certification report: certification.html (html.ts), certification.md (markdown.ts) and
 * certification.json — the verdict with its reasons, who and what was certified, each requirement
 * (spec sections → checks → result), what the certification does not cover — written with the
 * run's standard reports (junit.xml, results.json, report.md, report.html, run.log) into one
 * folder, atomically; every text is masked by the report redactor before a page is rendered.
 * @module
 */
import { redactorFor } from '../../../reports/redact.js';
import { REPORT_FILES, writeReports } from '../../../reports/write.js';
import type { CertificationResult } from './certify.js';
import { certificationHtml } from './html.js';
import { certificationMarkdown } from './markdown.js';

export { certificationHtml } from './html.js';
export { certificationMarkdown } from './markdown.js';

/**
 * The certification's own pages, written beside the run's reports.
 * @example CERTIFICATION_PAGES.includes('certification.html') // true
 */
export const CERTIFICATION_PAGES = ['certification.json', 'certification.md', 'certification.html'] as const;

/**
 * The files of a certification report folder: the certification's pages, then the run's reports.
 * @example CERTIFICATION_FILES.includes('report.html') // true — the run's reports beside the certification's pages
 */
export const CERTIFICATION_FILES = [...CERTIFICATION_PAGES, ...REPORT_FILES] as const;

/**
 * Writes the certification's pages and the run's standard reports into `dir`, replacing an
 * earlier report folder there; nothing is left half-written.
 * @param result - the certification
 * @param options - `dir`: the folder; `secrets`: texts to mask in every file
 * @returns the absolute folder and the file names
 * @throws {ReportWriteError} when `dir` exists and holds other files, or cannot be written
 * @example
 * const written = await writeCertificationReports(result, { dir: `${tmp}/cert-1`, secrets: [appSecret] });
 * written.files.includes('certification.html') // true
 */
export async function writeCertificationReports(
  result: CertificationResult,
  options: { readonly dir: string; readonly secrets: readonly string[] },
): Promise<{ dir: string; files: string[] }> {
  return writeReports(result.run, { ...options, extra: certificationPages(result, options.secrets) });
}

/**
 * The certification's own pages (certification.json, .md and .html) as they are written beside the run's reports:
 * masked as data, then rendered, each page escaping for its format. A page is never rewritten after it is rendered:
 * a secret that is markup (`<p class="comment">`) would turn the page's own tags into attributes (issue 25, item 1).
 * @param result - the certification
 * @param secrets - texts to mask
 * @returns the pages, by file name
 * @example
 * certificationPages(result, [appSecret]).map((p) => p.name)
 * // ['certification.json', 'certification.md', 'certification.html']
 */
export function certificationPages(
  result: CertificationResult,
  secrets: readonly string[],
): Array<{ readonly name: string; readonly content: string }> {
  const { run, ...certification } = result;
  const redactor = redactorFor(secrets);
  const clean = redactor.data(certification);
  const page: CertificationResult = {
    ...clean,
    run: { ...run, implementation: redactor.data(run.implementation) },
  };
  return [
    { name: 'certification.json', content: `${JSON.stringify(clean, null, 2)}\n` },
    { name: 'certification.md', content: certificationMarkdown(page) },
    { name: 'certification.html', content: certificationHtml(page) },
  ];
}

/**
 * The verdict line every format carries.
 * @param result - the run
 * @returns e.g. `Verdict: NOT CERTIFIED (3 requirements failed)`
 * @example
 * verdictLine({
 *   verdict: 'NOT CERTIFIED',
 *   reasons: ['the webhook endpoint never answered'],
 * }) // 'Verdict: NOT CERTIFIED (1 reason)'
 */
export function verdictLine(result: CertificationResult): string {
  const count = result.reasons.length;
  const reasonCount = count ? ` (${count} reason${count === 1 ? '' : 's'})` : '';
  return `Verdict: ${result.verdict}${reasonCount}`;
}
