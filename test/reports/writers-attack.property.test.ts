/**
 * Issue 25, item 6: a fast-check property that attacks every report writer. Hostile strings (markup, quotes,
 * backslashes, shell metacharacters, control characters, lone surrogates, Markdown) and secrets that are markup or
 * hold quotes go into every field an implementation, a vector folder or a file from elsewhere sets; every writer
 * renders the run (report.html, junit.xml, report.md, the step summary, results.json, run.log, compare's page and
 * Markdown, the terminal's closing lines), and test/reports/_support/attack-checks.ts checks them: pages with no
 * element or attribute the kit did not write, well-formed XML, Markdown with no raw HTML, foreign link or early
 * fence, every printed command run by `sh` with curl and npx stubbed giving exactly the argv the data says, and no
 * variant of a secret anywhere.
 *
 * `npm test` runs a few inputs from a fixed seed. More (any seed):
 *   PGV2KIT_ATTACK_RUNS=2000 npx vitest run test/reports/writers-attack.property.test.ts
 *   PGV2KIT_ATTACK_RUNS=500 PGV2KIT_ATTACK_SEED=$RANDOM npx vitest run test/reports/writers-attack.property.test.ts
 * A failure prints its seed and path; PGV2KIT_ATTACK_SEED=<seed> PGV2KIT_ATTACK_PATH=<path> replays it. `npm run
 * bench` runs it with 1,000 inputs (bench/writers-attack.ts).
 * Each smallest input a writer once broke on (COUNTEREXAMPLES below) stays as a regression test, checked by the
 * checks that can find its kinds of finding.
 * Cost at the default 4 inputs (counterexamples included): about 2.4 s of CPU above a trivial test file (most of it
 * loading parse5, markdown-it, fast-check and the writers), 0.8 s of tests, on a 2-core machine under load. About
 * 0.05 s an input beyond that: 1,000 inputs take some 55 s.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { attackArb, type AttackData, type Field } from './_support/attack-data.js';
import { attackFindings } from './_support/attack.js';
import { StubShell } from './_support/attack-shell.js';
import {
  checkHtml,
  checkJunit,
  checkMarkdown,
  checkSecrets,
  checkTerminal,
  type Finding,
} from './_support/attack-checks.js';

const runs = Number(process.env['PGV2KIT_ATTACK_RUNS'] ?? 4);
const seed = Number(process.env['PGV2KIT_ATTACK_SEED'] ?? 25);
const path = process.env['PGV2KIT_ATTACK_PATH'];
const lit = (text: string): Field => [{ lit: text }];
const SECRET_Q = '"q\'\\Zx81Kq2Lm9Vb';
const SECRET_P = '<p class="comment">Tz4Wq8Ln2Xc';
/** A secret whose base64 holds `/` and `+` (its base64url differs). */
const SECRET_URL = 'sk_live_??>>??>>ab';
/** Every form of the two secrets an implementation may echo, in one text. */
const echoes: Field = [
  { secret: 1, variant: 'upper' },
  { lit: ' ' },
  { secret: 1, variant: 'base64' },
  { lit: ' ' },
  { secret: 1, variant: 'base64url' },
  { lit: ' ' },
  { secret: 0, variant: 'json' },
  { lit: ' ' },
  { secret: 0, variant: 'percent' },
  { lit: ' ' },
  { secret: 0, variant: 'html' },
];

