/**
 * The data of the report writers' attack property (issue 25, item 6): hostile strings, secrets, and a run built from
 * them in two worlds — `hostile` (the strings as generated) and `plain` (each distinct hostile string replaced by an
 * alphanumeric token of its own, each secret by a plain secret of its own). The two renders of one run differ only in
 * text, so any element, attribute, Markdown token or XML element the hostile render has and the plain one has not
 * was made by the data, not by the kit.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { operationCoverage } from '../../../src/runner/coverage.js';
import type { CaseResult, OpResult, RunResult } from '../../../src/runner/result.js';
import { countedTotals } from '../_fixture.js';
import { unknownOperation } from '../../../src/runner/unknown-operations.js';
import type { Operation } from '../../../src/protocol/operations.js';
import type { Json } from '../../../src/subjects/subject.js';

/** What hostile text is made of: markup, quotes, shell, control characters, lone surrogates, Markdown. */
export const ATTACKS: readonly string[] = [
  // markup (HTML, XML)
  '<script>alert(1)</script>',
  '<p class="comment">',
  '" onfocus="x',
  "' autofocus onfocus='x",
  '<img src=x onerror=alert(1)>',
  '</testcase>',
  ']]>',
  '<!--',
  '-->',
  '</pre><b>',
  '&amp;',
  '&#0;',
  '&lt;b&gt;',
  // quotes and backslashes
  '"',
  "'",
  '\\',
  '\\"',
  "\\'",
  // shell
  ';',
  '$(touch pwned)',
  '`touch pwned`',
  "'; touch pwned; '",
  '${IFS}',
  '&& touch pwned',
  '| touch pwned',
  '#',
  '*',
  '~',
  '\n',
  // control characters
  '\x1b[31m',
  '\x1b]0;title\x07',
  '\x1b[2J',
  '\r',
  '\r\n',
  '\x00',
  '\x08',
  '\x7f',
  '\x9b',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\u200f',
  '\t',
  // lone surrogates
  '\ud800',
  '\udfff',
  // Markdown
  '|',
  '```',
  '~~~',
  '[x](javascript:alert(1))',
  '<javascript:alert(1)>',
  '![i](javascript:alert(1))',
  '**b**',
  '_i_',
  '> q',
  '- l',
  '# h',
  '1. n',
  '    indented',
  '---',
];

/** A hostile string: one to four pieces of the attacks, or of any code units. */
export const hostileText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...ATTACKS) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      { weight: 1, arbitrary: fc.stringMatching(/^[a-z ]{1,8}$/) },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((parts) => parts.join(''))
  .filter((s) => s.length > 0);

/** The forms of a secret an implementation may echo (each must be masked, or never written). */
export const ECHOED_VARIANTS = ['exact', 'upper', 'lower', 'base64', 'base64url', 'json', 'percent', 'html'] as const;
/** A form of a secret. */
export type Variant = (typeof ECHOED_VARIANTS)[number];

/**
 * A secret in one of its forms.
 * @param secret - the secret
 * @param variant - the form
 * @returns the text
 */
export function variantOf(secret: string, variant: Variant): string {
  switch (variant) {
    case 'exact':
      return secret;
    case 'upper':
      return secret.toUpperCase();
    case 'lower':
      return secret.toLowerCase();
    case 'base64':
      return Buffer.from(secret, 'utf8').toString('base64');
    case 'base64url':
      return Buffer.from(secret, 'utf8').toString('base64url');
    case 'json':
      return JSON.stringify(secret).slice(1, -1);
    case 'percent':
      return encodeURIComponent(secret);
    case 'html':
      return htmlEscape(secret);
  }
}

/** The five characters HTML escapes, as the test (not the kit) writes them. */
export function htmlEscape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** Secrets that are markup, quoted, or plain: always 12 characters or more, with a random alphanumeric tail. */
export const secretArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('<p class="comment">', '</testcase>', '"q\'\\', '<script>', ']]><!--', 'it\'s"a&b', 'sk_live_'),
    fc.stringMatching(/^[A-Za-z0-9]{10,14}$/),
  )
  .map(([head, tail]) => `${head}${tail}`);

/** A piece of a field: hostile text, or a secret in one of its forms. */
export type Piece = { readonly lit: string } | { readonly secret: number; readonly variant: Variant };
/** A field's value: its pieces, joined. */
export type Field = readonly Piece[];

const litPiece = hostileText.map((lit): Piece => ({ lit }));
const secretPiece = fc.record({ secret: fc.nat(1), variant: fc.constantFrom(...ECHOED_VARIANTS) });

