/**
 * The live session and `pgv2kit check <file.har>` (issue 26), in process: exchanges signed here with node:crypto
 * (never with the kit's signer), written to a HAR with HarWriter, checked by the CLI. A conformant HAR exits 0 and
 * results.json agrees exchange by exchange; a dropped final LF names `no-final-lf` on the terminal and in
 * results.json; a body the HAR does not hold byte-exact is not judged, and nothing judged exits 1 with a line saying
 * so; a secret in a body is masked in every output (traffic.har's entry marked not to be judged again); a hostile HAR
 * gives a report.html of the same elements as its plain twin and an inert terminal; a folder of the user's is refused.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarWriter, readHar } from '../../src/live/har.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import { LiveSession } from '../../src/live/session.js';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { sha } from '../diagnosis/_support.js';
import { checkHtml, checkSecrets, checkTerminal, htmlTexts } from '../reports/_support/attack-checks.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const temp = tempFolders('pgv2kit-session-');
const APP = 'app_live';
const SECRET = 'sk_live_session_secret_7f3a';
const env = { PGV2_APP_ID: APP, PGV2_APP_SECRET: SECRET };
const URL_ = 'http://127.0.0.1:8080/pg/v2/file/generateUploadUrl';
const BODY = '{"filename":"a.pdf","contentType":"application/pdf","scene":"DISPUTE_EVIDENCE"}';
const TS = '1700000000001';
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const content = (url: string, body: string, nonce: string): string =>
  `${APP}\n${SECRET}\nPOST\n${url}\n${TS}\n${nonce}\n${body}\n`;

/** A request signed here: `drop` leaves out the final LF (the no-final-lf mistake). */
function exchange(seq: number, o: { body?: string; drop?: boolean; url?: string; extra?: string[][] } = {}) {
  const body = o.body ?? BODY;
  const url = o.url ?? URL_;
  const nonce = `nonce-${seq}`;
  const signed = content(url, body, nonce);
  const sign = sha(o.drop ? signed.slice(0, -1) : signed);
  return {
    seq,
    startedAt: `2026-11-26T00:00:0${seq}.000Z`,
    kind: 'api',
    // a request the gateway must refuse is refused (any non-2xx, R16); a genuine one answered as 4.1 says
    response: o.drop
      ? { status: 401, headers: [], body: enc('{"code":"UNAUTHORIZED","errorMessage":"sign does not match"}') }
      : answer(url, seq),
    request: {
      method: 'POST',
      url,
      headers: [
        ['Content-Type', 'application/json'],
        ['Accept', 'application/json'],
        ['Authorization', `V2_SHA256 appId=${APP},sign=${sign},timestamp=${TS},nonce=${nonce}`],
        ...((o.extra ?? []) as Array<[string, string]>),
      ],
      body: enc(body),
    },
  } satisfies LiveExchange;
}

/** The gateway's genuine 200 to a credentials request, signed over the URL of the request it answers (R9). */
function answer(url: string, seq: number): NonNullable<LiveExchange['response']> {
  const data = {
    uploadUrl: 'https://upload.example/bucket',
    storageUri: `s3://bucket/evidence/${seq}.pdf`,
    uploadNo: `1700000000001-${seq}`,
    formFields: { key: `evidence/${seq}.pdf`, policy: 'UE9MSUNZ', 'Content-Type': 'application/pdf' },
    httpMethod: 'POST',
  };
  const text = JSON.stringify({ code: 'OK', errorMessage: null, data });
  const nonce = `gw-nonce-${seq}`;
  const sign = sha(content(url, text, nonce));
  return {
    status: 200,
    headers: [
      ['Content-Type', 'application/json'],
      ['Authorization', `V2_SHA256 appId=${APP},sign=${sign},timestamp=${TS},nonce=${nonce}`],
    ],
    body: enc(text),
  };
}

function har(exchanges: readonly LiveExchange[]): string {
  const file = join(temp(), 'traffic.har');
  const w = HarWriter.open(file);
  for (const ex of exchanges) w.append(ex);
  w.close();
  return file;
}