/** A run of plain data (every field a word), with a few fields replaced. */
function data(over: Partial<AttackData> = {}): AttackData {
  return {
    secrets: [SECRET_Q, SECRET_P],
    name: lit('acme'),
    version: lit('1.0'),
    language: lit('java'),
    runName: lit('nightly'),
    ids: ['signature.a', 'request.b', 'webhook.c', 'request.d', 'signature.e', 'request.f', 'signature.g'].map(lit),
    comment: lit('a comment'),
    file: lit('signature/basics.yaml'),
    message: lit('sign mismatch'),
    reason: lit('crashed'),
    got: lit('00'),
    errorMessage: lit('bad sign'),
    diagnosis: lit('the LF is missing'),
    listedReason: lit('ticket 42'),
    stderr: [lit('started')],
    stale: lit('signature.old'),
    unknownOp: lit('signature.sgn'),
    counterexample: lit('x'),
    selection: lit('signature.*'),
    contentExpected: lit('https://pg.example.com/x'),
    contentGot: lit('https://pg.example.com/y'),
    sent: { method: 'POST', query: lit('7'), headerValue: lit('ref-1'), body: lit('evidence') },
    forged: lit('touch pwned'),
    target: { kind: 'testee', command: lit('node testee.mjs') },
    aborted: false,
    ...over,
  };
}

/**
 * The smallest inputs the writers broke on (when the property was written, and as it found more): the field, the
 * text, and the kinds of finding the writers made of it. Each is a regression test: no finding of its kinds.
 */
const COUNTEREXAMPLES: ReadonlyArray<{
  readonly title: string;
  readonly kinds: readonly string[];
  readonly data: AttackData;
}> = [
  {
    title: 'a case id from a results.json with a backtick and markup is raw HTML in compare.md (ids written raw)',
    kinds: ['compare.md: raw HTML', 'compare.md: structure'],
    data: data({ ids: [lit('`<img src=x onerror=alert(1)>`'), ...data().ids.slice(1)] }),
  },
  {
    title: 'a case id from a results.json with a backtick and a javascript: link is a link in compare.md',
    kinds: ['compare.md: link scheme'],
    data: data({ ids: [lit('`[x](javascript:alert(1))`'), ...data().ids.slice(1)] }),
  },
  {
    title: "a secret's base64 in the content an implementation built is shown in the signature content views",
    kinds: [
      'report.html: secret base64',
      'report.md: secret base64',
      'results.json: secret base64',
      'junit.xml: secret base64',
    ],
    data: data({ contentGot: [{ secret: 0, variant: 'base64' }] }),
  },
  {
    title: "a secret's base64url in the content an implementation built is shown in the signature content views",
    kinds: [
      'report.html: secret base64url',
      'report.md: secret base64url',
      'results.json: secret base64url',
      'junit.xml: secret base64url',
    ],
    data: data({ secrets: [SECRET_URL, SECRET_P], contentGot: [{ secret: 0, variant: 'base64url' }] }),
  },
  {
    title: "a control character in the testee's command is shown as \\x1B in report.html's reproduce line",
    kinds: ['report.html reproduce: argv'],
    data: data({ target: { kind: 'testee', command: lit('node testee.mjs \x1b[31m') } }),
  },
  {
    title: "a | in the testee's command is \\| in report.md's reproduce code span (a list item, not a table)",
    kinds: ['report.md reproduce: argv'],
    data: data({ target: { kind: 'testee', command: lit('node testee.mjs | tee log') } }),
  },
  {
    title: "a body outside printable ASCII makes report.md's curl line `printf … \\| curl …`",
    kinds: ['report.md curl: argv'],
    data: data({ sent: { method: 'POST', query: lit('7'), headerValue: lit('ref-1'), body: lit('café') } }),
  },
  {
    title: "a testee command that ends with an LF: no command substitution keeps it (the reproduce line's variable)",
    kinds: ['report.md reproduce: argv'],
    data: data({ target: { kind: 'testee', command: lit('node\ttestee.mjs\u2028 -x\n\n') } }),
  },
  {
    title: "a case's message that starts `1. ` is a nested list in report.md",
    kinds: ['report.md: structure'],
    data: data({ reason: lit('1. n') }),
  },
  {
    title: "a vector's comment that starts with 4 spaces is a code block in report.md",
    kinds: ['report.md: structure'],
    data: data({ comment: lit('    indented') }),
  },
  {
    title: "a case's message that starts `- ` or a comment `---` is a list or a thematic break in report.md",
    kinds: ['report.md: structure'],
    data: data({ message: lit('- l'), comment: lit('---') }),
  },
  {
    title: "a stderr line with an LF ends report.md's quoted box and its fence: raw HTML follows",
    kinds: ['report.md: structure', 'report.md: raw HTML'],
    data: data({
      aborted: { message: lit('exited'), command: lit('node testee.mjs'), stderr: [lit('a\n<b>x</b>')] },
    }),
  },
  {
    title: "a stderr line with a bare CR ends report.md's quoted box and its fence: a javascript: image follows",
    kinds: ['report.md: link scheme'],
    data: data({
      aborted: {
        message: lit('exited'),
        command: lit('node testee.mjs'),
        stderr: [lit('a\r![i](javascript:alert(1))')],
      },
    }),
  },
  {
    title: "an ESC in a case's message reaches the terminal",
    kinds: ['terminal: control character'],
    data: data({ message: lit('\x1b[2J') }),
  },
  {
    title:
      "a line or paragraph separator (U+2028, U+2029) or a bidi mark or isolate (U+200F, U+2066) in a case's " +
      'message reaches the terminal',
    kinds: ['terminal: control character'],
    data: data({ message: lit('<script>\u2028\n\u2029 \u200f\u2066x') }),
  },
  {
    title:
      "a secret in upper case, its base64, base64url, JSON-escaped, percent-encoded and HTML-escaped forms in a case's " +
      'message reach the terminal (the files mask what they hold of it)',
    kinds: [
      'terminal: secret exact',
      'terminal: secret base64',
      'terminal: secret base64url',
      'terminal: secret json',
      'terminal: secret percent',
      'terminal: secret html',
    ],
    data: data({ secrets: [SECRET_Q, SECRET_URL], message: echoes }),
  },
  {
    title:
      "the secret and its encoded forms in a merchant's answer body are on certification.html (masked after it was " +
      'rendered, the escaped forms are missed)',
    kinds: [
      'certification.html: secret exact',
      'certification.html: secret base64',
      'certification.html: secret base64url',
      'certification.html: secret json',
      'certification.html: secret percent',
      'certification.html: secret html',
    ],
    data: data({ secrets: [SECRET_Q, SECRET_URL], got: echoes }),
  },
];

