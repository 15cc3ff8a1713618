/**
 * The certification report: certification.html, certification.md and certification.json, per
 * requirement (spec sections → checks → result), with the merchant's URLs, the kit version,
 * the plan hash, the seed, the date and the verdict with its reasons — written with the run's
 * standard reports (junit.xml, results.json, report.md, report.html, run.log) into one folder,
 * atomically, every file masked by the report redactor ({@link writeReports}).
 * @module
 */
import { citeRefsHtml, docsNamed } from '../docs/cite.js';
import { escapeHtml } from '../reports/escape.js';
import { describeImplementation } from '../subjects/subject.js';
import { REPORT_FILES, writeReports } from '../reports/write.js';
import type { CertificationResult } from './certify.js';
import { acceptanceWords } from '../merchant/acceptance.js';

/**
 * The certification's own pages, written beside the run's reports.
 * @example checkReportDir(dir, CERTIFICATION_PAGES)
 */
export const CERTIFICATION_PAGES = ['certification.json', 'certification.md', 'certification.html'] as const;

/**
 * The files of a certification report folder: the certification's pages, then the run's reports.
 * @example CERTIFICATION_FILES.map((f) => join(dir, f))
 */
export const CERTIFICATION_FILES = [...CERTIFICATION_PAGES, ...REPORT_FILES] as const;

/**
 * Writes the certification's pages and the run's standard reports into `dir`, replacing an
 * earlier report folder there; nothing is left half-written.
 * @param result - the certification
 * @param options - `dir`: the folder; `secrets`: texts to mask in every file
 * @returns the absolute folder and the file names
 * @throws {ReportWriteError} when `dir` exists and holds other files, or cannot be written
 * @example await writeCertificationReports(result, { dir: 'reports/cert-1', secrets: [secret] })
 */
export async function writeCertificationReports(result: CertificationResult, options: { readonly dir: string; readonly secrets: readonly string[] }): Promise<{ dir: string; files: string[] }> {
  const { run, ...certification } = result;
  return writeReports(run, {
    ...options,
    extra: [
      { name: 'certification.json', content: `${JSON.stringify(certification, null, 2)}\n` },
      { name: 'certification.md', content: certificationMarkdown(result) },
      { name: 'certification.html', content: certificationHtml(result) },
    ],
  });
}

/**
 * The verdict line every format carries.
 * @param result - the run
 * @returns e.g. `Verdict: NOT CERTIFIED (3 requirements failed)`
 * @example verdictLine(result) // 'Verdict: CERTIFIED'
 */
export function verdictLine(result: CertificationResult): string {
  return `Verdict: ${result.verdict}${result.reasons.length ? ` (${result.reasons.length} reason${result.reasons.length === 1 ? '' : 's'})` : ''}`;
}

/**
 * The Markdown report.
 * @param r - the run
 * @returns Markdown text
 * @example certificationMarkdown(result).startsWith('# Merchant certification')
 */
