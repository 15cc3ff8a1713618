import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, type RunOptions, type RunResult } from './_run.js';

// The values of one request, and its signature content written out by hand (spec §5.1).
const APP = 'app_9f2c';
const SECRET = 'sk_test_Zq81Xw3Lp0Vb7NcR';
const OTHER_SECRET = 'sk_env_Qm4Tt7Yy2Kk9Hh3w';
const MASK = `sk${'*'.repeat(22)} (24 chars)`;
const URL_ = 'https://pg.example.com/pg/v2/file/generateUploadUrl';
const TS = '1717171717000';
const NONCE = 'n-1';
const BODY = '{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}';
const CONTENT =
  'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n';

const sha256 = (content: string | Buffer): string => createHash('sha256').update(content).digest('hex');
const SIGN = sha256(CONTENT);
const header = (sign: string, rest = `timestamp=${TS},nonce=${NONCE}`): string =>
  `V2_SHA256 appId=${APP},sign=${sign},${rest}`;
const BASE = ['--app-id', APP, '--method', 'POST', '--url', URL_];

/** Every output of every explain run, for the final check that the secret never shows. */
const outputs: RunResult[] = [];
let dir: string;

async function explain(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const r = await run(['explain', ...argv], { env: { PGV2_APP_SECRET: SECRET }, cwd: dir, ...options });
  outputs.push(r);
  return r;
}