/** A field of hostile text that may hold a secret (an implementation's answer, a log line). */
export const fieldArb: fc.Arbitrary<Field> = fc.array(fc.oneof({ weight: 3, arbitrary: litPiece }, secretPiece), {
  minLength: 1,
  maxLength: 3,
});
/** A field of hostile text with no secret in it (a name, a comment of a vector file). */
export const textArb: fc.Arbitrary<Field> = fc.array(litPiece, { minLength: 1, maxLength: 2 });

/** What the property generates: every field an implementation, a vector folder or a file from elsewhere sets. */
export interface AttackData {
  readonly secrets: readonly [string, string];
  readonly name: Field;
  readonly version: Field;
  readonly language: Field;
  readonly runName: Field;
  /** Case ids: the vector schema's grammar, or any text (a shard or results.json from elsewhere). */
  readonly ids: readonly Field[];
  readonly comment: Field;
  readonly file: Field;
  readonly message: Field;
  readonly reason: Field;
  readonly got: Field;
  readonly errorMessage: Field;
  readonly diagnosis: Field;
  readonly listedReason: Field;
  readonly stderr: readonly Field[];
  readonly stale: Field;
  readonly unknownOp: Field;
  readonly counterexample: Field;
  readonly selection: Field;
  readonly contentExpected: Field;
  readonly contentGot: Field;
  /** The HTTP request the kit sent (a gateway or merchant role's record). */
  readonly sent: {
    readonly method: 'GET' | 'POST' | 'PUT';
    readonly query: Field;
    readonly headerValue: Field;
    readonly body: Field;
  };
  /** The testee's own answer that claims to be a request (must never be printed as a command). */
  readonly forged: Field;
  readonly target: { readonly kind: 'testee' | 'module' | 'gateway'; readonly command: Field };
  readonly aborted: false | { readonly message: Field; readonly command: Field; readonly stderr: readonly Field[] };
}

const caseId = fc.oneof(
  fc
    .stringMatching(/^(signature|request|webhook)(\.[a-z0-9]{1,6}(-[a-z0-9]{1,4})?){1,2}$/)
    .map((s): Field => [{ lit: s }]),
  textArb,
);

/** Every field of a run, generated. */
export const attackArb: fc.Arbitrary<AttackData> = fc
  .record({
    secrets: fc
      .tuple(secretArb, secretArb)
      .filter(([a, b]) => !a.toLowerCase().includes(b.toLowerCase()) && !b.toLowerCase().includes(a.toLowerCase())),
    name: textArb,
    version: textArb,
    language: textArb,
    runName: textArb,
    ids: fc.array(caseId, { minLength: 7, maxLength: 7 }),
    comment: textArb,
    file: textArb,
    message: fieldArb,
    reason: fieldArb,
    got: fieldArb,
    errorMessage: fieldArb,
    diagnosis: fieldArb,
    listedReason: fieldArb,
    stderr: fc.array(fieldArb, { minLength: 1, maxLength: 3 }),
    stale: textArb,
    unknownOp: textArb,
    counterexample: fieldArb,
    selection: textArb,
    contentExpected: fieldArb,
    contentGot: fieldArb,
    sent: fc.record({
      method: fc.constantFrom('GET' as const, 'POST' as const, 'PUT' as const),
      query: textArb,
      headerValue: textArb,
      body: textArb,
    }),
    forged: textArb,
    target: fc.record({
      kind: fc.constantFrom('testee' as const, 'module' as const, 'gateway' as const),
      command: textArb,
    }),
    aborted: fc.oneof(
      { weight: 4, arbitrary: fc.constant(false as const) },
      fc.record({ message: fieldArb, command: textArb, stderr: fc.array(fieldArb, { minLength: 1, maxLength: 3 }) }),
    ),
  })
  .filter((d) => commandTexts(d).every((t) => d.secrets.every((s) => !holdsFragment(t, s))));

/**
 * Whether a text holds 8 characters of a secret, ASCII case ignored: what the kit's masker masks as part of a secret
 * (src/reports/redact.ts), rightly. A printed command with such a text cannot be both exact and masked, so the
 * property's commands are made of texts that hold none.
 */
export function holdsFragment(text: string, secret: string): boolean {
  const t = text.toLowerCase();
  const s = secret.toLowerCase();
  for (let i = 0; i + 8 <= s.length; i++) if (t.includes(s.slice(i, i + 8))) return true;
  return false;
}

/** The texts a printed command carries: the case ids, the target, the kit's request. */
export function commandTexts(d: AttackData): string[] {
  const w = new World('hostile', d.secrets);
  return [...d.ids, d.target.command, d.sent.query, d.sent.headerValue, d.sent.body].map((f) => w.text(f));
}

/** One of the two worlds a run is rendered in. */
export class World {
  readonly #tokens = new Map<string, string>();
  /** The world's secrets: the generated ones, or plain ones of the same count. */
  readonly secrets: readonly string[];