const shell = new StubShell();
afterAll(() => shell.close());

const describeFindings = (found: readonly Finding[]): string =>
  found.map((f) => `- ${f.kind}: ${f.detail.slice(0, 600)}`).join('\n');

describe('every report writer under attack', () => {
  it(
    'renders hostile data into pages, XML, Markdown, commands and terminal lines that hold',
    () => {
      fc.assert(
        fc.property(attackArb, (d) => {
          const found = attackFindings(d, shell);
          if (found.length > 0) throw new Error(`the writers broke:\n${describeFindings(found)}`);
        }),
        { numRuns: runs, seed, ...(path !== undefined ? { path, endOnFailure: true } : {}) },
      );
      expect(runs).toBeGreaterThan(0);
      // about 0.1 s an input (more while a failure shrinks)
    },
    20_000 + runs * 1000,
  );

  it('finds nothing in a run of plain data', () => {
    expect(describeFindings(attackFindings(data(), shell))).toBe('');
  });

  describe('the smallest inputs each writer broke on', () => {
    for (const c of COUNTEREXAMPLES) {
      let found: Finding[] | undefined;
      for (const kind of c.kinds)
        it(`${c.title}: ${kind}`, () => {
          found ??= attackFindings(c.data, shell, c.kinds);
          expect(describeFindings(found.filter((f) => f.kind === kind))).toBe('');
        });
    }
  });
});

