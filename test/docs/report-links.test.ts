/**
 * The reports point at the shipped docs so that they hold as a CI artifact and on another
 * machine (the decision in src/docs/cite.ts): no file: URL, no path into this machine's docs/,
 * no link to a docs page at all — what a page says is written out in the report (a known
 * mistake's meaning and fix, a failure kind's fix), the page named as a path in the kit, and
 * each reading and spec section says itself in its title.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { toHtml } from '../../src/reports/html.js';
import { toMarkdown } from '../../src/reports/markdown.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';
import { fixtureRun, SECRETS } from '../reports/_fixture.js';

const tmp = tempFolders('pgv2kit-report-links-');
const html = toHtml(fixtureRun(), SECRETS);
const md = toMarkdown(fixtureRun(), SECRETS);

/** A section of a shipped page as the page writes it, read with a plain split (links reduced to their text here too). */
const section = (page: string, name: string): string =>
  (
    readFileSync(join(PACKAGE_ROOT, 'docs', ...page.split('/')), 'utf8')
      .split(`## ${name}\n\n`)[1]
      ?.split('\n\n')[0] ?? ''
  )
    .replace(/\n/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
/** The text of an HTML fragment: tags dropped (a page's `code` is a <code> there), the entities the reports write decoded. */
const unquoted = (markdown: string): string => markdown.replace(/`/g, '');
const text = (fragment: string): string =>
  fragment
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe("a failing run's report folder", () => {
  it("holds no file: URL and no path into this machine's docs/ in any file (html, md, json, xml), and names the pages in the kit", async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--module',
        join(PACKAGE_ROOT, 'test/zoo/members/no-final-lf.ts'),
        '--no-properties',
        '--report-dir',
        'r',
      ],
      { cwd },
    );
    expect(r.code).toBe(1);
    for (const file of ['report.html', 'report.md', 'results.json', 'junit.xml']) {
      const content = readFileSync(join(cwd, 'r', file), 'utf8');
      expect(content, file).not.toMatch(/file:\/\//i);
      expect(content, file).not.toContain(join(PACKAGE_ROOT, 'docs'));
      expect(content, file).toMatch(/docs\/mistakes\/no-final-lf\.md/);
    }
    const page = readFileSync(join(cwd, 'r', 'report.html'), 'utf8');
    // no link goes out of the page: in-page anchors only
    expect(page.match(/href="[^"]*"/g)?.filter((h) => !h.startsWith('href="#'))).toEqual([]);
    const results = JSON.parse(readFileSync(join(cwd, 'r', 'results.json'), 'utf8')) as {
      causes: Array<{ mistake: string | null; page: string | null }>;
      cases: Array<{ diagnosis: Array<{ mistake: string; page: string | null }> }>;
    };
    expect(results.causes[0]).toMatchObject({ mistake: 'no-final-lf', page: 'docs/mistakes/no-final-lf.md' });
    const pages = [
      ...new Set(
        [...results.causes.map((c) => c.page), ...results.cases.flatMap((c) => c.diagnosis.map((d) => d.page))].filter(
          (p): p is string => p !== null,
        ),
      ),
    ];
    expect(pages.length).toBeGreaterThan(0);
    // each a path relative to the kit's folder, of a page the kit ships
    expect(
      pages.filter((p) => !/^docs\/mistakes\/[a-z0-9-]+\.md$/.test(p) || !existsSync(join(PACKAGE_ROOT, p))),
    ).toEqual([]);
    expect(readFileSync(join(cwd, 'r', 'junit.xml'), 'utf8')).toContain(
      `how to fix no-final-lf: ${section('mistakes/no-final-lf.md', 'How to fix it').replace(/>/g, '&gt;')} (docs/mistakes/no-final-lf.md in the kit)`,
    );
  });
});

describe('report.html says what the pages say', () => {
  it('links nothing outside the page', () => {
    expect(html).not.toMatch(/file:\/\//i);
    expect(html.match(/href="[^"]*"/g)?.filter((h) => !h.startsWith('href="#'))).toEqual([]);
  });

  it('the likely cause writes out what its mistake means and how to fix it, and names the page', () => {
    const causes = html.slice(
      html.indexOf('<section id="causes">'),
      html.indexOf('</section>', html.indexOf('<section id="causes">')),
    );
    const said = text(causes);
    expect(said).toContain(`What it means: ${unquoted(section('mistakes/no-final-lf.md', 'What it means'))}`);
    expect(said).toContain(`How to fix it: ${unquoted(section('mistakes/no-final-lf.md', 'How to fix it'))}`);
    expect(causes).toContain('<code>parts.map(p =&gt; p + &quot;\\n&quot;).join(&quot;&quot;)</code>');
    expect(said).toContain('docs/mistakes/no-final-lf.md in the kit');
  });

  it('the diagnosis folds the same explanation under it; its R-numbers and sections say themselves in their titles', () => {
    const diagnosis = html.slice(
      html.indexOf('<div class="diagnosis">'),
      html.indexOf('</div></details></li>', html.indexOf('<div class="diagnosis">')),
    );
    expect(diagnosis).toContain('<details><summary>what it means, how to fix it</summary>');
    expect(text(diagnosis)).toContain(
      `How to fix it: ${unquoted(section('mistakes/no-final-lf.md', 'How to fix it'))}`,
    );
    expect(diagnosis).toMatch(
      /<span class="doc" title="§5\.1 Signature content \(docs\/gateway-spec\.md#51-signature-content in the kit\)">§5\.1<\/span>/,
    );
    expect(diagnosis).toMatch(
      /<span class="doc" title="R1: body ending in LF \(5\.1\) — [^"]+ \(docs\/readings\.md in the kit\)">R1<\/span>/,
    );
  });

  it('every reading and section of a failing case is cited, none left bare', () => {
    expect(html).toMatch(/<span class="doc" title="R10: [^"]+">R10<\/span>/);
    expect(html).toMatch(/<span class="doc" title="§5\.5 [^"]+">5\.5<\/span>/);
    expect(html).not.toMatch(/<code>(R\d+|\d+\.\d+)<\/code>/);
  });

  it("a failing case's status says what it means in its title", () => {
    expect(html).toMatch(
      /<span class="doc" title="the implementation is not conformant on this case: [^"]+ \(docs\/failures\/failed\.md in the kit\)"><span class="verdict v-failed">FAILED<\/span><\/span>/,
    );
  });
});

describe('report.md says what the pages say', () => {
  it('the likely cause with its meaning and fix, each diagnosis with its fix, each failing case its sections, readings and status named in the kit', () => {
    expect(md).not.toMatch(/file:\/\//i);
    expect(md).toContain('   - docs/mistakes/no-final-lf.md in the kit');
    expect(md).toContain(
      '(§5.1, R1) — how to fix it: Append an LF after every part, the body included: `parts.map(p => p + "\\n").join("")`, or join and add a final LF. (docs/mistakes/no-final-lf.md in the kit)',
    );
    expect(md).toMatch(
      /- docs, in the kit: `docs\/gateway-spec\.md#51-signature-content, docs\/gateway-spec\.md#52-signature-value`, `docs\/failures\/failed\.md`/,
    );
    expect(md).toContain('docs/readings.md (R10)');
  });
});
