/**
 * Reports of unusual runs: a clean run, an empty run, one content without the other,
 * several choices in one case, text with backticks and invalid UTF-8.
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/runner/result.js';
import { toHtml } from '../../src/reports/html.js';
import { toJUnitXml } from '../../src/reports/junit.js';
import { toMarkdown } from '../../src/reports/markdown.js';
import { toResultsJson } from '../../src/reports/results-json.js';
import { summaryLine } from '../../src/reports/index.js';
import { b64, EXPECTED_CONTENT, fixtureCases, fixtureRun, SECRETS } from './_fixture.js';
import { findAll, parseXml } from './_xml.js';

const passed = fixtureCases().filter((c) => c.verdict === 'passed');

describe('a clean run', () => {
  const run = fixtureRun({ cases: passed, log: [], staleListEntries: [], selection: { only: [], skip: [] } });

  it('says CONFORMANT and "None." where nothing is listed', () => {
    const text = toMarkdown(run, SECRETS);
    expect(text).toContain('**CONFORMANT: 3 passed (3 cases, 1.234 s)**');
    expect(text).toContain('## Failures (0)\n\nNone.');
    expect(text).toContain('## Expected failures (0)\n\nNone.');
    expect(text).toContain('## Skipped (0)\n\nNone.');
    expect(text).toContain('| Selection | all cases |');
    expect(text).not.toContain('Stale');
    expect(text).toContain("The run's log (0 lines)");
    const html = toHtml(run, SECRETS);
    expect(html).toContain('<p class="summary ok">CONFORMANT');
    expect(html).toContain('<h2>Log (0 lines)</h2>\n<p>Empty.</p>');
    expect(html).not.toContain('id="stale"');
  });

  it('has no failure, error or skipped element', () => {
    const root = parseXml(toJUnitXml(run, SECRETS));
    expect(findAll(root, 'testcase')).toHaveLength(3);
    expect([...findAll(root, 'failure'), ...findAll(root, 'error'), ...findAll(root, 'skipped')]).toEqual([]);
  });
});

describe('an empty run', () => {
  const run = fixtureRun({ cases: [], durationMs: 0 });

  it('renders every format', () => {
    expect(toMarkdown(run, SECRETS)).toContain('## By kind\n\nNo cases.');
    expect(toHtml(run, SECRETS)).toContain('<h2>By kind</h2><p>No cases.</p>');
    expect(parseXml(toJUnitXml(run, SECRETS)).attrs['tests']).toBe('0');
    expect(toResultsJson(run, SECRETS).totals.total).toBe(0);
    expect(summaryLine(run.totals, 1)).toBe('CONFORMANT: 0 passed (0 cases, 0.001 s)');
  });
});

describe('one content without the other', () => {
  const crashed: CaseResult = {
    ...fixtureCases()[1]!,
    id: 'signature.content-crash',
    verdict: 'error',
    status: 'error',
    message: 'the testee hung',
    ops: [
      {
        op: 'signature.content',
        status: 'error',
        expected: b64(EXPECTED_CONTENT),
        got: { failed: { reason: 'the testee hung' } },
        message: 'the testee hung',
        durationMs: 5000,
      },
    ],
  };
  const echoed: CaseResult = {
    ...fixtureCases()[3]!,
    id: 'request.verify.echo',
    ops: [
      {
        op: 'request.verify',
        status: 'error',
        expected: 'accept',
        got: { result: { valid: 'yes', contentB64: b64('a\r\nb\u0001\n') } },
        message: 'result has no boolean "valid"',
        durationMs: 1,
      },
    ],
  };
  const run = fixtureRun({ cases: [crashed, echoed] });

  it('shows the content there is, on its own', () => {
    const html = toHtml(run, SECRETS);
    expect(html).toContain('expected content (240 bytes)');
    expect(html).toContain('content got (6 bytes)');
    expect(html).toContain('<code>a<span class="escape">\\r</span><span class="lf">⏎</span></code>');
    const text = toMarkdown(run, SECRETS);
    expect(text).toContain('Expected content:\n\n```\n 1 appId     app_7f3a9c⏎');
    expect(text).toContain('Content got:\n\n```\n 1 appId     a\\r⏎\n 2 appSecret b\\x01⏎\n```');
    const body = findAll(parseXml(toJUnitXml(run, SECRETS)), 'error')[0]?.text ?? '';
    expect(body).toContain('  expected content:\n     1 appId     app_7f3a9c⏎');
    expect(toResultsJson(run, SECRETS).cases[0]?.ops[0]?.contentDifference).toBeNull();
  });

  it('shows an empty content as empty', () => {
    const empty = { ...crashed, ops: [{ ...crashed.ops[0]!, expected: '' }] };
    expect(toHtml(fixtureRun({ cases: [empty] }), SECRETS)).toContain('<em>(empty)</em>');
    expect(toMarkdown(fixtureRun({ cases: [empty] }), SECRETS)).toContain('```\n(empty)\n```');
  });
});

describe('choices and awkward text', () => {
  it("lists each operation's choice when a case records several", () => {
    const c: CaseResult = {
      ...fixtureCases()[6]!,
      ops: [
        { ...fixtureCases()[6]!.ops[0]!, op: 'response.verify', choice: 'accepted' },
        { ...fixtureCases()[6]!.ops[0]!, op: 'request.verify', choice: 'refused' },
      ],
    };
    expect(toMarkdown(fixtureRun({ cases: [c] }), SECRETS)).toContain(
      '| response.verify: accepted, request.verify: refused |',
    );
  });

  it('fences code that holds backticks', () => {
    const c: CaseResult = { ...fixtureCases()[1]!, id: 'signature.`tick`', file: '``x``' };
    const text = toMarkdown(fixtureRun({ cases: [c] }), SECRETS);
    expect(text).toContain('### FAILED: `` signature.`tick` ``');
    expect(text).toContain('file: ``` ``x`` ```');
  });

  it('sorts spec sections numerically, unknown names by text', () => {
    const cs = fixtureCases().map((c, i) => ({ ...c, spec: [['10.1', '9', 'appendix', '5.1.2', '5.1'][i % 5]!] }));
    const text = toMarkdown(fixtureRun({ cases: cs }), SECRETS);
    const order = ['| 5.1 |', '| 5.1.2 |', '| 9 |', '| 10.1 |', '| appendix |'].map((s) => text.indexOf(s));
    expect(order.every((i) => i > 0)).toBe(true);
    expect(order.slice(0, 4)).toEqual([...order.slice(0, 4)].sort((a, b) => a - b));
  });
});
