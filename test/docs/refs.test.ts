/**
 * References to the shipped docs: R-numbers, spec sections, mistake ids and failure
 * kinds turned into files of docs/, resolved against the package root found from the
 * module's own URL (the same from src/ and from the built dist/).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { docDisplayPath, docPath, docsNamed, docUrl, failureRef, headingSlug, linkRefsHtml, mistakeRef, PACKAGE_ROOT, pageLinkHtml, readingRef, refsIn, sectionRef, seeDocs } from '../../src/docs/refs.js';

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

  it('a file: URL into the installed package', () => {
    const ref = sectionRef('5.3');
    expect(ref && docUrl(ref)).toBe(`${pathToFileURL(join(REPO, 'docs', 'gateway-spec.md')).href}#53-authorization-header`);
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
  const url = (file: string): string => pathToFileURL(join(REPO, ...file.split('/'))).href;

  it('docsNamed names the files by their path in the package', () => {
    expect(docsNamed('§5.1, R1')).toBe('docs/gateway-spec.md#51-signature-content, docs/readings.md (R1)');
    expect(docsNamed('4.2, R13, R14')).toBe('docs/gateway-spec.md#42-execute-upload, docs/readings.md (R13, R14)');
    expect(docsNamed('none')).toBe('');
  });

  it('linkRefsHtml links R-numbers and § sections in escaped text, bare numbers only when asked', () => {
    expect(linkRefsHtml('refused (R8) per §5.3 &amp; 4.2')).toBe(
      `refused (<a class="doc" href="${url('docs/readings.md')}">R8</a>) per <a class="doc" href="${url('docs/gateway-spec.md')}#53-authorization-header">§5.3</a> &amp; 4.2`,
    );
    expect(linkRefsHtml('5.1', true)).toBe(`<a class="doc" href="${url('docs/gateway-spec.md')}#51-signature-content">5.1</a>`);
    expect(linkRefsHtml('&#39;R&#39; 2.0x')).toBe('&#39;R&#39; 2.0x');
  });

  it('pageLinkHtml links a page that exists, and leaves the text alone otherwise', () => {
    expect(pageLinkHtml(mistakeRef('no-final-lf'), '<code>no-final-lf</code>')).toBe(`<a class="doc" href="${url('docs/mistakes/no-final-lf.md')}"><code>no-final-lf</code></a>`);
    expect(pageLinkHtml(mistakeRef('no-such'), 'x')).toBe('x');
  });
});