  /**
   * @param kind - `hostile`: texts as generated; `plain`: each distinct text a token of its own
   * @param secrets - the generated secrets
   */
  constructor(
    readonly kind: 'hostile' | 'plain',
    secrets: readonly string[],
  ) {
    this.secrets =
      kind === 'hostile'
        ? secrets
        : secrets.map((s, i) => `Sq${i}${createHash('sha256').update(s).digest('hex').slice(0, 14)}Pl`);
  }

  /** A text as this world writes it. */
  lit(text: string): string {
    if (this.kind === 'hostile') return text;
    let token = this.#tokens.get(text);
    if (token === undefined) {
      // letters only: the triage reads digits as numbers (`N`)
      token = `Kx${letters(this.#tokens.size)}Tk`;
      this.#tokens.set(text, token);
    }
    return token;
  }

  /** A field as this world writes it. */
  text(field: Field): string {
    return field
      .map((p) => ('lit' in p ? this.lit(p.lit) : variantOf(this.secrets[p.secret] ?? '', p.variant)))
      .join('');
  }
}

/** What matches a plain world's token in a rendered text. */
export const TOKEN = /Kx[a-z]+Tk/;

function letters(n: number): string {
  let out = '';
  for (let k = n; ; k = Math.floor(k / 26) - 1) {
    out = String.fromCharCode(97 + (k % 26)) + out;
    if (k < 26) return out;
  }
}

/** A request the kit sent, as a role records it. */
export interface SentRecord {
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  readonly body: string;
}

/** The kit's request of a data set in a world (header values without CR, LF, NUL: no HTTP client sends those). */
export function sentRecord(d: AttackData, w: World): SentRecord {
  const url = new URL(
    `http://127.0.0.1:8080/pg/v2/payment/create?ref=${encodeURIComponent(wellFormed(w.text(d.sent.query)))}`,
  );
  return {
    method: d.sent.method,
    url: url.href,
    headers: [
      ['Content-Type', 'application/json'],
      [
        'X-Merchant-Ref',
        w
          .text(d.sent.headerValue)
          .replace(/[\r\n\0]/g, '')
          .trim() || 'ref',
      ],
      ['Content-Length', '12'],
    ],
    body: JSON.stringify({ merchantTradeNo: w.text(d.sent.body) }),
  };
}

/** A text as UTF-8 can hold it (a lone surrogate as U+FFFD). */
const wellFormed = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

/** A text an argv can hold: no NUL, no lone surrogate. */
const argvText = (text: string): string => wellFormed(text).replace(/\0/g, '');

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

function op(o: Partial<OpResult> & Pick<OpResult, 'op' | 'status'>): OpResult {
  return { expected: null, got: null, message: '', durationMs: 2, ...o };
}

/**
 * The run of a data set in a world: a failed signature case (contents, a diagnosis), an error (a crashed testee's
 * reason and input), an expected failure (a listed reason), a skipped case, a gateway role's failed case (a request
 * the kit sent, the gateway's errorMessage), a testee's answer that forges a request, a failed property (a replay,
 * a counterexample); or a run whose testee never started (its stderr). Each failing step's message starts with words of
 * its own, so that the triage (which groups cases by their step's message, its particulars aside) groups the cases of
 * both worlds alike.
 * @param d - the data
 * @param w - the world
 * @returns the run and its secrets
 */
