/**
 * certification.md: the certificate in Markdown, in the order of certification.html — the
 * verdict, who and what was certified, the requirements' table (failed first), why it is not
 * certified (each known mistake's meaning and fix written out), what the certification does not
 * cover, each requirement's checks (an answer body as a clipped code span, a failed check's call
 * again as a byte-exact curl line) and how the run went. Everything a merchant's page holds
 * (`<`, `|`, backticks, line breaks) is escaped or in code: nothing renders as HTML.
 * @module
 */
import { explained } from '../../../docs/cite.js';
import { mistakeRef } from '../../../docs/refs.js';
import { curlCommand } from '../../../reports/curl.js';
import { cellCode, code, md, withCode } from '../../../reports/markdown.js';
import {
  BODY_CHARS,
  BODY_NOTE,
  bodyShown,
  COVERS,
  failedRequirements,
  notCovered,
  reasonRequirement,
  requirementRow,
  requirementRows,
  resultWord,
  runFacts,
  shortBodies,
  subjectFacts,
  withoutBody,
  type Fact,
} from './_facts.js';
import type { CertificationResult, CheckOutcome, RequirementResult } from './certify.js';

/**
 * The certificate as Markdown.
 * @param r - the certification
 * @returns Markdown text
 * @example certificationMarkdown(result).startsWith('# Merchant certification')
 */
export function certificationMarkdown(r: CertificationResult): string {
  const rows = requirementRows(r);
  const failed = failedRequirements(r).length;
  const out = [`# Merchant certification: ${r.verdict}`, ''];
  const n = r.reasons.length;
  const some =
    failed > 0
      ? `${failed} of ${r.requirements.length} requirements failed`
      : `${n} reason${n === 1 ? '' : 's'}, below`;
  const said = r.verdict === 'CERTIFIED' ? 'no requirement failed' : some;
  out.push(`**${r.verdict}**: ${said}.`, '');
  for (const reason of r.reasons.filter((x) => reasonRequirement(x, r) === undefined))
    out.push(`> **${md(shortBodies(reason))}**`, '');
  out.push(...factTable(subjectFacts(r)), '');
  const count = (x: string): number => rows.filter((q) => q.requirement.result === x).length;
  out.push(
    `## Requirements (${rows.length}): ${count('fail')} failed, ${count('pass')} passed, ${count('advisory')} advisory`,
    '',
  );
  if (rows.length === 0) out.push('No check ran: no requirement was certified.');
  else
    out.push(
      '| Result | Requirement | What the merchant must do | Spec | Readings | Checks passed |',
      '|---|---|---|---|---|---|',
    );
  for (const { requirement: q, text } of rows) {
    const result = q.result === 'fail' ? `**${resultWord(q.result)}**` : resultWord(q.result);
    const readings = md(q.readings.join(' ')) || '—';
    out.push(
      `| ${result} | ${cellCode(q.id)} | ${md(q.title)} | ${md(q.sections.join(' '))} | ${readings} | ${text} |`,
    );
  }
  out.push('');
  out.push(...why(r));
  out.push('## What this certification does not cover', '');
  out.push(`${md(COVERS)} It says nothing of:`, '');
  for (const n of notCovered(r)) out.push(`- **${md(n.title)}** (${md(n.refs)}): ${md(n.text)}`);
  out.push('');
  out.push(
    "## Each requirement's checks",
    '',
    `What was sent, what the merchant had to do with it, and what it did. ${BODY_NOTE}`,
    '',
  );
  for (const { requirement: q } of rows) out.push(...requirementDetail(q));
  out.push('## How the run went', '', ...factTable(runFacts(r)), '');
  if (r.notes.length > 0) {
    out.push(`## Notes: advisory, acceptable and not applicable checks (${r.notes.length})`, '');
    out.push(...r.notes.map((x) => `- ${md(shortBodies(x))}`), '');
  }
  const links = ['report.html', 'report.md', 'results.json', 'junit.xml'].map((f) => `[${f}](${f})`).join(', ');
  out.push(`${md(`${r.kit.name} ${r.kit.version}`)}. In this folder, one case per call: ${links}.`);
  return `${out.join('\n')}\n`;
}

// --- internal ---

function factTable(facts: readonly Fact[]): string[] {
  return [
    '| | |',
    '|---|---|',
    ...facts.map((f) => `| ${md(f.label)} | ${f.code ? cellCode(f.value) : md(f.value)} |`),
  ];
}

/** Why not certified: each reason, its requirement's known mistake explained the first time it comes. */
function why(r: CertificationResult): string[] {
  if (r.reasons.length === 0) return [];
  const out = [`## Why ${r.verdict} (${r.reasons.length} reason${r.reasons.length === 1 ? '' : 's'})`, ''];
  const explainedAt = new Map<string, number>();
  r.reasons.forEach((reason, i) => {
    out.push(`${i + 1}. ${md(shortBodies(reason))}`);
    const q = reasonRequirement(reason, r);
    // the mistake the reason names: the one the run's diagnosis names for the failures, else the requirement's
    const id = q?.named ?? q?.mistake;
    if (id === undefined) return;
    const first = explainedAt.get(id);
    const e = explained(mistakeRef(id));
    if (first !== undefined) out.push(`   - the known mistake ${code(id)}: explained under reason ${first}`);
    else if (e) {
      explainedAt.set(id, i + 1);
      out.push(
        `   - what it means: ${withCode(e.means)}`,
        `   - how to fix it: ${withCode(e.fix)}`,
        `   - ${md(e.page)}`,
      );
    }
  });
  out.push('');
  return out;
}

/** One requirement: its facts, its checks' table, the failed checks' calls again with curl. */
function requirementDetail(q: RequirementResult): string[] {
  const facts = [
    `Spec ${md(q.sections.join(', '))}`,
    ...(q.readings.length > 0 ? [`readings ${md(q.readings.join(', '))}`] : []),
    `checks passed: ${requirementRow(q).text}`,
    ...(q.named !== undefined
      ? [`its failures are the known mistake ${code(q.named)}`]
      : q.mistake !== undefined
        ? [`a failure is the known mistake ${code(q.mistake)}`]
        : []),
  ];
  const out = [`### ${resultWord(q.result)}: ${code(q.id)} — ${md(q.title)}`, '', `${facts.join('; ')}.`, ''];
  out.push('| Check | Sent | Expected | Result | What happened | ms |', '|---|---|---|---|---|---|');
  for (const c of q.checks) {
    const result = resultWord(c.judgement.result);
    out.push(
      `| ${cellCode(c.id)} | ${md(c.title)} | ${c.expect} | ${result} | ${happened(c)} | ${c.outcome?.ms ?? ''} |`,
    );
  }
  out.push('');
  const calls = q.checks
    .filter((c) => c.judgement.result === 'fail' && c.call)
    .map((c) => [`# ${c.id}`, curlCommand(c.call) ?? '']);
  if (calls.length === 0) return out;
  out.push(
    "The failed checks' calls again, byte for byte (paste into a shell):",
    '',
    '```sh',
    ...calls.flat(),
    '```',
    '',
  );
  return out;
}

/** What happened, without the body the reason quotes; the body beside it as a clipped code span. */
function happened(c: CheckOutcome): string {
  const body = bodyShown(c.outcome);
  const size = body?.clipped ? `, first ${BODY_CHARS} characters of ${body.bytes} bytes` : '';
  const answer = body ? `; answer body${size}: ${cellCode(`${body.text}${body.clipped ? '…' : ''}`)}` : '';
  return `${md(withoutBody(c.judgement.reason))}${answer}`;
}
