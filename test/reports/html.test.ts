/**
 * report.html: self-contained, escaped, failures first, the content diff with the
 * differing line and the first differing byte marked.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { toHtml } from '../../src/reports/html.js';
import { fixtureCases, fixtureRun, SECRETS } from './_fixture.js';
import { parseXml } from './_xml.js';

const html = toHtml(fixtureRun(), SECRETS);
const at = (needle: string): number => {
  const i = html.indexOf(needle);
  expect(i, `report.html lacks ${needle}`).toBeGreaterThanOrEqual(0);
  return i;
};

describe('toHtml', () => {
  it('is one self-contained page: inline CSS, no script, no external resource', () => {
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|<img|<iframe|\ssrc=|url\(/i);
    // links go within the page, or to the kit's own docs/ (file: URLs into the installed package)
    expect(html.match(/href="([^"]*)"/g)?.every((href) => href.startsWith('href="#') || href.startsWith(`href="${pathToFileURL(join(PACKAGE_ROOT, 'docs')).href}/`))).toBe(true);
  });

  it('is well-formed markup (every element closed, as XML once the doctype is set aside)', () => {
    expect(() => parseXml(html.replace('<!DOCTYPE html>\n', ''))).not.toThrow();
  });

  it('shows the summary, per-area and per-section tables, then failures before the other sections', () => {
    expect(html).toContain('<p class="summary bad">NOT CONFORMANT: 3 passed, 1 failed');
    const order = ['id="areas"', 'id="sections"', 'id="operations"', 'id="failures"', 'id="case-signature.final-lf-missing"', 'id="case-request.verify.crash"', 'id="case-webhook.genuine.basic"', 'id="acceptable"', 'id="xfail"', 'id="partial"', 'id="skipped"', 'id="all"', 'id="log"'].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('counts per operation and partial cases, and names what did not run and the unknown names at the top', () => {
    expect(html).toContain('<tr><td><code>signature.content</code></td><td>yes</td><td class="num">3</td><td class="num">2</td><td class="num">1</td><td class="num v-failed">1</td><td class="num zero">0</td><td class="num v-partial">1</td></tr>');
    const top = html.slice(0, at('id="areas"'));
    expect(top).toContain('<strong>Not run</strong>: <code>signature.content</code> (answered unsupported, 1 step)');
    expect(top).toContain('<strong>Warning</strong>: the testee offers &quot;signature.sgn&quot;, which protocol v1 does not know (did you mean &quot;signature.sign&quot;?)');
    expect(html).toContain('<h2>Partial (1)</h2>\n<h3>Not run: <code>signature.content</code>, <code>signature.sign</code> (1)</h3><p><code>signature.verify-only</code></p>');
    expect(html).toContain('<span class="verdict v-partial">partial</span>');
  });

  it('says at the top when no test ran, and marks a partial-only run', () => {
    const none = toHtml(fixtureRun({ cases: [], operations: [], noTestRan: 'no test ran: the implementation offers no operations' }), SECRETS);
    expect(none).toContain('<p class="summary bad">NO TEST RAN: 0 passed (0 cases, 1.234 s)</p>\n<p class="notice bad"><strong>no test ran: the implementation offers no operations</strong>');
    const partialOnly = toHtml(fixtureRun({ cases: fixtureCases().filter((c) => c.verdict === 'passed' || c.verdict === 'partial') }), SECRETS);
    expect(partialOnly).toContain('<p class="summary partial">CONFORMANT (PARTIAL): 3 passed, 1 partial (4 cases, 1.234 s)</p>');
  });

  it('shows the content diff: line 7 differs, its LF is the first differing byte, the got content ends there', () => {
    const article = html.slice(at('id="case-signature.final-lf-missing"'), at('id="case-request.verify.crash"'));
    expect(article).toContain('first difference at byte 239 (line 7, body); expected 240 bytes, got 239');
    const rows = article.match(/<tr(?: class="differs")?><td class="n">\d+<\/td>/g) ?? [];
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => r.includes('differs'))).toEqual([false, false, false, false, false, false, true]);
    const line7 = article.slice(article.indexOf('<tr class="differs"><td class="n">7</td>'));
    expect(line7).toMatch(/^<tr class="differs"><td class="n">7<\/td><td class="part">body<\/td><td class="line"><code>\{&quot;filename&quot;.*<mark class="first" title="first differing byte: 239"><span class="lf">⏎<\/span><\/mark><\/code><\/td><td class="line"><code>\{&quot;filename&quot;.*&quot;\}<mark class="first end"/);
    expect(article).toContain('<td class="line"><code><span class="masked">sk****************************** (32 chars)</span><span class="lf">⏎</span></code></td>');
    expect(article).toContain('<div class="diagnosis"><h4>Diagnosis</h4><ul>\n<li><code>no-final-lf</code>: your content is the expected content without its final LF');
  });

  it('shows expected against got side by side', () => {
    const article = html.slice(at('id="case-request.verify.crash"'), at('id="case-webhook.genuine.basic"'));
    expect(article).toMatch(/<div class="sbs"><div><h5>expected<\/h5><pre>&quot;accept&quot;<\/pre><\/div><div><h5>got<\/h5><pre>\{/);
  });

  it('escapes everything', () => {
    const hostile = '<script>alert("x")</script> & \u0001';
    const c = { ...fixtureCases()[1]!, comment: hostile, message: hostile };
    const page = toHtml(fixtureRun({ cases: [c], log: [hostile] }), SECRETS);
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; \\x01');
  });
});
