/**
 * report.md: the verdict and header, the likely causes and the failures, then the tables,
 * choices, expected failures, skipped; a step that did not run says why.
 */
import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../../src/runner/result.js';
import { toMarkdown } from '../../src/reports/markdown.js';
import { md } from '../../src/reports/markdown.js';
import { fixtureCases, fixtureRun, SECRETS } from './_fixture.js';

const text = toMarkdown(fixtureRun(), SECRETS);
const at = (needle: string): number => {
  const i = text.indexOf(needle);
  expect(i, `report.md lacks ${needle}`).toBeGreaterThanOrEqual(0);
  return i;
};

describe('toMarkdown', () => {
  it('opens with the implementation, kit version, vector set, target, date and the summary line', () => {
    expect(text.split('\n')[0]).toBe('# pgv2kit conformance report: acme-pg-sdk 1.4.2');
    expect(text).toContain(
      '**NOT CONFORMANT: 3 passed, 1 failed, 1 error, 1 unexpected pass, 1 expected failure, 1 partial, 2 skipped (10 cases, 1.234 s)**',
    );
    expect(text).toContain('| Implementation | acme-pg-sdk 1.4.2 (java) |');
    expect(text).toContain('| Kit | pgv2kit 0.1.0 |');
    expect(text).toContain(`| Vector set | \`${fixtureRun().vectorSetHash}\` |`);
    expect(text).toContain('| Target | testee: `java -jar acme-testee.jar` |');
    expect(text).toContain('2024-06-11T08:00:00.000Z');
  });

  it('puts the sections in order: the verdict, the likely causes and the failures, then the tables, choices, expected failures, skipped', () => {
    const order = [
      '**NOT CONFORMANT',
      '## Likely causes, most cases first',
      '## Failures (3)',
      '### FAILED',
      '## By operation',
      '## By kind',
      '## By spec section',
      '## Acceptable cases',
      '## Expected failures (1)',
      '## Partial (1)',
      '## Skipped (2)',
      '## Stale expected-failure entries (1)',
    ].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('a step that did not run says why instead of an expected and a got of null', () => {
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
        ...base.ops.filter((o) => o.op === 'signature.sign'),
      ],
    };
    const one = toMarkdown(fixtureRun({ cases: [c] }), SECRETS);
    const failure = one.slice(one.indexOf('### FAILED'), one.indexOf('## By operation'));
    expect(failure).toContain(
      '**`signature.content`**: not run: the implementation does not offer signature.content\n\n**`signature.sign`**: fail,',
    );
    expect(failure.match(/^Expected:$/gm)?.length).toBe(1);
    expect(failure).not.toMatch(/```json\nnull\n```/);
  });

  it('lists failures as failed, then error, then unexpected pass', () => {
    const order = [
      '### FAILED: `signature.final-lf-missing`',
      '### ERROR: `request.verify.crash`',
      '### UNEXPECTED PASS: `webhook.genuine.basic`',
    ].map(at);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(at('### UNEXPECTED PASS')).toBeLessThan(at('## Acceptable cases'));
  });

  it('counts per area and per spec section', () => {
    expect(text).toContain('| kind | cases | passed | failed | error | partial | skipped | xfail | xpass |');
    expect(text).toContain('| signature | 3 | 1 | 1 | · | 1 | · | · | · |');
    expect(text).toContain('| upload | 2 | · | · | · | · | 2 | · | · |');
    expect(text).toContain('| 5.1 | 4 | 1 | 1 | 1 | 1 | · | · | · |');
    expect(at('| 2.1 |')).toBeLessThan(at('| 4.2 |'));
    expect(at('| 4.2 |')).toBeLessThan(at('| 5.1 |'));
  });

  it('counts per operation, and names what did not run and the unknown operation names at the top', () => {
    expect(text).toContain('| operation | offered | cases | ran | passed | failed | error | not run |');
    expect(text).toContain('| `signature.content` | yes | 3 | 2 | 1 | 1 | · | **1** |');
    expect(text).toContain('| `request.verify` | yes | 3 | 3 | 2 | · | 1 | · |');
    expect(text).toContain('| `upload.form` | yes | 1 | · | · | · | · | **1** |');
    const top = text.slice(0, at('## Likely causes'));
    expect(top).toContain(
      '> **Not run**: `signature.content` (answered unsupported, 1 step), `signature.sign` (answered unsupported, 1 step), `upload.validate` (answered unsupported, 1 step), `upload.form` (answered unsupported, 1 step).',
    );
    expect(top).toContain(
      '> **Warning**: the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)',
    );
    expect(top).not.toContain('no test ran');
  });

  it('lists partial cases by the steps that did not run', () => {
    expect(text).toContain(
      '## Partial (1)\n\n### Not run: `signature.content`, `signature.sign` (1)\n\n`signature.verify-only`',
    );
  });

  it('says at the top when no test ran', () => {
    const none = toMarkdown(
      fixtureRun({ cases: [], operations: [], noTestRan: 'no test ran: the implementation offers no operations' }),
      SECRETS,
    );
    expect(none).toContain(
      '**NO TEST RAN: 0 passed (0 cases, 1.234 s)**\n\n> **no test ran: the implementation offers no operations**: this run checked nothing. How to fix it: Advertise, in the handshake, the operations the adapter implements, spelled as docs/PROTOCOL.md lists them; select cases of those operations (`pgv2kit run --list` shows which would run, skip or be partial). (docs/failures/no-test-ran.md in the kit)',
    );
  });

  it('shows a failure with its facts, the content diff and the diagnosis', () => {
    const failure = text.slice(at('### FAILED'), at('### ERROR'));
    expect(failure).toContain('The LF after the body (part 7) is left out.');
    expect(failure).toContain(
      '- file: `signature/known-mistakes.yaml` · result: **invalid** · spec: `5.1`, `5.2` · readings: — · flags: `FinalLfMissing`',
    );
    expect(failure).toContain('```diff\n   1 appId     app_7f3a9c⏎\n');
    expect(failure).toMatch(/^- {2}7 body {6}\{.*\}⏎$/m);
    expect(failure).toMatch(/^\+ {2}7 body {6}\{.*\} ‹end›$/m);
    expect(failure).toContain(
      '**Diagnosis**\n\n- `no-final-lf`: your content is the expected content without its final LF (§5.1, R1) — how to fix it: ',
    );
  });

  it('gives the choice of acceptable cases and groups skipped cases by reason', () => {
    expect(text).toContain('| `response.uppercase-hex` | accepted | acceptable case: the subject accepted |');
    expect(text).toContain(
      '### unsupported: upload.form is not offered (2)\n\n`upload.form.basic`, `upload.validate.size`',
    );
    expect(text).toContain('| `redirect.payment-trimmed` | SDK 1.x trims the payment; fixed in 2.0 (ticket 42) |');
  });

  it('escapes Markdown in prose', () => {
    expect(md('a*b_c|d <x> `e`\nf')).toBe('a\\*b\\_c\\|d \\<x\\> \\`e\\` f');
  });
});