export function certificationMarkdown(r: CertificationResult): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const lines = [
    `# Merchant certification: ${r.verdict}`,
    '',
    `**${verdictLine(r)}**`,
    '',
  ];
  if (r.reasons.length) lines.push('## Reasons', '', ...r.reasons.map((x) => `- ${x}`), '');
  lines.push(...summary(r).map(([k, v]) => `- ${k}: ${v}`), '');
  lines.push('## Requirements', '', '| Requirement | Spec | Readings | Result | Checks |', '|---|---|---|---|---|');
  for (const q of r.requirements) lines.push(`| ${q.id}: ${cell(q.title)} | ${q.sections.join(', ')} | ${q.readings.join(', ')} | ${q.result.toUpperCase()} | ${q.checks.length} |`);
  lines.push('');
  for (const q of r.requirements) {
    const docs = docsNamed([...q.sections, ...q.readings].join(', '));
    lines.push(`## ${q.id} — ${q.title}`, '', `Spec ${q.sections.join(', ')}${q.readings.length ? `; readings ${q.readings.join(', ')}` : ''}.${q.mistake !== undefined ? ` Catches the known mistake \`${q.mistake}\`.` : ''} Result: **${q.result.toUpperCase()}**.${docs ? ` Docs, in the kit: ${docs}.` : ''}`, '');
    lines.push('| Check | Sent | Expected | Result | What happened | ms |', '|---|---|---|---|---|---|');
    for (const c of q.checks) lines.push(`| ${c.id} | ${cell(c.title)} | ${c.expect} | ${c.judgement.result.toUpperCase()} | ${cell(c.judgement.reason)} | ${c.outcome?.ms ?? ''} |`);
    lines.push('');
  }
  if (r.notes.length) lines.push('## Notes (acceptable, advisory and not-applicable checks)', '', ...r.notes.map((n) => `- ${n}`), '');
  return `${lines.join('\n')}\n`;
}

/**
 * The HTML report (one self-contained page).
 * @param r - the run
 * @returns HTML text
 * @example certificationHtml(result).includes('<h1>')
 */
export function certificationHtml(r: CertificationResult): string {
  const e = escapeHtml;
  const rows = r.requirements
    .map((q) => {
      const checks = q.checks
        .map((c) => `<tr class="${c.judgement.result}"><td><code>${e(c.id)}</code></td><td class="long">${e(c.title)}</td><td>${e(c.expect)}</td><td>${e(c.judgement.result.toUpperCase())}</td><td class="long">${e(c.judgement.reason)}</td><td>${c.outcome?.ms ?? ''}</td></tr>`)
        .join('\n');
      return `<h3 id="${e(q.id)}" class="${q.result}">${e(q.id)} — ${e(q.title)}: ${e(q.result.toUpperCase())}</h3>\n<p>Spec ${citeRefsHtml(e(q.sections.join(', ')), true)}${q.readings.length ? `; readings ${citeRefsHtml(e(q.readings.join(', ')))}` : ''}${q.mistake !== undefined ? `; catches the known mistake <code>${e(q.mistake)}</code>` : ''}</p>\n<div class="scroll"><table><tr><th>Check</th><th>Sent</th><th>Expected</th><th>Result</th><th>What happened</th><th>ms</th></tr>\n${checks}\n</table></div>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Merchant certification: ${e(r.verdict)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:1.5em}table{border-collapse:collapse;margin-bottom:1em;max-width:100%}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}body{overflow-wrap:break-word}code,td.long{overflow-wrap:anywhere}td.long{min-width:12em}td code{overflow-wrap:break-word}.scroll{overflow-x:auto;max-width:100%}.fail{color:#a00}.pass{color:#060}.advisory{color:#a60}.verdict{font-size:1.4em}.doc{text-decoration:underline dotted;cursor:help}@media (max-width:700px){body{padding:.8em}}</style></head>
<body>
<h1>Merchant certification</h1>
<p class="verdict ${r.verdict === 'CERTIFIED' ? 'pass' : 'fail'}"><strong>${e(verdictLine(r))}</strong></p>
${r.reasons.length ? `<h2>Reasons</h2><ul>${r.reasons.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : ''}
<ul>${summary(r).map(([k, v]) => `<li>${e(k)}: ${e(v)}</li>`).join('')}</ul>
<h2>Requirements</h2>
${rows}
${r.notes.length ? `<h2>Notes</h2><ul>${r.notes.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : ''}
</body></html>
`;
}

// --- internal ---

function summary(r: CertificationResult): Array<[string, string]> {
  const m = r.merchant;
  const robustness = Object.entries(r.robustness).map(([k, n]) => `${k} ×${n}`).join(', ');
  return [
    // who the merchant is, as --name and --version say (default: its host); a merchant not reached said nothing
    ...(r.run.aborted ? [] : [['merchant', describeImplementation(r.run.implementation)] as [string, string]]),
    ['notifyUrl (registered)', m.notifyUrl],
    ['webhooks delivered to', m.deliverTo],
    ['returnUrl (registered)', m.returnUrl],
    ['redirects delivered to', m.returnDeliverTo],
    ['appId', m.appId],
    ['kit', `${r.kit.name} ${r.kit.version}`],
    ['date', r.date],
    ['seed', String(r.seed)],
    ['plan hash (SHA-256 of the cases)', r.planHash],
    ['vector set hash', r.vectorSetHash],
    ['timeout per call', `${r.timeoutMs} ms`],
    ['accepted means (notify)', acceptanceWords('notify', r)],
    ['accepted means (return)', acceptanceWords('return', r)],
    ['checks', `${r.totals.pass} passed, ${r.totals.fail} failed, ${r.totals.advisory} advisory, ${r.totals['not-applicable']} not applicable`],
    ['robustness', robustness || 'every call answered (no 5xx, timeout or reset)'],
  ];
}
