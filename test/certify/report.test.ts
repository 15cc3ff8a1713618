/**
 * The certificate stands on its own (issue 22, item 5): certification.html and certification.md,
 * written from two real certifications of small merchants — one that accepts everything with a
 * long HTML page, one that verifies correctly. The first screen holds the verdict, who and what
 * was certified and the requirement table (failed first); the merchant's HTML is text, clipped;
 * nothing links to a file of this machine; the not-covered section cites R12; a failed check's
 * curl line is the byte-exact one; the secret is never printed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCertification, type CertificationResult } from '../../src/roles/merchant/certify/certify.js';
import { CERTIFICATION_FILES, writeCertificationReports } from '../../src/roles/merchant/certify/report.js';
import { localDelivery } from '../../src/roles/merchant/certify/sample.js';
import { curlCommand } from '../../src/reports/curl.js';
import { escapeHtml } from '../../src/reports/escape.js';
import { tempFolders } from '../_support.js';
import { APP_ID, APP_SECRET, HTML_PAGE, startTestMerchant, type Behaviour } from './_merchant.js';

const tmp = tempFolders('pgv2kit-certificate-');
const NOTIFY = 'https://merchant.example.test/notify';
const RETURN = 'https://merchant.example.test/return?shop=7';

interface Written {
  readonly result: CertificationResult;
  readonly dir: string;
  readonly html: string;
  readonly md: string;
}

async function certify(behaviour: Behaviour): Promise<Written> {
  const merchant = await startTestMerchant(behaviour, () => ({ notifyUrl: NOTIFY, returnUrl: RETURN }));
  let result: CertificationResult;
  try {
    result = await runCertification({
      appId: APP_ID,
      appSecret: APP_SECRET,
      notifyUrl: NOTIFY,
      returnUrl: RETURN,
      deliverTo: localDelivery(merchant.url, NOTIFY),
      returnDeliverTo: localDelivery(merchant.url, RETURN),
      seed: 7,
      name: `shop-${behaviour}`,
    });
  } finally {
    await merchant.close();
  }
  const dir = join(tmp(), 'r');
  await writeCertificationReports(result, { dir, secrets: [APP_SECRET] });
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
  return { result, dir, html: read('certification.html'), md: read('certification.md') };
}

let failing: Written;
let passing: Written;

beforeAll(async () => {
  [failing, passing] = await Promise.all([certify('html-accept-all'), certify('correct')]);
}, 60_000);

/** The rows of the HTML requirement table: result class, id, the result word and the checks passed. */
function tableRows(html: string): Array<{ cls: string; id: string; word: string; checks: string }> {
  const table = /<table class="reqs">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  return [...table.matchAll(/<tr class="r-([a-z-]+)">(.*?)<\/tr>/g)].map((m) => ({
    cls: m[1] ?? '',
    id: /<code>([^<]+)<\/code>/.exec(m[2] ?? '')?.[1] ?? '',
    word: /<span class="badge[^"]*">([^<]+)<\/span>/.exec(m[2] ?? '')?.[1] ?? '',
    checks: /<td class="num">([^<]*)<\/td>/.exec(m[2] ?? '')?.[1] ?? '',
  }));
}

