/**
 * junit.xml: structure (suites per area, cases, failure/error/skipped), properties,
 * escaping of hostile text, well-formedness (own parser; xmllint when installed).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toJUnitXml } from '../../src/reports/junit.js';
import { escapeXml } from '../../src/reports/escape.js';
import { fixtureCases, fixtureRun, SECRETS } from './_fixture.js';
import { findAll, parseXml, type XmlElement } from './_xml.js';

const xml = toJUnitXml(fixtureRun(), SECRETS);
const root = parseXml(xml);
const cases = findAll(root, 'testcase');
const byName = (name: string): XmlElement =>
  cases.find((c) => c.attrs['name'] === name) ?? expect.unreachable(`no testcase ${name}`);

const hasXmllint = ((): boolean => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('toJUnitXml', () => {
  it('is one <testsuites> with one <testsuite> per area present, in area order', () => {
    expect(root.name).toBe('testsuites');
    expect(root.children.filter((c) => c.name === 'testsuite').map((s) => s.attrs['name'])).toEqual([
      'signature',
      'authorization',
      'request',
      'response',
      'webhook',
      'redirect',
      'upload',
    ]);
    // 10 cases; skipped: 2 skipped + 1 expected failure + 1 partial (a partial case is never a pass)
    expect(root.attrs).toMatchObject({ tests: '10', failures: '2', errors: '1', skipped: '4', time: '1.234' });
  });

  it('has one <testcase> per case: name = id, classname = pgv2kit.<kind>, file, time in seconds', () => {
    expect(cases.map((c) => c.attrs['name'])).toEqual(
      fixtureCases()
        .map((c) => c.id)
        .sort((a, b) => order(a) - order(b)),
    );
    for (const c of fixtureCases()) {
      expect(byName(c.id).attrs).toMatchObject({
        classname: `pgv2kit.${c.kind}`,
        file: c.file,
        time: (c.durationMs / 1000).toFixed(3),
      });
    }
  });

  it('counts failures, errors and skips as the verdicts say', () => {
    expect(findAll(root, 'failure')).toHaveLength(2);
    expect(findAll(root, 'error')).toHaveLength(1);
    expect(findAll(root, 'skipped')).toHaveLength(4);
    const suite = root.children.find((s) => s.attrs['name'] === 'upload');
    expect(suite?.attrs).toMatchObject({ tests: '2', skipped: '2', failures: '0', errors: '0' });
    // signature: one passed, one failed, one partial
    expect(root.children.find((s) => s.attrs['name'] === 'signature')?.attrs).toMatchObject({
      tests: '3',
      skipped: '1',
      failures: '1',
      errors: '0',
    });
  });

  it('partial → <skipped message="partial: …"> naming the steps that did not run, never a pass', () => {
    const partial = byName('signature.verify-only').children;
    expect(partial).toHaveLength(1);
    expect(partial[0]?.name).toBe('skipped');
    expect(partial[0]?.attrs['message']).toBe(
      'partial: not run: signature.content (unsupported: signing is not implemented), signature.sign (unsupported: signing is not implemented); passed: request.verify',
    );
    expect(partial[0]?.text).toContain('[request.verify] pass: accepted as expected');
    // a step that did not run says why, with no expected or got of null
    expect(partial[0]?.text).toContain(
      '[signature.sign] not run: the implementation answered unsupported (signing is not implemented)\n',
    );
    expect(partial[0]?.text).not.toMatch(/\[signature\.sign\][^\n]*\n {2}expected: null/);
  });

  it("carries each operation's coverage and the unknown operation names as properties", () => {
    const props =
      root.children.find((c) => c.name === 'properties')?.children.map((p) => [p.attrs['name'], p.attrs['value']]) ??
      [];
    // signature.content: 3 signature cases have a step of it; one passed, one failed, one answered unsupported
    expect(props).toContainEqual([
      'pgv2kit.operation.signature.content',
      'offered; cases 3, ran 2, passed 1, failed 1, error 0, not run 1',
    ]);
    expect(props).toContainEqual([
      'pgv2kit.operation.request.verify',
      'offered; cases 3, ran 3, passed 2, failed 0, error 1, not run 0',
    ]);
    expect(props).toContainEqual([
      'pgv2kit.warning',
      'the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)',
    ]);
    expect(props.map(([n]) => n)).not.toContain('pgv2kit.noTestRan');
  });

  it('failed → <failure type="nonconformance"> with expected, got and the diagnosis in the body', () => {
    const failure = byName('signature.final-lf-missing').children[0];
    expect(failure?.name).toBe('failure');
    expect(failure?.attrs['type']).toBe('nonconformance');
    expect(failure?.attrs['message']).toMatch(/^content differs from the expected at byte 2\d\d/);
    expect(failure?.text).toContain('diagnosis: no-final-lf');
    expect(failure?.text).toContain('content (- expected, + got): first difference at byte');
    expect(failure?.text).toMatch(/^ {4}- {2}7 body {6}\{.*\}⏎$/m);
    expect(failure?.text).toMatch(/^ {4}\+ {2}7 body {6}\{.*\} ‹end›$/m);
    expect(failure?.text).toMatch(/^  expected: {\n    "contentText": "app_7f3a9c\\nsk\*+ \(32 chars\)/m);
  });

  it('error → <error>, skipped and expected failure → <skipped message>, unexpected pass → <failure type="unexpected-pass">', () => {
    expect(byName('request.verify.crash').children[0]?.name).toBe('error');
    expect(byName('upload.form.basic').children[0]).toMatchObject({
      name: 'skipped',
      attrs: { message: 'unsupported: upload.form is not offered' },
    });
    const xfail = byName('redirect.payment-trimmed').children[0];
    expect(xfail?.name).toBe('skipped');
    expect(xfail?.attrs['message']).toContain('expected failure: SDK 1.x trims the payment');
    const xpass = byName('webhook.genuine.basic').children[0];
    expect(xpass?.attrs['type']).toBe('unexpected-pass');
    expect(byName('authorization.parse.basic').children).toHaveLength(0);
  });

  it('carries kit version, vector set hash and implementation as properties of <testsuites>', () => {
    const props = Object.fromEntries(
      root.children.find((c) => c.name === 'properties')?.children.map((p) => [p.attrs['name'], p.attrs['value']]) ??
        [],
    );
    expect(props).toMatchObject({
      'pgv2kit.kit.version': '0.1.0',
      'pgv2kit.vectorSetHash': fixtureRun().vectorSetHash,
      'pgv2kit.implementation.name': 'acme-pg-sdk',
      'pgv2kit.implementation.version': '1.4.2',
      'pgv2kit.implementation.language': 'java',
    });
  });

  it('escapes markup and writes characters XML 1.0 forbids as visible escapes', () => {
    const hostile = `<b>"a" & 'b'</b> ]]> \u0000\u0001\u001b\u007f\uFFFE\uFFFF \uD800 \uDC00 ok \u{1F600}\r\n\ttab`;
    const c = { ...fixtureCases()[1]!, id: 'signature.hostile', message: hostile, comment: hostile };
    const doc = toJUnitXml(fixtureRun({ cases: [c] }), SECRETS);
    const parsed = parseXml(doc);
    const failure = findAll(parsed, 'failure')[0];
    expect(failure?.attrs['message']).toBe(
      `<b>"a" & 'b'</b> ]]> \\x00\\x01\\x1B\\x7F\\uFFFE\\uFFFF \\uD800 \\uDC00 ok \u{1F600}\r`,
    );
    expect(failure?.text).toContain(`signature.hostile: <b>"a" & 'b'</b> ]]> \\x00\\x01`);
    expect(escapeXml('a\tb\nc', true)).toBe('a&#9;b&#10;c');
  });

  it.skipIf(!hasXmllint)('is well-formed for xmllint', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-junit-'));
    writeFileSync(join(dir, 'junit.xml'), xml);
    expect(() => execFileSync('xmllint', ['--noout', join(dir, 'junit.xml')], { stdio: 'pipe' })).not.toThrow();
  });
});

function order(id: string): number {
  return ['signature', 'authorization', 'request', 'response', 'webhook', 'redirect', 'upload'].indexOf(
    id.split('.')[0] ?? '',
  );
}
