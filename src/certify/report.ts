/**
 * The certification report: HTML, Markdown, JSON and JUnit XML, per requirement (spec
 * sections → checks → result), with the merchant's URLs, the kit version, the plan
 * hash, the seed, the date and the verdict with its reasons. Every file passes through
 * the report redactor (the secret, fragments of it, base64 of it), and the folder is
 * written atomically: into a temporary sibling, then renamed into place.
 * @module
 */
import { docsNamed, linkRefsHtml } from '../docs/refs.js';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { escapeHtml, escapeXml } from '../reports/escape.js';
import { Redactor } from '../reports/redact.js';
import type { CertificationResult, CheckOutcome } from './certify.js';

/**
 * The files of a certification report folder.
 * @example CERTIFICATION_FILES.map((f) => join(dir, f))
 */
export const CERTIFICATION_FILES = ['certification.json', 'certification.md', 'certification.html', 'junit.xml'] as const;

/**
 * The report folder could not be written; nothing was left half-written.
 * @example catch (e) { if (e instanceof CertificationReportError) console.error(e.message) }
 */
export class CertificationReportError extends Error {
  /** Stable code for scripts. */
  readonly code = 'PGV2_CERTIFY_REPORT';
  override readonly name = 'CertificationReportError';
}

/**
 * Writes the four report files into `dir`, replacing an earlier certification report there.
 * @param result - the run
 * @param options - `dir`: the folder; `secrets`: texts to mask in every file
 * @returns the absolute folder and the file names
 * @throws {CertificationReportError} when `dir` exists and holds other files, or cannot be written
 * @example await writeCertificationReports(result, { dir: 'reports/cert-1', secrets: [secret] })
 */