describe('the checks can fail', () => {
  it('an attribute, an element or a comment the kit did not write', () => {
    const kit = '<p class="comment">KxaTk</p><p class="x">y</p>';
    expect(checkHtml('p', '<p class="comment">a</p><p class="x">y</p>', kit)).toEqual([]);
    expect(checkHtml('p', '<p class="comment" onfocus="x">a</p><p class="x">y</p>', kit)).not.toEqual([]);
    expect(checkHtml('p', '<p class="comment"><p class="comment">a</p></p><p class="x">y</p>', kit)).not.toEqual([]);
    expect(checkHtml('p', '<p class="comment">a<!--</p><p class="x">y</p>', kit)).not.toEqual([]);
    const link = '<a href="report.html#case-KxaTk">x</a>';
    expect(checkHtml('p', '<a href="report.html#case-a_b">x</a>', link)).toEqual([]);
    expect(checkHtml('p', '<a href="javascript:alert(1)">x</a>', link)).not.toEqual([]);
  });

  it('raw HTML, a foreign link, a fence closed early in Markdown', () => {
    const kit = '- `KxaTk`\n\n```\nKxbTk\n```\n\nend\n';
    expect(checkMarkdown('m', '- `a|b`\n\n```\n<b>\n```\n\nend\n', kit)).toEqual([]);
    expect(checkMarkdown('m', '- `a` <b>x</b>\n\n```\nb\n```\n\nend\n', kit)).not.toEqual([]);
    expect(checkMarkdown('m', '- `a` [x](javascript:alert(1))\n\n```\nb\n```\n\nend\n', kit)).not.toEqual([]);
    expect(checkMarkdown('m', '- `a`\n\n```\nb\n```\n<b>\n```\n\nend\n', kit)).not.toEqual([]);
  });

  it('XML 1.0 that is not well-formed', () => {
    const kit = '<testsuites><testcase name="KxaTk"/></testsuites>';
    expect(checkJunit('<testsuites><testcase name="a&amp;b"/></testsuites>', kit).found).toEqual([]);
    expect(checkJunit('<testsuites><testcase name="a\x1b"/></testsuites>', kit).found).not.toEqual([]);
    expect(checkJunit('<testsuites><testcase name="a"/></testcase></testsuites>', kit).found).not.toEqual([]);
  });

  it("a secret's variants: case, base64 at any offset, JSON, percent, HTML", () => {
    const s = SECRET_P;
    const at = (pre: string): string => Buffer.from(`${pre}${s}!`).toString('base64');
    expect(checkSecrets('f', ['nothing here', s.slice(1)], [s])).toEqual([]);
    for (const text of [s.toUpperCase(), at(''), at('x'), at('xy'), encodeURIComponent(s), JSON.stringify(s)])
      expect(checkSecrets('f', [`… ${text} …`], [s])).not.toEqual([]);
    expect(checkSecrets('f', [Buffer.from(`xy${s}`).toString('base64url')], [s])).not.toEqual([]);
    expect(checkSecrets('f', ['&lt;p class=&quot;comment&quot;&gt;Tz4Wq8Ln2Xc'], [s])).not.toEqual([]);
  });

  it('control characters in the terminal', () => {
    expect(checkTerminal('FAILED a: b\n  c\n')).toEqual([]);
    for (const c of ['\x1b', '\r', '\0', '\x85', '\u2028', '\u2029', '\u200e', '\u061c', '\u202e', '\u2069'])
      expect(checkTerminal(`a${c}b\n`)).not.toEqual([]);
  });

  it('a command that runs something else, or more', () => {
    const { ran } = shell.run([
      "curl -X 'GET;x' http://h/",
      'curl -X GET;npx x',
      "printf 'a\\nb' | curl --data-binary @-",
    ]);
    expect(ran[0]).toEqual([{ argv: ['curl', '-X', 'GET;x', 'http://h/'], stdin: '' }]);
    expect(ran[1]).toHaveLength(2);
    expect(ran[2]).toEqual([{ argv: ['curl', '--data-binary', '@-'], stdin: 'a\nb' }]);
  });
});
