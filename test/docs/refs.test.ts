/**
 * References to the shipped docs: R-numbers, spec sections, mistake ids and failure
 * kinds turned into files of docs/, resolved against the package root found from the
 * module's own URL (the same from src/ and from the built dist/); and how they are shown
 * (src/docs/cite.ts): paths in the kit and what the pages say, never a file: URL.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  citePageHtml,
  citeRefsHtml,
  docDisplayPath,
  docsNamed,
  explained,
  inKit,
  seeDocs,
} from '../../src/docs/cite.js';
import { pageText, plainText } from '../../src/docs/pages.js';
import {
  docPath,
  failureRef,
  headingSlug,
  mistakeRef,
  PACKAGE_ROOT,
  readingRef,
  refsIn,
  sectionRef,
} from '../../src/docs/refs.js';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('the package root', () => {
  it('is the folder of package.json, found from the module URL', () => {
    expect(PACKAGE_ROOT).toBe(REPO.replace(/[\\/]$/, ''));
    expect(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name).toBe('pgv2kit');
  });

  it('is the same from the built module (dist/docs/refs.js)', async () => {
    const built = (await import(pathToFileURL(join(REPO, 'dist', 'docs', 'refs.js')).href)) as { PACKAGE_ROOT: string };
    expect(built.PACKAGE_ROOT).toBe(PACKAGE_ROOT);
  });
});

describe('references', () => {
  it.each([
    ['R8', 'docs/readings.md'],
    ['r16', 'docs/readings.md'],
  ])('reading %s → %s', (id, path) => {
    const ref = readingRef(id);
    expect(ref && docPath(ref)).toBe(path);
  });

  // anchors worked out by hand from the headings of the spec, as GitHub makes them
  it.each([
    ['5.3', 'docs/gateway-spec.md#53-authorization-header'],
    ['§5.3', 'docs/gateway-spec.md#53-authorization-header'],
    ['§5.1', 'docs/gateway-spec.md#51-signature-content'],
    ['2.1', 'docs/gateway-spec.md#21-upload-credentials-request-body-json-object'],
    ['5', 'docs/gateway-spec.md#5-authentication'],
    ['§8', 'docs/gateway-spec.md#8-limits'],
    ['9.9', 'docs/gateway-spec.md'],
  ])('section %s → %s', (section, path) => {
    const ref = sectionRef(section);
    expect(ref && docPath(ref)).toBe(path);
  });

  it('refuses what is not a reference', () => {
    expect(readingRef('8')).toBeUndefined();
    expect(sectionRef('R8')).toBeUndefined();
    expect(mistakeRef('no-such-mistake')).toBeUndefined();
    expect(mistakeRef('../README')).toBeUndefined();
    expect(failureRef('no-such-kind')).toBeUndefined();
  });

  it('a mistake id and a failure kind → their pages, which exist', () => {
    for (const ref of [mistakeRef('no-final-lf'), failureRef('error'), failureRef('sign-mismatch')]) {
      expect(ref).toBeDefined();
      if (ref) expect(existsSync(join(PACKAGE_ROOT, ref.file))).toBe(true);
    }
    expect(mistakeRef('no-final-lf')?.file).toBe('docs/mistakes/no-final-lf.md');
    expect(failureRef('error')?.file).toBe('docs/failures/error.md');
  });

  it.each([
    ['§5.1, R1', ['§5.1', 'R1']],
    ['5.3, R8', ['§5.3', 'R8']],
    ['R7-R12, R15', ['R7', 'R8', 'R9', 'R10', 'R11', 'R12', 'R15']],
    ['(4.2, R14) and again R14', ['§4.2', 'R14']],
    ['§2.1, §2.2, §8', ['§2.1', '§2.2', '§8']],
    ['nothing here', []],
  ])('refsIn(%j)', (text, labels) => {
    expect(refsIn(text).map((r) => r.label)).toEqual(labels);
  });

  it('a section carries its heading as the shipped spec writes it (the line read from the file here)', () => {
    const line = readFileSync(join(REPO, 'docs', 'gateway-spec.md'), 'utf8')
      .split('\n')
      .find((l) => /^#+\s+5\.3\s/.test(l));
    expect(line).toBeDefined();
    expect(sectionRef('§5.3')?.heading).toBe(line?.replace(/^#+\s+/, '').trim());
    expect(sectionRef('9.9')?.heading).toBeUndefined();
  });

  it('shown relative to the working folder when inside it, else absolute', () => {
    const r8 = readingRef('R8');
    if (!r8) throw new Error('R8');
    expect(docDisplayPath(r8, PACKAGE_ROOT)).toBe('docs/readings.md');
    expect(docDisplayPath(r8, dirname(PACKAGE_ROOT))).toBe(`${PACKAGE_ROOT.split(sep).at(-1)}/docs/readings.md`);
    expect(docDisplayPath(r8, join(PACKAGE_ROOT, 'src'))).toBe(join(PACKAGE_ROOT, 'docs', 'readings.md'));
  });

  it.each([
    ['R8', 'see docs/readings.md (R8)'],
    ['§5.1, R1', 'see docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)'],
    ['§5.3, R8, R9', 'see docs/gateway-spec.md#53-authorization-header, docs/readings.md (R8, R9)'],
    ['', ''],
  ])('seeDocs(%j)', (text, expected) => {
    expect(seeDocs(text, PACKAGE_ROOT)).toBe(expected);
  });

  it.each([
    ['5.3 Authorization header', '53-authorization-header'],
    ['2.1 Upload credentials request body (JSON object)', '21-upload-credentials-request-body-json-object'],
    ['Errors, restarts and timeouts', 'errors-restarts-and-timeouts'],
  ])('headingSlug(%j)', (heading, slug) => {
    expect(headingSlug(heading)).toBe(slug);
  });
});

describe('for reports', () => {
  it('docsNamed names the files by their path in the package', () => {
    expect(docsNamed('§5.1, R1')).toBe('docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)');
    expect(docsNamed('4.2, R13, R14')).toBe('docs/gateway-spec.md#42-execute-upload, docs/readings.md (R13, R14)');
    expect(docsNamed('none')).toBe('');
  });

  it('citeRefsHtml marks R-numbers and § sections in escaped text, bare numbers only when asked: what each says in its title, its file in the kit, no link', () => {
    const html = citeRefsHtml('refused (R8) per §5.3 &amp; 4.2');
    expect(html).toMatch(
      /^refused \(<span class="doc" title="R8: header grammar \(5\.3\) — [^"]+ \(docs\/readings\.md in the kit\)">R8<\/span>\) per <span class="doc" title="§5\.3 Authorization header \(docs\/gateway-spec\.md#53-authorization-header in the kit\)">§5\.3<\/span> &amp; 4\.2$/,
    );
    expect(citeRefsHtml('5.1', true)).toBe(
      '<span class="doc" title="§5.1 Signature content (docs/gateway-spec.md#51-signature-content in the kit)">5.1</span>',
    );
    expect(citeRefsHtml('&#39;R&#39; 2.0x')).toBe('&#39;R&#39; 2.0x');
    // R8's reading is 2,000 characters: the title quotes its start, the page has it all
    const title = /title="([^"]*)"/.exec(html)?.[1] ?? '';
    expect(title.length).toBeLessThan(400);
    expect(title).toContain('…');
  });

  it("citePageHtml gives a page's meaning as the title of what cites it, and leaves the HTML alone without a page", () => {
    const meaning =
      readFileSync(join(REPO, 'docs', 'failures', 'failed.md'), 'utf8')
        .split('## What it means\n\n')[1]
        ?.split('\n')[0] ?? '';
    expect(meaning.length).toBeGreaterThan(20);
    expect(citePageHtml(failureRef('failed'), '<b>FAILED</b>')).toBe(
      `<span class="doc" title="the implementation is not conformant on this case: ${meaning.replace(/"/g, '&quot;')} (docs/failures/failed.md in the kit)"><b>FAILED</b></span>`,
    );
    expect(citePageHtml(mistakeRef('no-such'), 'x')).toBe('x');
  });

  it('names a page as a path in the kit, never a path of this machine nor a URL', () => {
    const ref = mistakeRef('no-final-lf');
    expect(ref && inKit(ref)).toBe('docs/mistakes/no-final-lf.md in the kit');
    expect(explained(ref)?.page).toBe('docs/mistakes/no-final-lf.md in the kit');
    expect(explained(undefined)).toBeUndefined();
  });
});

describe("a page's text", () => {
  // the sections as the page writes them, read here with a plain split of the file
  const section = (file: string, name: string): string =>
    readFileSync(join(REPO, 'docs', ...file.split('/')), 'utf8')
      .split(`## ${name}\n\n`)[1]
      ?.split('\n\n')[0] ?? '';

  it.each([
    ['mistakes/no-final-lf.md', () => mistakeRef('no-final-lf')],
    ['failures/no-test-ran.md', () => failureRef('no-test-ran')],
    ['failures/testee-start.md', () => failureRef('testee-start')],
  ])('%s: its title, what it means and how to fix it, links reduced to their text', (file, ref) => {
    const text = pageText(ref());
    expect(text?.means).toBe(plainText(section(file, 'What it means').replace(/\n/g, ' ')));
    expect(text?.fix).toBe(plainText(section(file, 'How to fix it').replace(/\n/g, ' ')));
    expect(text?.fix).not.toMatch(/\]\(|All known mistakes/);
    expect(text?.title).toBe(
      /^# `[^`]+`: (.+)$/.exec(readFileSync(join(REPO, 'docs', ...file.split('/')), 'utf8').split('\n')[0] ?? '')?.[1],
    );
  });

  it('the no-final-lf fix keeps its code and reads as the page says it', () => {
    expect(pageText(mistakeRef('no-final-lf'))?.fix).toBe(
      'Append an LF after every part, the body included: `parts.map(p => p + "\\n").join("")`, or join and add a final LF.',
    );
  });

  it('a link becomes its text', () => {
    expect(plainText('see [§5.1](../gateway-spec.md#51-signature-content) and [error](error.md)')).toBe(
      'see §5.1 and error',
    );
    expect(pageText(undefined)).toBeUndefined();
    expect(pageText(readingRef('R1'))).toBeUndefined();
  });
});
