/**
 * A secret that is page markup (issue 25, item 1): a vector's appSecret of `<p class="comment">` — a file
 * `vectors --dir` calls valid — made the last masking pass over the finished page turn the page's own tags into
 * `<p…masked…` and the escaped text after it into live attributes (`autofocus onfocus=…`). Secrets are masked in
 * the data before a page is rendered, and nothing rewrites a rendered document: every tag of report.html is the
 * kit's, junit.xml and report.md keep their own markup.
 */
import { describe, expect, it } from 'vitest';
import { buildModel } from '../../src/reports/_model.js';
import { htmlFromModel } from '../../src/reports/html.js';
import { junitFromModel } from '../../src/reports/junit.js';
import { markdownFromModel } from '../../src/reports/markdown.js';
import { runCases } from '../../src/runner/run.js';
import { loadVectorSet } from '../../src/vectors/load.js';

describe('a secret that is markup', () => {
  it('masks the secret where the data holds it, and leaves the pages their own tags', async () => {
    const secret = '<p class="comment">';
    const attack = ' autofocus onfocus=alert(document.domain) x';
    const run = await runCases({
      set: loadVectorSet(),
      subject: {
        implementation: { name: 'sdk', version: '1', language: 'js' },
        operations: ['signature.sign'],
        // a wrong sign, so the case fails and its comment is on the page's failure list
        call: async () => ({ result: { sign: '00' } }),
      },
      target: { kind: 'module', description: 'sdk' },
      selection: { only: ['id:signature.generate-upload-url'], skip: [] },
      properties: false,
    });
    const crafted = { ...run, cases: run.cases.map((c) => ({ ...c, comment: `${attack} ${secret} end` })) };
    const model = buildModel(crafted, [secret]);
    const html = htmlFromModel(model, [secret]);
    // the page's own failure comment paragraph is intact, and holds the attack as text
    expect(html).toContain('<p class="comment">');
    const tags = [...html.matchAll(/<[a-zA-Z][^>]*>/g)].map((m) => m[0]);
    expect(tags.filter((t) => /\son[a-z]+=|\sautofocus/i.test(t))).toEqual([]);
    // the secret itself, where the data held it, is masked
    const comment = /<p class="comment">([^<]*)<\/p>/.exec(html)?.[1] ?? '';
    expect(comment).toContain('autofocus onfocus=alert(document.domain)');
    expect(comment).not.toContain('&lt;p class=&quot;comment&quot;&gt;');
    const junit = junitFromModel(model, [secret]);
    expect(junit).toMatch(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
    expect(junit).not.toContain('<p class="comment">');
    const md = markdownFromModel(model, [secret]);
    expect(md).not.toContain(secret);
  });
});