export async function writeCertificationReports(result: CertificationResult, options: { readonly dir: string; readonly secrets: readonly string[] }): Promise<{ dir: string; files: string[] }> {
  const target = resolve(options.dir);
  const parent = dirname(target);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const temp = join(parent, `.${basename(target)}.tmp-${suffix}`);
  const old = join(parent, `.${basename(target)}.old-${suffix}`);
  const redactor = new Redactor(options.secrets);
  const contents: Record<(typeof CERTIFICATION_FILES)[number], string> = {
    'certification.json': `${JSON.stringify(result, null, 2)}\n`,
    'certification.md': certificationMarkdown(result),
    'certification.html': certificationHtml(result),
    'junit.xml': certificationJunit(result),
  };
  let existing: string[] | undefined;
  try {
    existing = await fs.readdir(target);
  } catch {
    existing = undefined;
  }
  if (existing && existing.some((f) => !(CERTIFICATION_FILES as readonly string[]).includes(f))) {
    throw new CertificationReportError(`cannot write the report folder ${target}: it exists and holds other files than ${CERTIFICATION_FILES.join(', ')}`);
  }
  try {
    await fs.mkdir(parent, { recursive: true });
    await fs.mkdir(temp);
    for (const name of CERTIFICATION_FILES) await fs.writeFile(join(temp, name), redactor.text(contents[name]));
    if (existing) await fs.rename(target, old);
    await fs.rename(temp, target);
    if (existing) await fs.rm(old, { recursive: true, force: true });
  } catch (e) {
    await fs.rm(temp, { recursive: true, force: true });
    throw new CertificationReportError(`cannot write the report folder ${target}: ${e instanceof Error ? e.message : String(e)}`);
  }
  return { dir: target, files: [...CERTIFICATION_FILES] };
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
    ...summary(r).map(([k, v]) => `- ${k}: ${v}`),
    '',
  ];
  if (r.reasons.length) lines.push('## Reasons', '', ...r.reasons.map((x) => `- ${x}`), '');
  lines.push('## Requirements', '', '| Requirement | Spec | Readings | Result | Checks |', '|---|---|---|---|---|');
  for (const q of r.requirements) lines.push(`| ${q.id}: ${cell(q.title)} | ${q.sections.join(', ')} | ${q.readings.join(', ')} | ${q.result.toUpperCase()} | ${q.checks.length} |`);
  lines.push('');
  if (r.notes.length) lines.push('## Notes (acceptable, advisory and not-applicable checks)', '', ...r.notes.map((n) => `- ${n}`), '');
  for (const q of r.requirements) {
    const docs = docsNamed([...q.sections, ...q.readings].join(', '));
    lines.push(`## ${q.id} — ${q.title}`, '', `Spec ${q.sections.join(', ')}${q.readings.length ? `; readings ${q.readings.join(', ')}` : ''}. Result: **${q.result.toUpperCase()}**.${docs ? ` Docs: ${docs}.` : ''}`, '');
    lines.push('| Check | Sent | Expected | Result | What happened | ms |', '|---|---|---|---|---|---|');
    for (const c of q.checks) lines.push(`| ${c.id} | ${cell(c.title)} | ${c.expect} | ${c.judgement.result.toUpperCase()} | ${cell(c.judgement.reason)} | ${c.outcome?.ms ?? ''} |`);
    lines.push('');
  }
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
        .map((c) => `<tr class="${c.judgement.result}"><td><code>${e(c.id)}</code></td><td>${e(c.title)}</td><td>${e(c.expect)}</td><td>${e(c.judgement.result.toUpperCase())}</td><td>${e(c.judgement.reason)}</td><td>${c.outcome?.ms ?? ''}</td></tr>`)
        .join('\n');
      return `<h3 id="${e(q.id)}" class="${q.result}">${e(q.id)} — ${e(q.title)}: ${e(q.result.toUpperCase())}</h3>\n<p>Spec ${linkRefsHtml(e(q.sections.join(', ')), true)}${q.readings.length ? `; readings ${linkRefsHtml(e(q.readings.join(', ')))}` : ''}</p>\n<table><tr><th>Check</th><th>Sent</th><th>Expected</th><th>Result</th><th>What happened</th><th>ms</th></tr>\n${checks}\n</table>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Merchant certification: ${e(r.verdict)}</title>
<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}.fail{color:#a00}.pass{color:#060}.advisory{color:#a60}.verdict{font-size:1.4em}</style></head>
<body>
<h1>Merchant certification</h1>
<p class="verdict ${r.verdict === 'CERTIFIED' ? 'pass' : 'fail'}"><strong>${e(verdictLine(r))}</strong></p>
<ul>${summary(r).map(([k, v]) => `<li>${e(k)}: ${e(v)}</li>`).join('')}</ul>
${r.reasons.length ? `<h2>Reasons</h2><ul>${r.reasons.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : ''}
${r.notes.length ? `<h2>Notes</h2><ul>${r.notes.map((x) => `<li>${e(x)}</li>`).join('')}</ul>` : ''}
<h2>Requirements</h2>
${rows}
</body></html>
`;
}

/**
 * The JUnit XML report: a testsuite per requirement, a testcase per check; failures
 * as `<failure>`, not-applicable checks as `<skipped>`, advisory findings in `<system-out>`.
 * @param r - the run
 * @returns XML text
 * @example certificationJunit(result).startsWith('<?xml')
 */
export function certificationJunit(r: CertificationResult): string {
  const x = (s: string) => escapeXml(s, true);
  const count = (checks: readonly CheckOutcome[], k: string) => checks.filter((c) => c.judgement.result === k).length;
  const all = r.requirements.flatMap((q) => q.checks);
  const seconds = (c: CheckOutcome) => ((c.outcome?.ms ?? 0) / 1000).toFixed(3);
  const suites = r.requirements.map((q) => {
    const cases = q.checks.map((c) => {
      const inner =
        c.judgement.result === 'fail' ? `<failure message="${x(c.judgement.reason)}" type="${x(c.judgement.handling)}"/>` :
        c.judgement.result === 'not-applicable' ? `<skipped message="${x(c.judgement.reason)}"/>` :
        c.judgement.result === 'advisory' ? `<system-out>${escapeXml(`advisory: ${c.judgement.reason}`)}</system-out>` : '';
      return `    <testcase classname="${x(q.id)}" name="${x(`${c.id}: ${c.title}`)}" time="${seconds(c)}">${inner}</testcase>`;
    });
    return `  <testsuite name="${x(`${q.id} (${q.sections.join(', ')})`)}" tests="${q.checks.length}" failures="${count(q.checks, 'fail')}" skipped="${count(q.checks, 'not-applicable')}" errors="0">\n${cases.join('\n')}\n  </testsuite>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${x(`pgv2kit certify: ${r.verdict}`)}" tests="${all.length}" failures="${count(all, 'fail')}" skipped="${count(all, 'not-applicable')}" errors="0">
  <properties><property name="verdict" value="${x(r.verdict)}"/>${summary(r).map(([k, v]) => `<property name="${x(k)}" value="${x(v)}"/>`).join('')}</properties>
${suites.join('\n')}
</testsuites>
`;
}

// --- internal ---

function summary(r: CertificationResult): Array<[string, string]> {
  const m = r.merchant;
  const robustness = Object.entries(r.robustness).map(([k, n]) => `${k} ×${n}`).join(', ');
  return [
    ['notifyUrl (registered)', m.notifyUrl],
    ['webhooks delivered to', m.deliverTo],
    ['returnUrl (registered)', m.returnUrl],
    ['redirects delivered to', m.returnDeliverTo],
    ['appId', m.appId],
    ['kit', `${r.kit.name} ${r.kit.version}`],
    ['date', r.date],
    ['seed', String(r.seed)],
    ['plan hash (SHA-256 of the cases)', r.planHash],
    ['timeout per call', `${r.timeoutMs} ms`],
    ['accepted means', r.acceptBody !== undefined ? `2xx with body ${JSON.stringify(r.acceptBody)}` : 'any 2xx'],
    ['checks', `${r.totals.pass} passed, ${r.totals.fail} failed, ${r.totals.advisory} advisory, ${r.totals['not-applicable']} not applicable`],
    ['robustness', robustness || 'every call answered (no 5xx, timeout or reset)'],
  ];
}
