/**
 * Issue 25, item 1: escape last, mask first, one masker. The terminal, --json and the files mask with the same rule
 * (src/scheme/mask.ts): a secret in any case and encoding, 12-byte fragments, base64 — while text merely sharing a
 * short run with a secret stays readable. Nothing rewrites a rendered document (results.json was masked as JSON text);
 * report.md's fences survive a bare CR; junit.xml stays well-formed; untrusted text reaches the terminal inert.
 */
import { describe, expect, it } from 'vitest';
import { redactingIo, type CliIo } from '../../src/cli/io.js';
import { jsonOutput } from '../../src/cli/_json-output.js';
import { buildModel } from '../../src/reports/_model.js';
import { junitFromModel } from '../../src/reports/junit.js';
import { markdownFromModel } from '../../src/reports/markdown.js';
import { resultsJsonFromModel } from '../../src/reports/results-json.js';
import { caseLines, summary } from '../../src/runner/progress.js';
import { Masker, maskSecret } from '../../src/scheme/mask.js';
import { fixtureRun } from './_fixture.js';

const SECRET = 'acme-gateway-key-2024';
const b64 = (s: string): string => Buffer.from(s, 'utf8').toString('base64');

function capture(secrets: Set<string>): { io: CliIo; text: () => string } {
  let text = '';
  const io: CliIo = { stdout: (s) => void (text += s), stderr: (s) => void (text += s), env: {}, cwd: '/' };
  return { io: redactingIo(io, secrets), text: () => text };
}

