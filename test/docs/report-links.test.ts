/**
 * The reports point at the shipped docs: report.html links every spec section and
 * R-number, each diagnosis's mistake page and each failing status's page to files that
 * exist in the package; report.md names them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toHtml } from '../../src/reports/html.js';
import { toMarkdown } from '../../src/reports/markdown.js';
import { fixtureRun, SECRETS } from '../reports/_fixture.js';

const html = toHtml(fixtureRun(), SECRETS);
const md = toMarkdown(fixtureRun(), SECRETS);
const docLinks = [...html.matchAll(/<a class="doc" href="([^"#]+)(?:#([^"]*))?">(.*?)<\/a>/g)].map((m) => ({ file: fileURLToPath(m[1] ?? ''), anchor: m[2], text: m[3] ?? '' }));

describe('report.html links the docs', () => {
  it('every link points at a file that exists', () => {
    expect(docLinks.length).toBeGreaterThan(5);
    expect(docLinks.filter((l) => !existsSync(l.file)).map((l) => l.file)).toEqual([]);
  });

  it('the diagnosis links its mistake page, the R-numbers and sections of its ref', () => {
    const diagnosis = html.slice(html.indexOf('<div class="diagnosis">'), html.indexOf('</div>', html.indexOf('<div class="diagnosis">')));
    expect(diagnosis).toMatch(/<a class="doc" href="file:[^"]*\/docs\/mistakes\/no-final-lf\.md">about this mistake<\/a>/);
    expect(diagnosis).toMatch(/<a class="doc" href="file:[^"]*\/docs\/gateway-spec\.md#51-signature-content">§5\.1<\/a>/);
    expect(diagnosis).toMatch(/<a class="doc" href="file:[^"]*\/docs\/readings\.md">R1<\/a>/);
  });

  it('every reading and section of a failing case is a link', () => {
    expect(docLinks.some((l) => l.text === 'R10' && l.file.endsWith('readings.md'))).toBe(true);
    expect(docLinks.some((l) => l.text === '5.5' && l.anchor === '55-webhook-calls')).toBe(true);
    expect(html).not.toMatch(/<code>(R\d+|\d+\.\d+)<\/code>/);
  });

  it("a failing case's status links its page", () => {
    expect(html).toMatch(/<a class="doc" href="file:[^"]*\/docs\/failures\/failed\.md"><span class="verdict v-failed">FAILED<\/span><\/a>/);
  });
});

describe('report.md names the docs', () => {
  it('each diagnosis names its page, each failing case its sections, readings and status', () => {
    expect(md).toContain('(§5.1, R1) — see `docs/mistakes/no-final-lf.md`');
    expect(md).toMatch(/- docs: `docs\/gateway-spec\.md#51-signature-content, docs\/gateway-spec\.md#52-signature-value`, `docs\/failures\/failed\.md`/);
    expect(md).toContain('docs/readings.md (R10)');
  });
});
