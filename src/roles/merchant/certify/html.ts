/**
 * certification.html: the certificate as one self-contained page, in report.html's look (its
 * stylesheet, src/reports/style.ts, and a few rules of its own). Its first screen is what a
 * merchant's manager sees: the verdict, who and what was certified, and the requirements in one
 * table, failed ones first. Then why it is not certified (each known mistake's meaning and fix
 * written out), what the certification does not cover, each requirement's checks — what was sent,
 * what was expected, what happened, the merchant's answer body as clipped text, and for a failed
 * check its call again as a byte-exact curl line — and how the run went. No `file://` link, no
 * link to the kit's docs: the only links are to this page's parts and to the run's reports
 * beside it (relative).
 * @module
 */
import { citeRefsHtml } from '../../../docs/cite.js';
import { mistakeRef } from '../../../docs/refs.js';
import { curlCommand } from '../../../reports/curl.js';
import { escapeHtml as h } from '../../../reports/escape.js';
import { explanationHtml } from '../../../reports/explanation-html.js';
import { pageHead, REPORT_CSS } from '../../../reports/style.js';
import {
  BODY_CHARS,
  BODY_NOTE,
  bodyShown,
  COVERS,
  NO_CHECK,
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
import type { CertificationResult, CheckOutcome, CheckResult, RequirementResult } from './certify.js';

/**
 * The certificate as HTML (one self-contained page).
 * @param r - the certification
 * @returns HTML text
 * @example certificationHtml(result).includes('<h1>')
 */
export function certificationHtml(r: CertificationResult): string {
  const certified = r.verdict === 'CERTIFIED';
  const failed = failedRequirements(r).length;
  const title = `Merchant certification: ${r.verdict}`;
  const body = [
    '<header class="cert">',
    '<div class="cert-top">',
    '<h1>Merchant certification' +
      `<span class="kicker">${h(`V2_SHA256 webhooks and return redirects · ${r.kit.name}`)}</span></h1>`,
    `<div class="stamp ${certified ? 'ok' : 'bad'}"><strong>${h(r.verdict)}</strong>`,
    `<span>${h(stampLine(r, failed))}</span></div>`,
    '</div>',
    facts(subjectFacts(r), 'facts'),
    ...runReasons(r),
    '</header>',
    requirementTable(r),
    nav(r),
    ...why(r),
    notCoveredSection(r),
    `<section id="details"><h2>Each requirement's checks</h2>`,
    `<p class="ref">What was sent, what the merchant had to do with it, and what it did. ${BODY_NOTE}</p>`,
    ...requirementRows(r).map((row) => requirementDetail(row.requirement)),
    '</section>',
    `<section id="run"><h2>How the run went</h2>${facts(runFacts(r), 'meta')}</section>`,
    notes(r),
    `<footer>${h(`${r.kit.name} ${r.kit.version} · vector set ${r.vectorSetHash}`)}`,
    ` · in this folder, one case per call: ${reportLinks()}</footer>`,
  ];
  return [
    ...pageHead(h(title), `${REPORT_CSS}\n${CERTIFICATE_CSS}`),
    '<body class="certificate">',
    ...body.filter((l) => l !== ''),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

// --- internal ---

/** The run's standard reports, beside the certificate (linked relative to it). */
const REPORTS = ['report.html', 'report.md', 'results.json', 'junit.xml'] as const;

function reportLinks(): string {
  return REPORTS.map((f) => `<a href="${f}">${f}</a>`).join(', ');
}

function notes(r: CertificationResult): string {
  if (r.notes.length === 0) return '';
  const items = r.notes.map((n) => `<li>${h(shortBodies(n))}</li>`).join('');
  const title = `Notes: advisory, acceptable and not applicable checks (${r.notes.length})`;
  return `<section id="notes"><h2>${title}</h2><ul class="notes">${items}</ul></section>`;
}

/**
 * What the certificate page adds to report.html's stylesheet: the first screen (stamp, facts, the dense table) and the
 * checks' answers. A backslash at the end of a line continues the line (it adds nothing to the text).
 */
const CERTIFICATE_CSS = `
body.certificate{padding-top:.6rem}
.cert-top{display:flex;justify-content:space-between;align-items:center;gap:1rem;margin-bottom:.3rem}
.cert-top h1{margin:0;font-size:1.45rem}.kicker{color:var(--muted);font-size:.8rem;font-weight:400;margin-left:.4rem}
.stamp{border:2px solid currentColor;border-radius:8px;padding:.1rem .9rem;white-space:nowrap;font-size:.85rem}
.stamp strong{font-size:1.2rem;letter-spacing:.06em;margin-right:.5rem}
.stamp.ok{color:var(--ok);background:var(--ok-bg)}.stamp.bad{color:var(--bad);background:var(--bad-bg)}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr) max-content max-content;\
gap:0 1rem;margin:.2rem 0 .4rem}
dl.facts{font-size:13px;line-height:17px}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}dl.facts code{font-size:12px;line-height:17px}
table.reqs{width:100%;font-size:12px;line-height:14px;margin:0}
table.reqs th,table.reqs td{padding:0 .4rem;white-space:nowrap;border-width:0 0 1px;vertical-align:middle}
table.reqs thead th{border-width:0 0 1px;border-bottom-color:#d0d5dd}
table.reqs td.what{white-space:normal;width:100%}table.reqs code{font-size:11.5px;line-height:14px}
table.reqs a{color:inherit;text-decoration:none}
table.reqs tr.r-fail td{background:var(--bad-bg);border-bottom-color:#fee4e2}\
table.reqs tr.r-fail td.what{color:var(--bad)}
.badge{display:inline-block;min-width:4.2em;text-align:center;font-weight:700;font-size:10.5px;line-height:13px}
.badge{padding:0 .25rem;border-radius:3px;letter-spacing:.03em}
.r-pass .badge,.badge.r-pass{color:var(--ok);background:var(--ok-bg)}\
.r-fail .badge,.badge.r-fail{color:#fff;background:var(--bad)}
.r-advisory .badge,.badge.r-advisory{color:var(--warn);background:#fef0c7}
.r-not-applicable .badge,.badge.r-not-applicable{color:var(--muted);background:#f2f4f7}
ol.why>li{margin:.6rem 0}
section.req{border:1px solid var(--line);border-left:4px solid var(--line);border-radius:6px;\
padding:.2rem 1rem;margin:.8rem 0}
section.req.r-fail{border-left-color:var(--bad)}section.req.r-pass{border-left-color:var(--ok)}
section.req.r-advisory{border-left-color:var(--warn)}
section.req h3{margin:.4rem 0 .2rem}section.req h3 .badge{font-size:.75rem;line-height:1.4}
.answer{color:var(--muted);margin-top:.2rem}.answer code{color:#101828;background:#f9fafb;white-space:pre-wrap}
dl.covered dt{font-weight:600;margin-top:.5rem}dl.covered dd{margin:0 0 0 1rem}
@media print{nav{display:none}body{max-width:none}}
`.trim();

/** The stamp's second line: how many requirements failed, or how many passed. */
function stampLine(r: CertificationResult, failed: number): string {
  const count = (x: CheckResult): number => r.requirements.filter((q) => q.result === x).length;
  const n = r.requirements.length;
  if (r.verdict === 'CERTIFIED')
    return `${n} requirements: ${count('pass')} passed, ${count('advisory')} advisory, none failed`;
  if (failed > 0) return `${failed} of ${n} requirements failed`;
  return n === 0 ? 'no check ran' : `${r.reasons.length} reason${r.reasons.length === 1 ? '' : 's'}`;
}

/**
 * The reasons about the run rather than a requirement (a merchant not reached, a run stopped, no call answered): on
 * the first screen.
 */
function runReasons(r: CertificationResult): string[] {
  return r.reasons
    .filter((x) => reasonRequirement(x, r) === undefined)
    .map((x) => `<p class="notice bad"><strong>${h(shortBodies(x))}</strong></p>`);
}

function facts(items: readonly Fact[], cls: string): string {
  const pairs = items.map(
    (f) => `<dt>${h(f.label)}</dt><dd>${f.code ? `<code>${h(f.value)}</code>` : h(f.value)}</dd>`,
  );
  return `<dl class="${cls}">${pairs.join('')}</dl>`;
}

function badge(result: CheckResult): string {
  return `<span class="badge r-${result}">${h(resultWord(result))}</span>`;
}

/**
 * The one-screen table: each requirement's result, id, title, sections, readings and checks passed; failed ones
 * first, in red.
 */
function requirementTable(r: CertificationResult): string {
  const rows = requirementRows(r);
  const count = (x: CheckResult): number => rows.filter((row) => row.requirement.result === x).length;
  const na = count('not-applicable');
  const said = [`${count('fail')} failed`, `${count('pass')} passed`, `${count('advisory')} advisory`];
  if (na > 0) said.push(`${na} not applicable`);
  const body = rows.map(({ requirement: q, text }) => {
    const cells = [
      badge(q.result),
      `<a href="#${h(anchor(q))}"><code>${h(q.id)}</code></a>`,
      h(q.title),
      citeRefsHtml(h(q.sections.join(' ')), true),
      citeRefsHtml(h(q.readings.join(' '))) || '—',
      h(text),
    ];
    const td = (c: string, i: number): string =>
      `<td${i === 2 ? ' class="what"' : i === 5 ? ' class="num"' : ''}>${c}</td>`;
    return `<tr class="r-${q.result}">${cells.map(td).join('')}</tr>`;
  });
  if (rows.length === 0) return `<section id="requirements"><p class="notice bad">${NO_CHECK}</p></section>`;
  return [
    '<section id="requirements">',
    '<table class="reqs">',
    '<thead><tr><th>Result</th><th>Requirement</th>' +
      `<th>What the merchant must do (${rows.length} requirements: ${h(said.join(', '))})</th>`,
    '<th>Spec</th><th>Readings</th><th>Checks passed</th></tr></thead>',
    `<tbody>${body.join('')}</tbody>`,
    '</table>',
    '</section>',
  ].join('\n');
}

function nav(r: CertificationResult): string {
  const links: Array<[string, string]> = [
    ...(r.reasons.length > 0 ? [['why', `Why ${r.verdict}`] as [string, string]] : []),
    ['not-covered', 'What this does not cover'],
    ['details', "Each requirement's checks"],
    ['run', 'How the run went'],
    ...(r.notes.length > 0 ? [['notes', `Notes (${r.notes.length})`] as [string, string]] : []),
  ];
  const inPage = links.map(([id, text]) => `<a href="#${id}">${h(text)}</a>`).join(' · ');
  return `<nav>${inPage} · the run's report: <a href="report.html">report.html</a></nav>`;
}

/**
 * Why not certified: each reason, with its requirement's known mistake explained the first time it comes (later:
 * named, pointing back).
 */
function why(r: CertificationResult): string[] {
  if (r.reasons.length === 0) return [];
  const explainedAt = new Map<string, number>();
  const items = r.reasons.map((reason, i) => {
    const q = reasonRequirement(reason, r);
    const link = q ? ` <a class="ref" href="#${h(anchor(q))}">its checks</a>` : '';
    let mistake = '';
    // the mistake the reason names: the one the run's diagnosis names for the failures, else the requirement's
    const id = q?.named ?? q?.mistake;
    if (id !== undefined) {
      const first = explainedAt.get(id);
      if (first === undefined) {
        explainedAt.set(id, i + 1);
        mistake = explanationHtml(mistakeRef(id));
      } else {
        const back = `<a href="#why-${first}">reason ${first}</a>`;
        mistake =
          `<p class="ref">The known mistake <code>${h(id)}</code>: ` +
          `what it means and how to fix it are under ${back}.</p>`;
      }
    }
    return (
      `<li id="why-${i + 1}"><span class="reason">${citeRefsHtml(h(shortBodies(reason)))}</span>` +
      `${link}${mistake}</li>`
    );
  });
  const n = r.reasons.length;
  const heading = `<h2>Why ${h(r.verdict)} (${n} reason${n === 1 ? '' : 's'})</h2>`;
  return [`<section id="why">${heading}`, `<ol class="why">${items.join('')}</ol>`, '</section>'];
}

function notCoveredSection(r: CertificationResult): string {
  const items = notCovered(r).map(
    (n) =>
      `<dt>${h(n.title)} <span class="ref">(${citeRefsHtml(h(n.refs), true)})</span></dt>` +
      `<dd>${citeRefsHtml(h(n.text))}</dd>`,
  );
  return [
    '<section id="not-covered"><h2>What this certification does not cover</h2>',
    `<p>${h(COVERS)} It says nothing of:</p>`,
    `<dl class="covered">${items.join('')}</dl>`,
    '</section>',
  ].join('\n');
}

/** One requirement: its result, sections, readings, known mistake, and its checks' table. */
function requirementDetail(q: RequirementResult): string {
  const facts = [
    `spec ${citeRefsHtml(h(q.sections.join(', ')), true)}`,
    ...(q.readings.length > 0 ? [`readings ${citeRefsHtml(h(q.readings.join(', ')))}`] : []),
    `checks passed: ${h(requirementRow(q).text)}`,
    ...(q.named !== undefined
      ? [`its failures are the known mistake <code>${h(q.named)}</code>`]
      : q.mistake !== undefined
        ? [`a failure is the known mistake <code>${h(q.mistake)}</code>`]
        : []),
  ];
  const shown = q.named ?? q.mistake;
  const explained = q.result === 'fail' && shown !== undefined ? explanationHtml(mistakeRef(shown)) : '';
  const rows = q.checks.map((c) => checkRow(c));
  return [
    `<section class="req r-${q.result}" id="${h(anchor(q))}">`,
    `<h3>${badge(q.result)} <code>${h(q.id)}</code> — ${h(q.title)}</h3>`,
    `<p class="facts">${facts.join(' · ')}</p>`,
    explained ? `<details><summary>what the known mistake means, how to fix it</summary>${explained}</details>` : '',
    '<div class="scroll"><table>',
    '<thead><tr><th>Check</th><th>Sent</th><th>Expected</th><th>Result</th>' +
      '<th>What happened</th><th>ms</th></tr></thead>',
    `<tbody>${rows.join('')}</tbody></table></div>`,
    '</section>',
  ]
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * A check's row: the merchant's answer body as clipped text under what happened; a failed check's call again with
 * curl.
 */
function checkRow(c: CheckOutcome): string {
  const body = bodyShown(c.outcome);
  const size = body?.clipped ? `, first ${BODY_CHARS} characters of ${body.bytes} bytes` : '';
  const answer = body
    ? `<div class="answer">answer body${size}: <code>${h(body.text)}${body.clipped ? '…' : ''}</code></div>`
    : '';
  const curl = c.judgement.result === 'fail' && c.call ? curlCommand(c.call) : undefined;
  const again = curl ? `<details><summary>the call again, with curl</summary><pre>${h(curl)}</pre></details>` : '';
  const cells = [
    `<code>${h(c.id).replace(/\./g, '.<wbr>')}</code>`,
    h(c.title),
    h(c.expect),
    badge(c.judgement.result),
    `${h(withoutBody(c.judgement.reason))}${answer}${again}`,
    String(c.outcome?.ms ?? ''),
  ];
  const td = (x: string, i: number): string => `<td${i === 1 || i === 4 ? ' class="long"' : ''}>${x}</td>`;
  return `<tr class="r-${c.judgement.result}">${cells.map(td).join('')}</tr>`;
}

function anchor(q: RequirementResult): string {
  return `req-${q.id.replace(/[^A-Za-z0-9_.-]/g, '_')}`;
}