describe('the one masking rule', () => {
  const m = new Masker([SECRET, 'p"a\\ss w&rd<1>!']);

  it('masks every leak class: the secret in any case, truncated or trimmed (12 bytes or more), its base64', () => {
    expect(m.text(`k=${SECRET}`)).toBe(`k=${maskSecret(SECRET)}`);
    for (const leak of [SECRET.toUpperCase(), 'Acme-Gateway-Key-2024', SECRET.slice(0, 12), SECRET.slice(-13)])
      expect(m.text(`k=${leak};`), leak).toMatch(/^k=‹\d+ bytes masked: part of a secret›;$/);
    expect(m.text(`x ${b64(`id:${SECRET}`)} y`)).toBe('x ‹base64 masked: it holds a secret› y');
    // one byte changed inside: the rest of the secret beside the masked part is masked too
    expect(m.text(`${SECRET.slice(0, 12)}X${SECRET.slice(13)}`)).not.toContain(SECRET.slice(13));
  });

  it('masks a secret JSON-escaped, percent-encoded or HTML-escaped', () => {
    const secret = 'p"a\\ss w&rd<1>!';
    for (const form of [
      JSON.stringify(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
      encodeURIComponent(secret),
      encodeURIComponent(secret).toLowerCase(),
      encodeURIComponent(secret).replace('%20', '+'),
      'p&quot;a\\ss w&amp;rd&lt;1&gt;!',
    ])
      expect(m.text(`q=${form}`), form).toMatch(/^q="?‹\d+ bytes masked: part of a secret›"?$/);
  });

  it("masks a secret past ASCII as other languages' encoders write it, and upper-cased whole", () => {
    // found by a probe: the forms below were written to results.json, report.html and traffic.har as they came
    const secret = 'sk_live_Zq9"Kp/+é<Ab>mNq7';
    const m2 = new Masker([secret]);
    for (const form of [
      // Python's json.dumps, Jackson's ESCAPE_NON_ASCII: ASCII only
      'sk_live_Zq9\\"Kp/+\\u00e9<Ab>mNq7',
      'sk_live_Zq9\\"Kp/+\\u00E9<Ab>mNq7',
      // PHP's json_encode: ASCII only, and `/` escaped
      'sk_live_Zq9\\"Kp\\/+\\u00e9<Ab>mNq7',
      // Go's encoding/json: `<` and `>` (and `&`) as \u003c, \u003e; any character escaped, or every one
      'sk_live_Zq9\\"Kp/+é\\u003cAb\\u003emNq7',
      'sk_live_Zq9\\"Kp/+é\\u003CAb\\u003EmNq7',
      'sk_live_Zq9\\u0022Kp/+é<Ab>mNq7',
      [...secret].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      // upper-cased whole (É is not é in any ASCII case), as itself and percent-encoded
      'SK_LIVE_ZQ9"KP/+É<AB>MNQ7',
      'SK_LIVE_ZQ9%22KP%2F%2B%C3%89%3CAB%3EMNQ7',
    ])
      expect(m2.text(`q=${form};`), form).toMatch(/^q=‹\d+ bytes masked: part of a secret›;$/);
  });

  it('a secret behind JSON escapes is masked whole, the text around it kept as it was', () => {
    const secret = 'sk_live_Zq9"Kp/+é<Ab>mNq7';
    const m2 = new Masker([secret]);
    const body = '{"note":"sk_live_Zq9\\u0022Kp/+\\u00e9\\u003cAb\\u003emNq7","n":"a\\nb\\u00e9"}';
    const masked = m2.text(body);
    expect(masked).toMatch(/^\{"note":"‹\d+ bytes masked: part of a secret›","n":"a\\nb\\u00e9"\}$/);
    // a surrogate pair escaped as two, a lone surrogate, a broken escape: read, never thrown on
    expect(m2.text('x \\ud83d\\ude00 \\ud800 \\u12 \\')).toBe('x \\ud83d\\ude00 \\ud800 \\u12 \\');
  });

  it('leaves text that merely shares a short run with a secret readable', () => {
    for (const text of ['npx pgv2kit-gateway run --only id:x', '/tmp/pgv2kit-gateway-logs/x', 'acme-gate 2024'])
      expect(m.text(text)).toBe(text);
  });
});

describe('the terminal masks as the files do', () => {
  it('case variants, fragments and base64 of a secret, with secrets learned while the command runs', () => {
    const secrets = new Set<string>(['some-other-secret']);
    const { io, text } = capture(secrets);
    secrets.add(SECRET);
    io.stderr(`a ${SECRET.toUpperCase()} b ${b64(SECRET)} c ${SECRET.slice(2)}\n`);
    expect(text()).not.toContain(SECRET.toUpperCase());
    expect(text()).not.toContain(b64(SECRET));
    expect(text()).not.toContain(SECRET.slice(2));
    expect(text()).toBe(
      'a ‹21 bytes masked: part of a secret› b ‹base64 masked: it holds a secret› c ‹19 bytes masked: part of a secret›\n',
    );
  });

  it('--json masks its document as data: a secret holding a quote or backslash', () => {
    let out = '';
    const secret = 'ab"c\\def';
    const { emit } = jsonOutput(true, { stdout: (s) => void (out += s), stderr: () => {}, env: {}, cwd: '/' });
    emit({ message: `bad ${secret}`, upper: secret.toUpperCase() }, [secret]);
    expect(JSON.parse(out)).toEqual({
      message: `bad ${maskSecret(secret)}`,
      upper: '‹8 bytes masked: part of a secret›',
    });
  });
  it('a --json document through the io stays JSON: masked as data, not as text', () => {
    // the secret spans a value's end and the document's own quotes and key: masking the text broke the document
    const secret = 'hijkl","kk":1}';
    const { io, text } = capture(new Set([secret]));
    jsonOutput(true, io).emit({ a: 'zzhijkl', kk: 1, b: `x ${secret}` }, [secret]);
    expect(JSON.parse(text())).toEqual({ a: 'zzhijkl', kk: 1, b: `x ${maskSecret(secret)}` });
  });
});

describe('untrusted text on the terminal', () => {
  const hostile = 'x\x1b]0;title\x07 \x1b[2J\rY\0\u0085\u202e z';
  const inert = 'x\\x1B]0;title\\x07 \\x1B[2J\\rY\\x00\\u0085\\u202E z';

  it('a case line shows a name, reason and diagnosis with controls as visible escapes; FAILED keeps its colour', () => {
    const run = fixtureRun();
    const cases = run.cases.map((c) => ({ ...c, id: `${c.id}${hostile}`, message: hostile }));
    const lines = caseLines({ cases }, true);
    expect(lines).toContain(`\x1b[1;31mFAILED\x1b[0m `);
    expect(lines).toContain(inert);
    expect(lines.replace(/\x1b\[(?:0|1;31|33)m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
  });

  it("the run summary shows a testee's name inert, its closing line in colour", () => {
    const run = fixtureRun({ implementation: { name: `sdk${hostile}`, version: '1', language: 'js' } });
    const text = summary(run, true);
    expect(text).toContain(`sdk${inert}`);
    expect(text).toMatch(/\x1b\[1;31m\d+ passed, \d+ failed\x1b\[0m\n$/);
    expect(text.replace(/\x1b\[(?:0|1;31)m/g, '')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]/);
  });

  it("the io passes only the kit's own colours and progress sequence", () => {
    const { io, text } = capture(new Set());
    io.stdout(`\x1b[1;31mFAILED\x1b[0m ${hostile}\n`);
    io.stderr('\r\x1b[K[1/2] 0 failed');
    expect(text()).toBe(`\x1b[1;31mFAILED\x1b[0m ${inert}\n\r\x1b[K[1/2] 0 failed`);
  });
});

describe('reports rendered from masked data', () => {
  it('results.json: a secret that is JSON syntax no longer breaks or reshapes the document', () => {
    const secret = '","kind":"';
    const model = buildModel(fixtureRun(), [secret]);
    const json = resultsJsonFromModel(model, [secret]);
    expect(json.cases.map((c) => c.kind)).toEqual(model.cases.map((c) => c.kind));
    expect(json.cases.map((c) => c.id)).toEqual(model.cases.map((c) => c.id));
  });

  it("report.md: a bare CR, CRLF or U+2028 in a testee's stderr cannot close the fence", () => {
    const fence = '```';
    const run = fixtureRun({
      cases: [],
      aborted: {
        kind: 'testee-start',
        message: 'the testee exited',
        command: 'node sdk.js',
        exitCode: 1,
        signal: null,
        ended: 'exited with code 1',
        stderrTail: [`a\r${fence}\r<img src=x onerror=alert(1)>\r\n[x](javascript:alert(1))\u2028${fence}\u2029<b>`],
      },
    });
    const md = markdownFromModel(buildModel(run, []), []);
    expect(md).not.toMatch(/[\r\u2028\u2029]/);
    const lines = md.split('\n');
    const img = lines.findIndex((l) => l.includes('<img'));
    const open = lines.findIndex((l) => /^> `{4,}text$/.test(l));
    const close = lines.findIndex((l, i) => i > open && /^> `{4,}$/.test(l));
    expect(open).toBeGreaterThan(-1);
    expect(img).toBeGreaterThan(open);
    expect(close).toBeGreaterThan(lines.findIndex((l) => l.includes('<b>')));
  });

  it('junit.xml stays well-formed XML 1.0 whatever the names, reasons and secrets hold', () => {
    let every = '';
    for (let c = 0; c < 0x20; c++) every += String.fromCharCode(c);
    every += '\u007f\u0085\ufffe\uffff\ud800 \udc00 ]]> <&>"\'';
    const secret = '</testcase>';
    const run = fixtureRun();
    const cases = run.cases.map((c) => ({ ...c, id: `${c.id}${every}`, message: every, comment: `${secret}${every}` }));
    const xml = junitFromModel(buildModel({ ...run, cases }, [secret]), [secret]);
    expect(xml).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(xml).not.toContain('&lt;/testcase&gt;');
    expect(wellFormed(xml)).toBe(true);
  });
});

/** A small well-formedness check (no XML parser is installed): tags balance, attributes quoted, entities known. */
function wellFormed(xml: string): boolean {
  const stack: string[] = [];
  const body = xml.replace(/^<\?xml[^?]*\?>/, '');
  for (const m of body.matchAll(
    /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|apos|#\d+);)/g,
  )) {
    if (m[2] === undefined) return false;
    if (m[1] === '/') {
      if (stack.pop() !== m[2]) return false;
    } else if (m[4] !== '/') stack.push(m[2]);
  }
  return stack.length === 0;
}
