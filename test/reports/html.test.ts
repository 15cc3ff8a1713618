/**
 * report.html: self-contained, escaped, the verdict, the likely causes and the failures
 * before the tables, the content diff with the differing line and the first differing byte
 * marked, a step that did not run saying why, long values wrapped.
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/runner/result.js';
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
    // links go within the page only: the docs are written out and named, never linked (src/docs/cite.ts)
    const hrefs = html.match(/href="([^"]*)"/g) ?? [];
    expect(hrefs.length).toBeGreaterThan(5);
    expect(hrefs.filter((href) => !href.startsWith('href="#'))).toEqual([]);
  });

  it('is well-formed markup (every element closed, as XML once the doctype is set aside)', () => {
    expect(() => parseXml(html.replace('<!DOCTYPE html>\n', ''))).not.toThrow();
  });

  it('starts with the verdict, the likely causes and the failures; the tables come after them, the long one folded', () => {
    expect(html).toContain('<p class="summary bad">NOT CONFORMANT: 3 passed, 1 failed');
    const order = [
      '<p class="summary bad">',
      '<h2>Likely causes, most cases first</h2>',
      '<h2>Failures (3)</h2>',
      'id="case-signature.final-lf-missing"',
      'id="case-request.verify.crash"',
      'id="case-webhook.genuine.basic"',
      '<h2>By operation</h2>',
      '<h2>By kind</h2>',
      '<h2>By spec section</h2>',
      'id="acceptable"',
      'id="xfail"',
      'id="partial"',
      'id="skipped"',
      'id="all"',
      'id="log"',
    ].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    // nothing tabular before the first failure but the run's facts
    expect(html.slice(0, at('id="case-signature.final-lf-missing"')).match(/<table/g)).toBeNull();
    expect(html).toMatch(/<h2>By spec section<\/h2><details><summary>Show the \d+ sections<\/summary>/);
  });

  it('lets long values wrap (code, pre and free-text cells anywhere, prose at word ends first), keeps every table in a scroll box, stacks expected and got on a narrow screen', () => {
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    expect(css).toContain(
      'body{overflow-wrap:break-word}code,pre,td.long{overflow-wrap:anywhere}td.long{min-width:12em}',
    );
    // every message cell of the tables of cases is a free-text cell
    expect(html.match(/<th>message<\/th>/g)?.length).toBe(3);
    expect(html).not.toMatch(/<td>[^<]*(as expected|accepted)[^<]*<\/td><\/tr>/);
    expect(html.match(/<div class="scroll"><table>/g)?.length).toBe(3);
    expect(css).toContain('.sbs{display:grid;grid-template-columns:repeat(2,minmax(0,1fr))');
    expect(css).toMatch(/@media \(max-width:700px\)\{.*\.sbs\{grid-template-columns:minmax\(0,1fr\)\}/);
    // the tables of counts scroll inside their box rather than widen the page
    expect(html.match(/<table class="counts">/g)?.length).toBe(3);
    expect(html.match(/<div class="scroll"><table class="counts">/g)?.length).toBe(3);
  });

  it('a step that did not run says why, where a ran step shows expected against got', () => {
    const base = fixtureCases()[1] as CaseResult;
    const c: CaseResult = {
      ...base,
      ops: [
        {
          op: 'signature.content',
          status: 'skip',
          expected: null,
          got: null,
          message: 'the subject does not offer signature.content',
          durationMs: 0,
        },
        {
          op: 'request.verify',
          status: 'skip',
          expected: 'refuse',
          got: { unsupported: { reason: 'no verifier here' } },
          message: 'unsupported: no verifier here',
          durationMs: 1,
        },
        ...base.ops.filter((o) => o.op === 'signature.sign'),
      ],
    };
    const page = toHtml(fixtureRun({ cases: [c] }), SECRETS);
    const article = page.slice(page.indexOf('<article'), page.indexOf('</article>'));
    expect(article).toContain(
      '<div class="op"><h4><code>signature.content</code> <span class="s-skip">not run: the implementation does not offer signature.content</span></h4></div>',
    );
    expect(article).toContain(
      '<div class="op"><h4><code>request.verify</code> <span class="s-skip">not run: the implementation answered unsupported (no verifier here)</span></h4></div>',
    );
    // one box pair: the step that ran; no null box
    expect(article.match(/<div class="sbs">/g)?.length).toBe(1);
    expect(article).not.toContain('<pre>null</pre>');
  });

  it('counts per operation and partial cases, and names what did not run and the unknown names at the top', () => {
    expect(html).toContain(
      '<tr><td><code>signature.content</code></td><td>yes</td><td class="num">3</td><td class="num">2</td><td class="num">1</td><td class="num v-failed">1</td><td class="num zero">0</td><td class="num v-partial">1</td></tr>',
    );
    const top = html.slice(0, at('id="kinds"'));
    expect(top).toContain('<strong>Not run</strong>: <code>signature.content</code> (answered unsupported, 1 step)');
    expect(top).toContain(
      '<strong>Warning</strong>: the testee offers &quot;signature.sgn&quot;, which protocol v1 does not know (did you mean &quot;signature.sign&quot;?)',
    );
    expect(html).toContain(
      '<h2>Partial (1)</h2>\n<h3>Not run: <code>signature.content</code>, <code>signature.sign</code> (1)</h3><p><code>signature.verify-only</code></p>',
    );
    expect(html).toContain('<span class="verdict v-partial">partial</span>');
  });

  it('says at the top when no test ran, and marks a partial-only run', () => {
    const none = toHtml(
      fixtureRun({ cases: [], operations: [], noTestRan: 'no test ran: the implementation offers no operations' }),
      SECRETS,
    );
    expect(none).toContain(
      '<p class="summary bad">NO TEST RAN: 0 passed (0 cases, 1.234 s)</p>\n<div class="notice bad"><p><strong>no test ran: the implementation offers no operations</strong>: this run checked nothing.</p><div class="explained"><p><strong>How to fix it</strong>: Advertise, in the handshake, the operations',
    );
    const partialOnly = toHtml(
      fixtureRun({ cases: fixtureCases().filter((c) => c.verdict === 'passed' || c.verdict === 'partial') }),
      SECRETS,
    );
    expect(partialOnly).toContain(
      '<p class="summary partial">CONFORMANT (PARTIAL): 3 passed, 1 partial (4 cases, 1.234 s)</p>',
    );
  });

  it('shows the content diff: line 7 differs, its LF is the first differing byte, the got content ends there', () => {
    const article = html.slice(at('id="case-signature.final-lf-missing"'), at('id="case-request.verify.crash"'));
    expect(article).toContain('first difference at byte 239 (line 7, body); expected 240 bytes, got 239');
    const rows = article.match(/<tr(?: class="differs")?><td class="n">\d+<\/td>/g) ?? [];
    expect(rows).toHaveLength(7);
    expect(rows.map((r) => r.includes('differs'))).toEqual([false, false, false, false, false, false, true]);
    const line7 = article.slice(article.indexOf('<tr class="differs"><td class="n">7</td>'));
    expect(line7).toMatch(
      /^<tr class="differs"><td class="n">7<\/td><td class="part">body<\/td><td class="line"><code>\{&quot;filename&quot;.*<mark class="first" title="first differing byte: 239"><span class="lf">⏎<\/span><\/mark><\/code><\/td><td class="line"><code>\{&quot;filename&quot;.*&quot;\}<mark class="first end"/,
    );
    expect(article).toContain(
      '<td class="line"><code><span class="masked">sk****************************** (32 chars)</span><span class="lf">⏎</span></code></td>',
    );
    expect(article).toContain(
      '<div class="diagnosis"><h4>Diagnosis</h4><ul>\n<li><code>no-final-lf</code>: your content is the expected content without its final LF',
    );
  });

  it('shows expected against got side by side', () => {
    const article = html.slice(at('id="case-request.verify.crash"'), at('id="case-webhook.genuine.basic"'));
    expect(article).toMatch(
      /<div class="sbs"><div><h5>expected<\/h5><pre>&quot;accept&quot;<\/pre><\/div><div><h5>got<\/h5><pre>\{/,
    );
  });

  it('escapes everything', () => {
    const hostile = '<script>alert("x")</script> & \u0001';
    const c = { ...fixtureCases()[1]!, comment: hostile, message: hostile };
    const page = toHtml(fixtureRun({ cases: [c], log: [hostile] }), SECRETS);
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; \\x01');
  });
});