describe('certification.html and certification.md', () => {
  it('the first screen: the verdict, who and what was certified, then the requirement table, before any detail', () => {
    const { html, md, result } = failing;
    const table = html.indexOf('<table class="reqs">');
    const head = html.slice(0, table);
    expect(table).toBeGreaterThan(0);
    expect(head).toContain('NOT CERTIFIED');
    const facts = ['shop-html-accept-all', NOTIFY, APP_ID, result.planHash, result.kit.version, result.date];
    for (const fact of facts) expect(head, fact).toContain(fact);
    expect(head).toContain(RETURN.replace('?', '?').replace('&', '&amp;'));
    expect(head).toMatch(/<dt>Seed<\/dt><dd><code>7<\/code><\/dd>/);
    // the table before the reasons, the not-covered section and the first requirement's details
    for (const later of ['id="why"', 'id="not-covered"', 'id="details"', '<section class="req ']) {
      expect(html.indexOf(later), later).toBeGreaterThan(table);
    }
    // every requirement in it, once
    expect(
      tableRows(html)
        .map((r) => r.id)
        .sort(),
    ).toEqual(result.requirements.map((q) => q.id).sort());
    // the Markdown in the same order
    const mdTable = md.indexOf('| Result | Requirement |');
    expect(mdTable).toBeGreaterThan(md.indexOf(result.planHash));
    for (const later of [
      '## Why NOT CERTIFIED',
      '## What this certification does not cover',
      "## Each requirement's checks",
    ]) {
      expect(md.indexOf(later), later).toBeGreaterThan(mdTable);
    }
  });

  it('a failed requirement shows FAIL in the table, failed ones first; a certified merchant has none', () => {
    const rows = tableRows(failing.html);
    const failed = failing.result.requirements.filter((q) => q.result === 'fail');
    expect(failed.length).toBeGreaterThan(10);
    expect(rows.slice(0, failed.length).every((r) => r.cls === 'fail' && r.word === 'FAIL')).toBe(true);
    expect(rows.slice(failed.length).some((r) => r.cls === 'fail')).toBe(false);
    const tampered = rows.find((r) => r.id === 'redirect.payment-tampered');
    expect(tampered).toMatchObject({ cls: 'fail', word: 'FAIL', checks: '0 of 1' });
    expect(failing.md).toMatch(/^\| \*\*FAIL\*\* \| `redirect\.payment-tampered` \| .* \| 0 of 1 \|$/m);
    // the replay checks are advisory: counted as such, never as passed
    expect(rows.find((r) => r.id === 'webhook.replay')).toMatchObject({ word: 'ADVISORY', checks: '2 advisory' });
    const ok = tableRows(passing.html);
    expect(passing.html).toMatch(/<div class="stamp ok"><strong>CERTIFIED<\/strong>/);
    expect(ok.some((r) => r.cls === 'fail' || r.word === 'FAIL')).toBe(false);
    expect(ok.find((r) => r.id === 'webhook.valid')).toMatchObject({ word: 'PASS', checks: '2 of 2' });
  });

  it('why NOT CERTIFIED: each reason, its known mistake explained inline (once, then pointed back to)', () => {
    const why = /<section id="why">([\s\S]*?)<\/section>/.exec(failing.html)?.[1] ?? '';
    expect(why.match(/<li id="why-\d+">/g)?.length).toBe(failing.result.reasons.length);
    expect(why).toContain('<strong>What it means</strong>');
    expect(why).toContain('<strong>How to fix it</strong>');
    expect(why).toContain('docs/mistakes/accepts-sign-mismatch.md in the kit');
    expect(why.match(/docs\/mistakes\/accepts-sign-mismatch\.md in the kit/g)?.length).toBe(1);
    expect(failing.md).toMatch(/^ {3}- how to fix it: /m);
    expect(passing.html).not.toContain('id="why"');
  });

  it('says what it does not cover: replay and clock skew (R12), retries, TLS and reachability, order processing', () => {
    for (const { html, md } of [failing, passing]) {
      const section = /<section id="not-covered">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
      expect(section).toMatch(/>R12<\/span>/);
      const topics = [
        'Clock skew and replay',
        'Retries and duplicate webhooks',
        'TLS, certificates and reachability',
        'order processing',
      ];
      for (const topic of topics) {
        expect(section, topic).toContain(topic);
      }
      const mdSection = md.slice(
        md.indexOf('## What this certification does not cover'),
        md.indexOf("## Each requirement's checks"),
      );
      expect(mdSection).toMatch(/\*\*Clock skew and replay\*\* \([^)]*R12\)/);
      expect(mdSection).toContain('idempotency');
    }
  });

  it('no file:// and no absolute path anywhere; the only links are to the page itself and the reports beside it', () => {
    for (const { dir } of [failing, passing]) {
      for (const file of CERTIFICATION_FILES) {
        const text = readFileSync(join(dir, file), 'utf8');
        expect(text, file).not.toContain('file://');
        expect(text, file).not.toContain(dir);
      }
    }
    const hrefs = [...failing.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1] ?? '');
    expect(hrefs.length).toBeGreaterThan(10);
    expect(
      hrefs.filter((h) => !/^#[\w.-]+$/.test(h) && !/^(report\.html|report\.md|results\.json|junit\.xml)$/.test(h)),
    ).toEqual([]);
    const mdLinks = [...failing.md.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1] ?? '');
    expect(mdLinks.every((l) => /^(report\.html|report\.md|results\.json|junit\.xml)$/.test(l))).toBe(true);
  });

  it("the merchant's HTML answer is text: escaped, cut at 200 characters with its length, never rendered nor whole in the reasons", () => {
    const { html, md } = failing;
    expect(html).not.toMatch(/<script|<h1 class="x"|<title>Thank you/);
    const bytes = Buffer.byteLength(HTML_PAGE);
    const first = [...HTML_PAGE].slice(0, 200).join('');
    expect(html).toContain(`first 200 characters of ${bytes} bytes: <code>${escapeHtml(first)}…</code>`);
    expect(html).not.toContain(escapeHtml(HTML_PAGE.slice(0, 260)));
    // the reasons and notes quote at most the body's first 40 characters
    const why = /<section id="why">([\s\S]*?)<\/section>/.exec(html)?.[1] ?? '';
    expect(why).not.toContain('alert');
    // in the Markdown, the page's markup is in a code span or escaped (`\<`): never a raw tag
    const lines = md.split('\n').filter((l) => l.includes('<script') || l.includes('<title'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '')).not.toMatch(/(?<!\\)<(script|title|h1|p)\b/);
  });

  it("a failed check's call again is the byte-exact curl line; the secret is in no page", () => {
    const checks = failing.result.requirements.flatMap((q) => q.checks);
    const check = checks.find((c) => c.judgement.result === 'fail' && c.call?.method === 'POST');
    const curl = curlCommand(check?.call);
    expect(curl).toMatch(/--data-binary/);
    expect(failing.md).toContain(`# ${check?.id}\n${curl}\n`);
    expect(failing.html).toContain(`<pre>${escapeHtml(curl ?? '')}</pre>`);
    for (const { html, md } of [failing, passing]) {
      for (const text of [html, md]) {
        expect(text).not.toContain(APP_SECRET);
        expect(text).not.toContain(APP_SECRET.slice(0, 10));
      }
    }
  });

  it('a secret that is markup: the pages are rendered from masked data, never rewritten (issue 25, item 1)', async () => {
    // the page's own table tag as a secret: masking the rendered page broke it, and the escaped secret in a note leaked
    const secret = '<table class="reqs">';
    const attack = `${secret} autofocus onfocus=alert(1) x`;
    const dir = join(tmp(), 'markup');
    const result = { ...failing.result, notes: [...failing.result.notes, attack] };
    await writeCertificationReports(result, { dir, secrets: [secret] });
    const html = readFileSync(join(dir, 'certification.html'), 'utf8');
    expect(html).toContain('<table class="reqs">');
    expect(html).not.toContain(escapeHtml(secret));
    expect(html).toContain(' autofocus onfocus=alert(1) x</li>');
    const tags = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]);
    expect(tags.filter((t) => /\son[a-z]+=|\sautofocus/i.test(t))).toEqual([]);
    const json = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as CertificationResult;
    expect(json.notes.at(-1)).not.toContain(secret);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).not.toContain('table class="reqs"');
  });
});