export function attackRun(d: AttackData, w: World): RunResult {
  const t = (f: Field): string => w.text(f);
  // a NUL or a lone surrogate cannot be in an argv: an id or a command with one could never have been given on a
  // command line, and no printed command can be exact for it (a shard or results.json that holds one is refused)
  const id = (i: number): string => argvText(`${t(d.ids[i] ?? [])}${i}`);
  const secret = w.secrets[0] ?? '';
  const expected = `app_1\n${secret}\nPOST\n${t(d.contentExpected)}\n`;
  const got = `app_1\n${secret}\nPOST\n${t(d.contentGot)}`;
  const base = {
    file: t(d.file),
    comment: t(d.comment),
    spec: ['5.1'],
    readings: [],
    flags: [],
    result: 'valid' as const,
    durationMs: 3,
  };
  const cases: CaseResult[] = [
    {
      ...base,
      id: id(0),
      kind: 'signature',
      verdict: 'failed',
      status: 'fail',
      message: `content differs: ${t(d.message)}`,
      ops: [
        op({
          op: 'signature.content',
          status: 'fail',
          expected: b64(expected),
          got: { result: { contentB64: b64(got) } },
          message: `the content differs: ${t(d.message)}`,
          diagnosis: [{ mistake: 'no-final-lf', message: t(d.diagnosis), ref: '§5.1' }],
        }),
        op({
          op: 'signature.sign',
          status: 'fail',
          expected: 'ab'.repeat(32),
          got: { result: { sign: t(d.got) } },
          message: `the sign differs: ${t(d.message)}`,
        }),
      ],
    },
    {
      ...base,
      id: id(1),
      kind: 'request',
      verdict: 'error',
      status: 'error',
      message: t(d.reason),
      ops: [
        op({
          op: 'request.verify',
          status: 'error',
          expected: 'accept',
          got: { failed: { reason: t(d.reason) } },
          input: { appSecret: secret, bodyB64: b64(t(d.got)), note: t(d.got) },
          message: t(d.reason),
        }),
      ],
    },
    {
      ...base,
      id: id(2),
      kind: 'webhook',
      verdict: 'expected-failure',
      status: 'fail',
      listedReason: t(d.listedReason),
      message: t(d.message),
      ops: [op({ op: 'webhook.verify', status: 'fail', expected: 'accept', got: { result: { valid: false } } })],
    },
    {
      ...base,
      id: id(3),
      kind: 'upload',
      verdict: 'skipped',
      status: 'skip',
      message: `unsupported: ${t(d.reason)}`,
      ops: [
        op({
          op: 'upload.form',
          status: 'skip',
          got: { unsupported: { reason: t(d.reason) } },
          message: `unsupported: ${t(d.reason)}`,
        }),
      ],
    },
    {
      ...base,
      id: id(4),
      kind: 'gateway',
      verdict: 'failed',
      status: 'fail',
      message: `the gateway refused a valid request: ${t(d.errorMessage)}`,
      ops: [
        op({
          op: 'gateway.createPayment',
          status: 'fail',
          expected: 'accept',
          got: {
            result: {
              sent: sentRecord(d, w) as unknown as Json,
              status: 400,
              body: { code: 'BAD', errorMessage: t(d.errorMessage) },
            },
          },
          message: `the gateway refused: ${t(d.errorMessage)}`,
        }),
      ],
    },
    {
      ...base,
      id: id(5),
      kind: 'request',
      verdict: 'failed',
      status: 'fail',
      message: `refused, but the case is valid: ${t(d.message)}`,
      ops: [
        op({
          op: 'request.verify',
          status: 'fail',
          expected: 'accept',
          // a testee's answer claiming a request: never a command in any report
          got: { result: { valid: false, sent: { method: `GET;${t(d.forged)}`, url: 'http://x/', headers: [] } } },
          message: `the verifier refused: ${t(d.message)}`,
        }),
      ],
    },
    {
      ...base,
      id: id(6),
      kind: 'property',
      verdict: 'failed',
      status: 'fail',
      message: `signature.sign: property failed: ${t(d.message)}`,
      property: { seed: 42, runs: 3, replay: '42:3:0', shrinks: 2, counterexample: { input: t(d.counterexample) } },
      ops: [
        op({
          op: 'signature.sign',
          status: 'fail',
          got: { result: { sign: t(d.got) } },
          message: `the property failed: ${t(d.message)}`,
        }),
      ],
    },
  ];

  // (and never empty: no run is made with an empty command)
  const command = argvText(t(d.target.command)) || 'node';
  const target =
    d.target.kind === 'gateway'
      ? { kind: 'gateway' as const, description: `http://127.0.0.1:8080/${encodeURIComponent(wellFormed(command))}` }
      : { kind: d.target.kind, description: command };
  const common = {
    runName: t(d.runName),
    kit: { name: 'pgv2kit', version: '0.1.0' },
    vectorSetHash: 'c0ffee'.repeat(10) + 'abcd',
    implementation: { name: t(d.name), version: t(d.version), language: t(d.language) },
    target,
    startedAt: '2024-06-11T08:00:00.000Z',
    finishedAt: '2024-06-11T08:00:01.234Z',
    durationMs: 1234,
    selection: { only: [t(d.selection)], skip: [] },
    log: d.stderr.map((l) => `testee stderr: ${t(l)}`),
    staleListEntries: [t(d.stale)],
  };
  if (d.aborted)
    return {
      ...common,
      cases: [],
      totals: countedTotals([]),
      aborted: {
        kind: 'testee-start',
        message: t(d.aborted.message),
        command: t(d.aborted.command),
        exitCode: 1,
        signal: null,
        ended: 'exited with code 1',
        stderrTail: d.aborted.stderr.map(t),
      },
    };
  const totals = countedTotals(cases);
  const offered = [...new Set(cases.flatMap((c) => c.ops.map((o) => o.op)))] as Operation[];
  return {
    ...common,
    cases,
    totals,
    offered,
    operations: operationCoverage(cases, offered),
    unknownOperations: [unknownOperation(t(d.unknownOp), 'the testee')],
  };
}