type Results = {
  verdict: string;
  exitCode: number;
  counts: Record<string, number>;
  nothingJudged?: string;
  exchanges: Array<{
    seq: number;
    verdict: string;
    masked?: boolean;
    reason?: string;
    findings: Array<{ mistake?: string; page?: string }>;
    request: { url: string; body: { text?: string } };
  }>;
};
const results = (dir: string): Results => JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Results;

describe('pgv2kit check <file.har>', () => {
  it('conformant exchanges: exit 0, one line each, results.json agrees; --json: one summary line', async () => {
    const file = har([exchange(1), exchange(2)]);
    const dir = join(temp(), 'out');
    const r = await run(['check', file, '--report-dir', dir, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      command: 'check',
      kind: 'live',
      verdict: 'conformant',
      counts: { exchanges: 2, conformant: 2, notConformant: 0, notJudged: 0 },
      exitCode: 0,
      reportsDir: dir,
    });
    expect(r.stderr).toMatch(/^#1 POST \/pg\/v2\/file\/generateUploadUrl → 200 {2}CONFORMANT$/m);
    expect(r.stderr).toMatch(/^#2 POST .* CONFORMANT$/m);
    const res = results(dir);
    expect(res.exchanges.map((e) => [e.seq, e.verdict, e.request.url, e.request.body.text])).toEqual([
      [1, 'conformant', URL_, BODY],
      [2, 'conformant', URL_, BODY],
    ]);
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'results.json', 'traffic.har']);
    // the session's HAR, checked again, gives the same verdicts (bytes kept exact)
    expect(readHar(join(dir, 'traffic.har')).exchanges.map((e) => e.request.body)).toEqual([enc(BODY), enc(BODY)]);
  });

  it('a request without its final LF: exit 1, the line and results.json name no-final-lf', async () => {
    const file = har([exchange(1), exchange(2, { drop: true })]);
    const dir = join(temp(), 'out');
    const r = await run(['check', file, '--report-dir', dir], { env });
    expect(r.code, r.stderr).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.startsWith('#2 '));
    expect(line).toMatch(/ NOT CONFORMANT {2}no-final-lf: .*\(docs\/mistakes\/no-final-lf\.md\)$/);
    const res = results(dir);
    expect(res.verdict).toBe('not conformant');
    expect(res.exchanges.map((e) => e.verdict)).toEqual(['conformant', 'not conformant']);
    expect(res.exchanges[1]?.findings.map((f) => [f.mistake, f.page])).toEqual([
      ['no-final-lf', 'docs/mistakes/no-final-lf.md'],
    ]);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('no-final-lf');
  });

  it('a body the HAR does not hold byte-exact is not judged; nothing judged is exit 1, said', async () => {
    const file = join(temp(), 'devtools.har');
    const entry = {
      startedDateTime: '2026-11-26T00:00:00Z',
      request: {
        method: 'POST',
        url: URL_,
        headers: [{ name: 'Authorization', value: 'V2_SHA256 appId=app_live,sign=00,timestamp=1,nonce=n' }],
        // devtools re-encoded it: the size says otherwise
        bodySize: BODY.length + 3,
        postData: { mimeType: 'application/json', text: BODY },
      },
      response: { status: 200, headers: [], content: { size: 0 } },
    };
    writeFileSync(file, JSON.stringify({ log: { version: '1.2', entries: [entry] } }));
    const dir = join(temp(), 'out');
    const r = await run(['check', file, '--report-dir', dir], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^#1 POST .* NOT JUDGED: the request body \(postData\.text\) is \d+ bytes/m);
    expect(r.stdout).toMatch(/^NOTHING JUDGED: none of the 1 exchanges could be judged/m);
    const res = results(dir);
    expect([res.verdict, res.exitCode, res.exchanges[0]?.verdict]).toEqual(['nothing judged', 1, 'not judged']);
    // an empty HAR: nothing judged too, never a silent 0
    const empty = await run(['check', har([]), '--report-dir', join(temp(), 'e')], { env });
    expect(empty.code).toBe(1);
    expect(empty.stdout).toMatch(/^NOTHING JUDGED: no exchange to judge$/m);
  });

  it("the demo merchant's appId stays readable: its published secret is not masked (it holds the appId)", async () => {
    const demo = exchange(1);
    const auth = `V2_SHA256 appId=pgv2kit-demo,sign=${'0'.repeat(64)},timestamp=${TS},nonce=n-1`;
    const ex = { ...demo, request: { ...demo.request, headers: [['Authorization', auth] as [string, string]] } };
    // no credentials (the demo merchant), and the demo merchant's given by hand as docs/guide/gateway.md exports them
    for (const given of [{}, { PGV2_APP_ID: 'pgv2kit-demo', PGV2_APP_SECRET: 'pgv2kit-demo-secret' }]) {
      const dir = join(temp(), 'demo');
      const r = await run(['check', har([ex]), '--report-dir', dir], { env: given });
      expect(r.stdout).toMatch(/^pgv2kit check traffic\.har: 1 exchange to judge; appId pgv2kit-demo \(secret /);
      for (const f of ['results.json', 'traffic.har']) expect(readFileSync(join(dir, f), 'utf8')).toContain(auth);
    }
  });

  it('a secret inside a body: masked in the terminal, results.json, report.html and traffic.har', async () => {
    const body = BODY.replace('a.pdf', `${SECRET}.pdf`);
    const file = har([exchange(1, { body })]);
    const dir = join(temp(), 'out');
    const r = await run(['check', file, '--report-dir', dir], { env });
    expect(r.code, r.stderr).toBe(0);
    const files = ['results.json', 'report.html', 'traffic.har'].map((f) => readFileSync(join(dir, f), 'utf8'));
    const html = files[1] ?? '';
    const found = checkSecrets('live', [r.stdout, r.stderr, ...files, ...htmlTexts(html)], [SECRET]);
    expect(found).toEqual([]);
    expect(results(dir).exchanges[0]?.masked).toBe(true);
    // the HAR's entry is masked, so it says it is not to be judged again as if its bytes were sent
    const again = readHar(join(dir, 'traffic.har')).exchanges[0];
    expect(again?.notJudged).toMatch(/a secret appeared in this exchange and is masked here/);
  });

  it('a hostile HAR: report.html has the elements of its plain twin, the terminal is inert', async () => {
    const hostile = '<script>alert(1)</script>"\'&\x1b]0;owned\x07\x1b[2J\r\u202e\u2028</pre><img src=x onerror=1>';
    const make = (x: string): string => {
      const ex = exchange(1, {
        url: `http://127.0.0.1:8080/pg/v2/file/generateUploadUrl?q=${x}`,
        // in the JSON as a string (JSON escapes its controls); the answer's body holds them raw
        body: BODY.replace('}', `,"note":${JSON.stringify(x)}}`),
        extra: [[`X-${x.replace(/[^A-Za-z]/g, '')}`, x]],
      });
      // a URL that does not parse is shown as it is: made inert
      const unparsed = exchange(2, { url: `http://exa mple${x}/pg/v2/file/generateUploadUrl` });
      return har([{ ...ex, response: { status: 502, headers: [['X-Note', x]], body: enc(`<b>${x}</b>`) } }, unparsed]);
    };
    const h = join(temp(), 'h');
    const p = join(temp(), 'p');
    const hr = await run(['check', make(hostile), '--report-dir', h], { env });
    const pr = await run(['check', make('KxplainTk'), '--report-dir', p], { env });
    expect([hr.code, pr.code]).toEqual([1, 1]);
    const page = (d: string): string => readFileSync(join(d, 'report.html'), 'utf8');
    const j = (d: string) => results(d).exchanges[0]?.findings;
    expect(j(h)).toEqual(j(p));
    expect(checkHtml('report.html', page(h), page(p))).toEqual([]);
    expect(checkTerminal(hr.stdout + hr.stderr)).toEqual([]);
    expect(hr.stdout).toContain('%1B]0;owned%07');
    expect(hr.stdout).toContain('\\x1B]0;owned\\x07');
  });

  it("a report folder of the user's is refused (exit 2), left as it was; a HAR that is not one is exit 2", async () => {
    const dir = join(temp(), 'mine');
    mkdirSync(dir);
    writeFileSync(join(dir, 'notes.txt'), 'mine');
    const r = await run(['check', har([exchange(1)]), '--report-dir', dir], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`cannot write the report folder ${dir}`);
    // each name the folder may hold said once
    expect(r.stderr).toContain(
      '(only junit.xml, results.json, report.md, report.html, run.log, shard.json, traffic.har may be in it)',
    );
    expect(readdirSync(dir)).toEqual(['notes.txt']);
    const bad = join(temp(), 'bad.har');
    writeFileSync(bad, '{"log":{"entries":[{}]}}');
    const b = await run(['check', bad, '--report-dir', join(temp(), 'o')], { env });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad\.har is not a HAR 1\.2 file: \/log\/entries\/0 /);
  });
});