function bodyFile(name: string, bytes: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pgv2kit-explain-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('pgv2kit explain', () => {
  it('shows the content part by part with every LF, the secret masked, the length and the sign', async () => {
    const r = await explain([...BASE, '--body', BODY, '--timestamp', TS, '--nonce', NONCE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(
      [
        '  1 appId      │app_9f2c⏎',
        `  2 appSecret  │«${MASK}, masked»⏎`,
        '  3 method     │POST⏎',
        '  4 url        │https://pg.example.com/pg/v2/file/generateUploadUrl⏎',
        '  5 timestamp  │1717171717000⏎',
        '  6 nonce      │n-1⏎',
        '  7 body       │{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}⏎',
        '',
        `content  ${Buffer.byteLength(CONTENT)} bytes`,
        `sign     ${SIGN}  (SHA-256 of the content, lower-case hex, spec §5.2)`,
        `header   Authorization: V2_SHA256 appId=app_9f2c,sign=${SIGN},timestamp=1717171717000,nonce=n-1`,
        '',
        'No --authorization given: compare the sign above with the one the signer sent.',
      ].join('\n'),
    );
    expect(r.stdout).not.toContain('Notes');
  });

  it('--secret works as the environment variable does, and wins over it', async () => {
    const r = await explain([...BASE, '--secret', SECRET, '--body', BODY, '--timestamp', TS, '--nonce', NONCE], {
      env: { PGV2_APP_SECRET: OTHER_SECRET },
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`sign     ${SIGN}`);
    const onlyOption = await explain(
      [...BASE, `--secret=${SECRET}`, '--body', BODY, '--timestamp', TS, '--nonce', NONCE],
      { env: {} },
    );
    expect(onlyOption.stdout).toBe(r.stdout);
  });

  it('MATCH: timestamp and nonce come from the header (R6), in any item order; exit 0', async () => {
    for (const h of [header(SIGN), `V2_SHA256 nonce=${NONCE},timestamp=${TS},sign=${SIGN},appId=${APP}`]) {
      const r = await explain([...BASE, '--body', BODY, '--authorization', h]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain(
        '  5 timestamp  │1717171717000⏎   (from the Authorization header, R6)\n  6 nonce      │n-1⏎             (from the Authorization header, R6)\n',
      );
      expect(r.stdout).toContain(`  header sign    ${SIGN}\n  computed sign  ${SIGN}\n`);
      expect(r.stdout).toContain('  appId          app_9f2c (the same as --app-id)\n');
      expect(r.stdout.endsWith("\nMATCH: the header's sign is the SHA-256 of the content above.\n")).toBe(true);
      expect(r.stdout).not.toMatch(/^header {3}Authorization:/m);
    }
  });

  it('MISMATCH: the header sign beside the computed one, exit 1', async () => {
    const other = sha256(CONTENT.replace('a.pdf', 'b.pdf'));
    const r = await explain([...BASE, '--body', BODY, '--authorization', header(other)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  header sign    ${other}\n  computed sign  ${SIGN}\n`);
    expect(r.stdout).toContain(
      "MISMATCH: the header's sign is not the SHA-256 of the content above.\nNo known mistake reproduces the header's sign: compare each part above, byte by byte, with what the signer used (the secret too: its length is shown).\n",
    );
  });

  describe('names the known mistake that reproduces the header sign', () => {
    const latin1Body = '{"name":"Zoë"}';
    it.each([
      [
        'no-final-lf',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}',
      ],
      [
        'extra-final-lf',
        `${BODY}\n`,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n\n\n',
      ],
      [
        'crlf-separators',
        BODY,
        'app_9f2c\r\nsk_test_Zq81Xw3Lp0Vb7NcR\r\nPOST\r\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\r\n1717171717000\r\nn-1\r\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\r\n',
      ],
      [
        'secret-left-out',
        BODY,
        'app_9f2c\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n',
      ],
      [
        'timestamp-nonce-swapped',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\nn-1\n1717171717000\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n',
      ],
      [
        'method-lower-case',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\npost\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n',
      ],
      [
        'url-path-only',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\n/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n',
      ],
      [
        'empty-body',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n\n',
      ],
      [
        'body-part-left-out',
        BODY,
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n',
      ],
      ['body-reserialized', '{"filename": "a.pdf", "scene": "DISPUTE_EVIDENCE"}', CONTENT],
      [
        'body-crlf-to-lf',
        'line one\r\nline two',
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\nline one\nline two\n',
      ],
      ['body-bom-dropped', `\ufeff${BODY}`, CONTENT],
      [
        'body-nfc',
        '{"name":"Zoe\u0308"}',
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"name":"Zo\u00eb"}\n',
      ],
    ])('%s', async (id, body, wrongContent) => {
      const r = await explain([
        ...BASE,
        '--body-file',
        bodyFile(`${id}.body`, body),
        '--authorization',
        header(sha256(wrongContent)),
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        "MISMATCH: the header's sign is not the SHA-256 of the content above.\nThe header's sign is what a signer gets with ",
      );
      expect(r.stdout).toMatch(new RegExp(`^  - .*; ${id}\\)$`, 'm'));
    });

    it('latin1', async () => {
      const wrong = Buffer.from(
        `app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n${latin1Body}\n`,
        'latin1',
      );
      const r = await explain([...BASE, '--body', latin1Body, '--authorization', header(sha256(wrong))]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('  - the content was encoded as Latin-1 instead of UTF-8 (§5.2, R3; latin1)\n');
    });

    it('url-without-query', async () => {
      const url = `${URL_}?b=2&a=1`;
      const wrong =
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nGET\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n\n';
      const r = await explain([
        '--app-id',
        APP,
        '--method',
        'GET',
        '--url',
        url,
        '--authorization',
        header(sha256(wrong)),
      ]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('  - part 4 was the URL without its query string (R4; url-without-query)\n');
    });
  });

  it('hex-unpadded: a sign of 61 digits, the right digest with its bytes 05, 05 and 0e written as one digit each', async () => {
    // nonce n-0: the content's digest, worked out with node:crypto, and written unpadded by hand
    expect(sha256(CONTENT.replace('\nn-1\n', '\nn-0\n'))).toBe(
      '34717b14a3bb056437daa9b60565518ba0bfc5e80ec69ba3d8f5a4e247f65e18',
    );
    const unpadded = '34717b14a3bb56437daa9b6565518ba0bfc5e8ec69ba3d8f5a4e247f65e18';
    expect(unpadded).toHaveLength(61);
    const r = await explain([
      ...BASE,
      '--body',
      BODY,
      '--authorization',
      header(unpadded, `timestamp=${TS},nonce=n-0`),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("the header's sign has 61 characters, not 64 hex digits");
    expect(r.stdout).toContain(
      '  - each byte of the digest below 0x10 was written as one hex digit, without its leading zero (fewer than 64 digits) (§5.2; hex-unpadded)\n',
    );
  });

  it('the right digest in upper-case hex: MISMATCH with the R7 note, exit 1', async () => {
    const r = await explain([...BASE, '--body', BODY, '--authorization', header(SIGN.toUpperCase())]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "  - §5.2, R7: the header's sign is the right digest in upper-case hex: signers must emit lower case; a verifier may refuse it\n",
    );
    expect(r.stdout).toContain('MISMATCH: the sign is the right digest, but in upper-case hex (R7).\n');
    expect(r.stdout).not.toContain('mistake');
  });

  it('an appId in the header that is not --app-id: MISMATCH naming both, exit 1', async () => {
    const r = await explain([
      ...BASE,
      '--body',
      BODY,
      '--authorization',
      `V2_SHA256 appId=app_other,sign=${SIGN},timestamp=${TS},nonce=${NONCE}`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('  appId          app_other (NOT the --app-id given)\n');
    expect(r.stdout).toContain(
      '  - §5.3, R9: the header\'s appId "app_other" is not --app-id "app_9f2c": a verifier refuses the header before comparing signs\n',
    );
    expect(r.stdout).toContain("MISMATCH: the header's appId is not --app-id.\n");
  });

  it('a wrong sign in upper-case hex: the R7 note, and the mistakes still found', async () => {
    const wrong = sha256(CONTENT.slice(0, -1)).toUpperCase();
    const r = await explain([...BASE, '--body', BODY, '--authorization', header(wrong)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("  - §5.2, R7: the header's sign is in upper-case hex: signers emit lower case\n");
    expect(r.stdout).toContain("MISMATCH: the header's sign is not the SHA-256 of the content above.\n");
    expect(r.stdout).toContain('(§5.1, R1; no-final-lf)');
  });

  it('another appId and another sign: both named', async () => {
    const r = await explain([
      ...BASE,
      '--body',
      BODY,
      '--authorization',
      `V2_SHA256 appId=app_x,sign=${'1'.repeat(64)},timestamp=${TS},nonce=${NONCE}`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      "MISMATCH: the header's appId is not --app-id; the header's sign is not the SHA-256 of the content above.\n",
    );
  });

  it('a URL that is not a full URL: the R4 note, signed as given', async () => {
    const content = 'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\n/pg/v2/x\n1717171717000\nn-1\n\n';
    const r = await explain([
      '--app-id',
      APP,
      '--method',
      'POST',
      '--url',
      '/pg/v2/x',
      '--authorization',
      header(sha256(content.replace('POST', 'GET'))),
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`sign     ${sha256(content)}`);
    expect(r.stdout).toContain(
      '  - R4: the URL is not a full URL (scheme://host[:port]/path[?query]) as the request was sent\n',
    );
    expect(r.stdout).toContain('No known mistake reproduces');
  });

  it.each([
    ['wrong length', 'abc123', "the header's sign has 6 characters, not 64 hex digits"],
    ['not hex', 'g'.repeat(64), "the header's sign has a character that is not a hex digit"],
  ])('a sign that is not a sign (%s): note and MISMATCH, exit 1', async (_, sign, note) => {
    const r = await explain([...BASE, '--body', BODY, '--authorization', header(sign)]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`  - §5.2: ${note}\n`);
    expect(r.stdout).toContain("MISMATCH: the header's sign is not the SHA-256 of the content above.\n");
  });

  it.each([
    [`V2_SHA256 appId=${APP},sign=${SIGN},timestamp=${TS}`, 'item nonce is missing'],
    [`HMAC appId=${APP},sign=${SIGN},timestamp=${TS},nonce=${NONCE}`, 'scheme "HMAC" is not V2_SHA256'],
    [
      `V2_SHA256 appId=${APP},appId=${APP},sign=${SIGN},timestamp=${TS},nonce=${NONCE}`,
      'item appId appears more than once',
    ],
    [`V2_SHA256 appId=${APP},sign=,timestamp=${TS},nonce=${NONCE}`, 'item sign has an empty value'],
    ['V2_SHA256', 'no items follow V2_SHA256'],
    ['  ', 'the Authorization header is empty'],
  ])('a header the parser refuses (%s): the problem, exit 1', async (h, message) => {
    const r = await explain([...BASE, '--body', BODY, '--authorization', h]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`\nREFUSED: the Authorization header cannot be parsed: ${message}\n`);
    expect(r.stdout).not.toContain('1 appId');
  });

  it('tolerated white space and extra items (R8): MATCH with notes', async () => {
    const r = await explain([
      ...BASE,
      '--body',
      BODY,
      '--authorization',
      `V2_SHA256 appId=${APP}, sign=${SIGN},timestamp=${TS},nonce=${NONCE},v=2`,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  extra item     v=2\n');
    expect(r.stdout).toContain(
      '  - R8: the header has white space around its items: a verifier may accept or refuse it\n',
    );
    expect(r.stdout).toContain(
      '  - R8: the header has items other than appId, sign, timestamp, nonce: a verifier may ignore or refuse them\n',
    );
  });

  it('a body with CR, tab, BOM, NUL, non-ASCII and non-UTF-8 bytes: nothing hidden, signed as read', async () => {
    const body = Buffer.concat([
      Buffer.from('\ufeff{"name":"Zoë",\r\n"tab":"a\tb","nul":"\u0000","raw":"', 'utf8'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","mark":"e\u0301"}', 'utf8'),
    ]);
    const content = Buffer.concat([
      Buffer.from(
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n',
      ),
      body,
      Buffer.from('\n'),
    ]);
    const r = await explain([
      ...BASE,
      '--body-file',
      bodyFile('mixed.body', body),
      '--authorization',
      header(sha256(content)),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '  7 body       │\\uFEFF{"name":"Zoë",\\r⏎\n               │"tab":"a\\tb","nul":"\\x00","raw":"\\xFF\\xFE","mark":"e\\u0301"}⏎\n',
    );
    expect(r.stdout).toContain(`content  ${content.byteLength} bytes`);
    for (const note of [
      '  - the body holds 1 LF of its own, shown ⏎ like the others and signed\n',
      '  - R3: the body holds 1 CR (\\r), all in CR LF line ends: signed as they are, no line-end conversion\n',
      '  - R3: the body holds 1 tab (\\t), signed as they are\n',
      '  - R3: the body starts with a BOM (\\uFEFF, bytes EF BB BF): it is kept and signed\n',
      '  - R3: the body holds 1 other control character (shown \\xNN)\n',
      '  - R3: the body holds 3 non-ASCII characters taking 7 bytes in UTF-8: lengths in bytes and in characters differ\n',
      '  - R3: the body holds 1 invisible or combining character (shown \\uXXXX): Unicode normalisation would change the bytes\n',
      '  - R3: the body holds 2 bytes that are not valid UTF-8 (shown \\xNN): signed as they are\n',
    ]) {
      expect(r.stdout).toContain(note);
    }
  });

  it('a body ending in LF: its own LF, then the LF of part 7 (R1)', async () => {
    const content =
      'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"a":1}\n\n';
    const r = await explain([
      ...BASE,
      '--body-file',
      bodyFile('lf.body', '{"a":1}\n'),
      '--timestamp',
      TS,
      '--nonce',
      NONCE,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  7 body       │{"a":1}⏎\n               │⏎\n');
    expect(r.stdout).toContain(`sign     ${sha256(content)}`);
    expect(r.stdout).toContain(
      '  - R1: the body ends in LF: part 7 is still followed by one LF, so the content ends in two LFs, never three\n',
    );
  });

  it('no body: part 7 empty, still followed by LF (R2)', async () => {
    const content =
      'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nGET\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n\n';
    const r = await explain(['--app-id', APP, '--method', 'GET', '--url', URL_, '--timestamp', TS, '--nonce', NONCE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  7 body       │⏎\n');
    expect(r.stdout).toContain(`content  ${Buffer.byteLength(content)} bytes\nsign     ${sha256(content)}`);
    expect(r.stdout).toContain(
      '  - R2: the body is empty (no --body or --body-file): part 7 is the empty string, still followed by LF (the content ends in two LFs)\n',
    );
  });

  it('--body-file - reads standard input, byte for byte', async () => {
    const body = Buffer.from([0x7b, 0x7d, 0x0d, 0x0a, 0xc3]);
    const content = Buffer.concat([
      Buffer.from(
        'app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n',
      ),
      body,
      Buffer.from('\n'),
    ]);
    const r = await explain([...BASE, '--body-file', '-', '--timestamp', TS, '--nonce', NONCE], { stdin: body });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  7 body       │{}\\r⏎\n               │\\xC3⏎\n');
    expect(r.stdout).toContain(`sign     ${sha256(content)}`);
  });

  it('notes on the other parts: method case (R5), URL fragment (R4), seconds, a comma in the nonce, white space around the secret', async () => {
    const r = await explain(
      ['--app-id', APP, '--method', 'post', '--url', `${URL_}#top`, '--timestamp', '1717171717', '--nonce', 'a,b'],
      {
        env: { PGV2_APP_SECRET: ` ${SECRET}` },
      },
    );
    expect(r.code).toBe(0);
    for (const note of [
      '  - R5: the method is not in upper case: it is signed as sent on the wire, where it is upper case\n',
      '  - R4: the URL has a fragment (#…): a fragment is never sent, so it is never signed\n',
      '  - §5.1: the timestamp looks like seconds: the spec asks for milliseconds (13 digits today)\n',
      '  - R8: the nonce contains a comma, which ends an item of the Authorization header\n',
      '  - R3: part 2 (appSecret) starts or ends with white space, which is signed (often a copy-paste mistake)\n',
      '  - R8: no Authorization header can carry these values: item nonce must be a non-empty string without a comma (R8)\n',
    ]) {
      expect(r.stdout).toContain(note);
    }
    expect(r.stdout).not.toMatch(/^header {3}/m);
  });

  it('a body that holds the secret is masked in the display too', async () => {
    const body = `{"oops":"${SECRET}"}`;
    const r = await explain([...BASE, '--body', body, '--timestamp', TS, '--nonce', NONCE]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`  7 body       │{"oops":"${MASK}"}⏎\n`);
  });

  describe('--json', () => {
    it('gives the parts, the masked content display and the sign; never the content bytes', async () => {
      const r = await explain([...BASE, '--body', BODY, '--authorization', header(SIGN), '--json']);
      expect(r.code).toBe(0);
      const x = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(x).toMatchObject({
        verdict: 'match',
        contentBytes: Buffer.byteLength(CONTENT),
        sign: SIGN,
        contentDisplay: `app_9f2c\n${MASK}\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n{"filename":"a.pdf","scene":"DISPUTE_EVIDENCE"}\n`,
        authorization: {
          ok: true,
          items: { appId: APP, sign: SIGN, timestamp: TS, nonce: NONCE },
          tolerated: [],
          extra: {},
        },
        comparison: {
          headerSign: SIGN,
          computedSign: SIGN,
          appIdMatches: true,
          signForm: 'lower-hex',
          sameDigest: true,
        },
        mistakes: [],
        notes: [],
      });
      expect((x['parts'] as unknown[])[1]).toEqual({
        index: 2,
        name: 'appSecret',
        display: MASK,
        bytes: 24,
        masked: true,
      });
      expect((x['parts'] as unknown[])[4]).toEqual({
        index: 5,
        name: 'timestamp',
        display: TS,
        bytes: 13,
        fromHeader: true,
      });
      expect(r.stdout).not.toContain(Buffer.from(CONTENT).toString('base64').slice(0, 40));
    });

    it('a mismatch lists the mistakes; a refused header its problem; exit 1', async () => {
      const wrong = sha256(CONTENT.slice(0, -1));
      const m = JSON.parse(
        (await explain([...BASE, '--body', BODY, '--authorization', header(wrong), '--json'])).stdout,
      ) as Record<string, unknown>;
      expect(m).toMatchObject({
        verdict: 'mismatch',
        comparison: { headerSign: wrong, computedSign: SIGN, sameDigest: false },
        mistakes: [{ id: 'no-final-lf' }],
      });
      const refused = await explain([...BASE, '--body', BODY, '--authorization', 'V2_SHA256 appId=a', '--json']);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout)).toEqual({
        verdict: 'refused',
        authorization: {
          ok: false,
          header: 'V2_SHA256 appId=a',
          problem: { kind: 'missing-item', item: 'sign' },
          message: 'item sign is missing',
        },
        notes: [],
      });
    });

    it('without a header: the header a correct signer sends', async () => {
      const x = JSON.parse(
        (await explain([...BASE, '--body', BODY, '--timestamp', TS, '--nonce', NONCE, '--json'])).stdout,
      ) as Record<string, unknown>;
      expect(x['verdict']).toBe('no-header');
      expect(x['expectedHeader']).toBe(header(SIGN));
    });
  });

  it('a mismatch, shown in full (golden)', async () => {
    const body = '\ufeff{"name":"Zoë",\r\n"note":"tab\there"}\n';
    const wrong = sha256(
      `app_9f2c\nsk_test_Zq81Xw3Lp0Vb7NcR\nPOST\nhttps://pg.example.com/pg/v2/file/generateUploadUrl\n1717171717000\nn-1\n${body}`,
    );
    const r = await explain([
      ...BASE,
      '--body-file',
      bodyFile('golden.body', body),
      '--authorization',
      `V2_SHA256 nonce=${NONCE}, appId=${APP},sign=${wrong},timestamp=${TS}`,
    ]);
    expect(r.code).toBe(1);
    await expect(r.stdout).toMatchFileSnapshot('./__snapshots__/explain-mismatch.txt');
  });

  describe('usage errors: one line naming the problem, the help hint, exit 2', () => {
    it.each([
      [['--method', 'POST', '--url', URL_, '--timestamp', TS, '--nonce', NONCE], 'missing --app-id'],
      [['--app-id', APP, '--url', URL_, '--timestamp', TS, '--nonce', NONCE], 'missing --method'],
      [['--app-id', APP, '--method', 'POST', '--timestamp', TS, '--nonce', NONCE], 'missing --url'],
      [
        [...BASE, '--body', '{}', '--body-file', 'x.json', '--timestamp', TS, '--nonce', NONCE],
        'give --body or --body-file, not both',
      ],
      [
        [...BASE, '--authorization', header(SIGN), '--timestamp', TS],
        'give --authorization or --timestamp and --nonce, not both (the header carries timestamp and nonce, R6)',
      ],
      [[...BASE, '--timestamp', TS], 'missing --nonce'],
      [[...BASE, '--nonce', NONCE], 'missing --timestamp'],
      [[...BASE], 'give --authorization, or --timestamp and --nonce'],
      [
        [...BASE, '--body-file', 'nope.json', '--timestamp', TS, '--nonce', NONCE],
        'cannot read --body-file nope.json: no such file or folder',
      ],
      [
        [...BASE, '--body-file', '.', '--timestamp', TS, '--nonce', NONCE],
        'cannot read --body-file .: is a folder, not a file',
      ],
      [
        [...BASE, '--body-file', '-', '--timestamp', TS, '--nonce', NONCE],
        '--body-file -: standard input cannot be read here',
      ],
      [
        [...BASE, '--body-file', 'lf.body/x', '--timestamp', TS, '--nonce', NONCE],
        'cannot read --body-file lf.body/x: a part of the path is not a folder',
      ],
      [
        [...BASE, '--secret', SECRET, '--timestamp', TS, '--nonce', NONCE, '--nonce', 'again'],
        'option --nonce is given more than once',
      ],
      [
        [...BASE, '--json', SECRET, '--timestamp', TS, '--nonce', NONCE],
        'unexpected argument #8: this command takes no positional arguments (a value without its --option?)',
      ],
      [[...BASE, '--secret'], 'option --secret needs a value'],
    ])('%j', async (argv, message) => {
      const r = await explain(argv);
      expect({ code: r.code, stderr: r.stderr }).toEqual({
        code: 2,
        stderr: `pgv2kit explain: ${message}\nsee pgv2kit explain --help\n`,
      });
      // with --json asked for, stdout is the error as one JSON document (issue 25, item 5); else nothing
      if (argv.includes('--json'))
        expect(JSON.parse(r.stdout)).toMatchObject({ command: 'explain', exitCode: 2, error: { message } });
      else expect(r.stdout).toBe('');
    });

    it.each([[{}], [{ PGV2_APP_SECRET: '' }]])('no secret (env %j)', async (env) => {
      const r = await explain([...BASE, '--timestamp', TS, '--nonce', NONCE], { env });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: 'pgv2kit explain: no secret: set PGV2_APP_SECRET (or pass --secret)\nsee pgv2kit explain --help\n',
      });
    });
  });

  // Runs last: every output above, success or error, text or JSON.
  it('never prints the secret, in any output of any explain test above', () => {
    expect(outputs.length).toBeGreaterThan(50);
    const pieces = [SECRET, OTHER_SECRET, ...windows(SECRET.slice(2), 6), ...windows(OTHER_SECRET.slice(2), 6)];
    for (const { stdout, stderr } of outputs) {
      for (const piece of pieces) {
        expect(stdout).not.toContain(piece);
        expect(stderr).not.toContain(piece);
      }
    }
  });
});

function windows(text: string, size: number): string[] {
  return Array.from({ length: text.length - size + 1 }, (_, i) => text.slice(i, i + size));
}