describe('LiveSession', () => {
  it('lines and files follow the order of add() calls made together; abort leaves nothing', async () => {
    const parent = temp();
    const printed: string[] = [];
    const options = {
      name: 'together',
      target: 'proxy → https://sandbox.example',
      merchants: new MerchantBook([{ appId: APP, appSecret: SECRET }]),
      secrets: [SECRET],
      reportDir: join(parent, 'live'),
      print: (s: string) => void printed.push(s),
    };
    const session = LiveSession.open(options);
    // the fourth's URL does not parse and holds controls: its line is made inert by the session itself
    const hostile = exchange(4, { url: 'http://a b\x1b]0;x\x07\u202e/pg/v2/file/generateUploadUrl' });
    const all = [exchange(1, { drop: true }), exchange(2), exchange(3), hostile];
    await Promise.all(all.map((ex) => session.add(ex)));
    const outcome = await session.finish();
    expect(outcome.exitCode).toBe(1);
    expect(printed.slice(0, 4).map((l) => l.slice(0, 3))).toEqual(['#1 ', '#2 ', '#3 ', '#4 ']);
    expect(checkTerminal(printed.join(''))).toEqual([]);
    expect(results(join(parent, 'live')).exchanges.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    await expect(session.add(exchange(5))).rejects.toThrow(/finished/);
    const other = LiveSession.open({ ...options, reportDir: join(parent, 'dropped') });
    await other.add(exchange(1));
    other.abort();
    expect(readdirSync(parent)).toEqual(['live']);
    expect(existsSync(join(parent, 'dropped'))).toBe(false);
  });
});

describe('a judged exchange handed to the session (the merchant proxy judges as it hands on)', () => {
  it('is not judged again: the judgement given is the one written; an unanswered one says why, HAR included', async () => {
    const dir = join(temp(), 'r');
    const lines: string[] = [];
    const session = LiveSession.open({
      name: 'judged',
      target: 'test',
      merchants: new MerchantBook([{ appId: APP, appSecret: SECRET }]),
      secrets: [SECRET],
      reportDir: dir,
      print: (t) => void lines.push(t),
    });
    // a genuine request the judge would find conformant, handed with a judgement of another verdict: that one is kept
    const given = { verdict: 'not judged' as const, findings: [], notes: [], reason: 'judged by the caller' };
    expect(await session.add(exchange(1), given)).toBe(given);
    const { response: _, ...unanswered } = exchange(2);
    await session.add({ ...unanswered, unanswered: 'the upstream could not be reached' });
    await session.finish();
    // no answer: the request alone is judged, and a request with nothing wrong passes only half the exchange
    expect(results(dir).exchanges.map((e) => [e.seq, e.verdict, e.reason])).toEqual([
      [1, 'not judged', 'judged by the caller'],
      [
        2,
        'not judged',
        'there is no answer (the upstream could not be reached): the request alone was judged, and is conformant',
      ],
    ]);
    expect(lines[1]).toMatch(/^#2 POST \/pg\/v2\/file\/generateUploadUrl → no answer \(the upstream could not be/);
    const back = readHar(join(dir, 'traffic.har')).exchanges[1];
    expect(back?.unanswered).toBe('the upstream could not be reached');
  });
});
