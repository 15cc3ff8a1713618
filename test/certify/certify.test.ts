import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCertification, type CertificationResult } from '../../src/roles/merchant/certify/certify.js';
import type { AcceptanceRule } from '../../src/roles/merchant/as-gateway/acceptance.js';
import { merchantPlan, planHash, REFERENCE_TIME } from '../../src/roles/merchant/as-gateway/plan.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import type { MerchantCase } from '../../src/vectors/types.js';
import { CERTIFICATION_FILES, writeCertificationReports } from '../../src/roles/merchant/certify/report.js';
import { SAMPLE_CREDENTIALS, SAMPLE_REGISTERED, localDelivery } from '../../src/roles/merchant/certify/sample.js';
import { run } from '../cli/_run.js';
import { APP_ID, APP_SECRET, startTestMerchant, type Behaviour, type TestMerchant } from './_merchant.js';

const REFUSE_REQUIREMENTS = [
  'webhook.body-changed',
  'webhook.reserialized',
  'webhook.wrong-sign',
  'webhook.wrong-app-id',
  'webhook.delivery-url',
  'webhook.header-items',
  'webhook.scheme',
  // issue 22: every forgery class the readings make invalid, a requirement each
  'webhook.sign-empty',
  'webhook.sign-prefix',
  'webhook.sign-extended',
  'webhook.sign-end-digits',
  'webhook.sign-not-hex',
  'webhook.sign-other-content',
  'webhook.item-empty',
  'webhook.item-twice',
  'webhook.item-refreshed',
  'webhook.body-trailing-lf',
  'webhook.body-white-space',
  'webhook.body-padded',
  'webhook.body-bom',
  'redirect.payment-tampered',
  'redirect.authorization-tampered',
  'redirect.signed-with-added-params',
  'redirect.still-encoded',
  'redirect.sign-empty',
  'redirect.sign-prefix',
  'redirect.sign-extended',
  'redirect.payment-twice',
  'redirect.authorization-twice',
  'redirect.re-encoded',
  'redirect.decoded-once-more',
  'redirect.signed-with-ids',
  'redirect.wrong-app-id',
];
/** The kit's merchant cases (what every certification sends). */
const MERCHANT_CASES = liveCases(loadVectorSet())
  .map((l) => l.case)
  .filter((c): c is MerchantCase => c.kind === 'merchant');

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'pgv2kit-certify-'));
}

/** A test merchant registered at public-looking URLs, delivered to on loopback. */
async function certifyTestMerchant(
  behaviour: Behaviour,
  extra: { timeoutMs?: number; returnQuery?: boolean; now?: () => number } & AcceptanceRule = {},
): Promise<{ merchant: TestMerchant; result: CertificationResult }> {
  const notifyUrl = 'https://merchant.example.test/notify';
  const returnUrl =
    extra.returnQuery === false
      ? 'https://merchant.example.test/return'
      : 'https://merchant.example.test/return?shop=7&x=a+b';
  const merchant = await startTestMerchant(behaviour, () => ({ notifyUrl, returnUrl }));
  // closed here, not after the test: the tests that use this run concurrently (merchant.calls stays readable)
  try {
    return {
      merchant,
      result: await runCertification({
        appId: APP_ID,
        appSecret: APP_SECRET,
        notifyUrl,
        returnUrl,
        deliverTo: localDelivery(merchant.url, notifyUrl),
        returnDeliverTo: localDelivery(merchant.url, returnUrl),
        seed: 1234,
        ...(extra.timeoutMs ? { timeoutMs: extra.timeoutMs } : {}),
        ...(extra.acceptBody ? { acceptBody: extra.acceptBody } : {}),
        ...(extra.returnRefusalBody ? { returnRefusalBody: extra.returnRefusalBody } : {}),
        ...(extra.returnRefusalLocation ? { returnRefusalLocation: extra.returnRefusalLocation } : {}),
        ...(extra.now ? { now: extra.now } : {}),
      }),
    };
  } finally {
    await merchant.close();
  }
}

function failed(result: CertificationResult): string[] {
  return result.requirements.filter((r) => r.result === 'fail').map((r) => r.id);
}

describe.concurrent('pgv2kit certify with no URLs: the sample merchant', () => {
  it("is CERTIFIED with the guide's --accept-body SUCCESS (its notify endpoint's; its return page is a page), every requirement passing, the four report files written without the secret", async () => {
    const dir = join(tempDir(), 'report');
    const r = await run(['certify', '--seed', '42', '--report-dir', dir, '--accept-body', 'SUCCESS']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Verdict: CERTIFIED; plan hash [0-9a-f]{64}$/m);
    expect(r.stdout).not.toMatch(/^FAIL/m);
    expect(readdirSync(dir).sort()).toEqual([...CERTIFICATION_FILES].sort());
    for (const file of CERTIFICATION_FILES) {
      const text = readFileSync(join(dir, file), 'utf8');
      if (file.startsWith('certification.')) expect(text, file).toContain('CERTIFIED');
      expect(text, file).not.toContain(SAMPLE_CREDENTIALS.appSecret);
      expect(text, file).not.toContain(SAMPLE_CREDENTIALS.appSecret.slice(0, 10));
    }
    const json = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as CertificationResult;
    expect(json.verdict).toBe('CERTIFIED');
    expect(json.seed).toBe(42);
    expect(json.kit.name).toBe('pgv2kit');
    expect(json.merchant.notifyUrl).toBe(SAMPLE_REGISTERED.notifyUrl);
    expect(json.requirements.every((q) => q.result === 'pass' || q.result === 'advisory')).toBe(true);
    expect(json.requirements.filter((q) => q.result === 'advisory').map((q) => q.id)).toEqual([
      'webhook.replay',
      'redirect.replay',
    ]);
    expect(json.totals.fail).toBe(0);
    expect(json.totals['not-applicable']).toBe(0);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toContain('**CERTIFIED**: no requirement failed.');
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toContain(
      '| Accepted means (notify) | a 2xx with body "SUCCESS" |\n| Accepted means (return) | a 2xx or 3xx |\n',
    );
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('failures="0"');
    // the standard reports of the same run: every merchant case, passed
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      totals: { passed: number; failed: number };
      cases: Array<{ id: string; kind: string }>;
    };
    expect(results.cases.length).toBe(json.requirements.reduce((n, q) => n + q.checks.length, 0));
    expect(results.cases.every((c) => c.kind === 'merchant')).toBe(true);
    expect(results.totals).toMatchObject({ passed: results.cases.length, failed: 0 });
  });

  it('prints the same plan hash for the same seed, another for another seed', async () => {
    const hash = async (seed: string) =>
      /plan hash ([0-9a-f]{64})/.exec(
        (await run(['certify', '--seed', seed, '--report-dir', join(tempDir(), 'r')])).stdout,
      )?.[1];
    const [a, b, c] = [await hash('5'), await hash('5'), await hash('6')];
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});

describe.concurrent('runCertification', () => {
  it('certifies a correct merchant, returnUrl with and without its own query', async () => {
    for (const returnQuery of [true, false]) {
      const { result, merchant } = await certifyTestMerchant('correct', { returnQuery });
      expect(result.reasons).toEqual([]);
      expect(result.verdict).toBe('CERTIFIED');
      // redirects arrive on the returnUrl, its own query kept before the added parameters
      const redirects = merchant.calls.filter((c) => c.method === 'GET').map((c) => c.url);
      expect(redirects.length).toBe(MERCHANT_CASES.filter((c) => c.op === 'merchant.redirect').length);
      for (const url of redirects)
        expect(url).toMatch(returnQuery ? /^\/return\?shop=7&x=a\+b&paymentNo=/ : /^\/return\?paymentNo=/);
      // R7: the kit's verifier refuses upper-case hex by default: reported, not failed
      expect(result.notes.some((n) => n.startsWith('merchant.webhook.hex-case.upper: refused'))).toBe(true);
    }
  });

  it('with --accept-body, a 2xx needs that body', async () => {
    expect((await certifyTestMerchant('correct', { acceptBody: 'SUCCESS' })).result.verdict).toBe('CERTIFIED');
    const { result } = await certifyTestMerchant('correct', { acceptBody: 'OK' });
    expect(result.verdict).toBe('NOT CERTIFIED');
    expect(failed(result)).toContain('webhook.valid');
  });

  it("the return endpoint is a page: a 200 refusal page is acceptance without --return-refusal-body (with it, certified: the panel's py-fail-body)", async () => {
    // without the refusal text, its refusal pages read as acceptance: every forged redirect accepted
    const bare = (await certifyTestMerchant('refusal-page', { acceptBody: 'SUCCESS' })).result;
    expect(bare.verdict).toBe('NOT CERTIFIED');
    expect(failed(bare).sort()).toEqual(REFUSE_REQUIREMENTS.filter((q) => q.startsWith('redirect.')).sort());
    expect(bare.reasons.join('\n')).toContain('must be refused (accepted means a 2xx or 3xx)');
    // a merchant that shows the thank-you page to every redirect is never certified, whatever it says its refusal looks like
    const lax = (await certifyTestMerchant('pages-accept-all', { returnRefusalBody: 'could not be verified' })).result;
    expect(failed(lax).sort()).toEqual(REFUSE_REQUIREMENTS.filter((q) => q.startsWith('redirect.')).sort());
  });

  it("a return endpoint that redirects: a 3xx is acceptance (a 3xx to --return-refusal-location a refusal: the panel's py-wsgi is certified so)", async () => {
    expect(failed((await certifyTestMerchant('refusal-redirect')).result).sort()).toEqual(
      REFUSE_REQUIREMENTS.filter((q) => q.startsWith('redirect.')).sort(),
    );
  });

  it('same seed and clock → same plan hash and byte-identical calls', async ({ onTestFinished }) => {
    const notifyUrl = 'https://merchant.example.test/notify';
    const returnUrl = 'https://merchant.example.test/return?shop=7';
    const merchant = await startTestMerchant('correct', () => ({ notifyUrl, returnUrl }));
    onTestFinished(() => merchant.close());
    const options = {
      appId: APP_ID,
      appSecret: APP_SECRET,
      notifyUrl,
      returnUrl,
      deliverTo: localDelivery(merchant.url, notifyUrl),
      returnDeliverTo: localDelivery(merchant.url, returnUrl),
      seed: 99,
      now: () => REFERENCE_TIME + 5,
    };
    const a = await runCertification(options);
    const firstRun = merchant.calls.splice(0);
    const b = await runCertification(options);
    expect(a.verdict).toBe('CERTIFIED');
    expect(b.planHash).toBe(a.planHash);
    expect(firstRun.length).toBe(MERCHANT_CASES.length);
    expect(merchant.calls).toEqual(firstRun);
    // the hash ignores the clock and where calls are delivered, not the seed
    expect((await certifyTestMerchant('correct', { now: () => REFERENCE_TIME + 1e6 })).result.planHash).toBe(
      (await certifyTestMerchant('correct')).result.planHash,
    );
    const cases = liveCases(loadVectorSet())
      .map((l) => l.case)
      .filter((c): c is MerchantCase => c.kind === 'merchant');
    const plain = { appId: 'a', appSecret: 's', notifyUrl: 'https://m.test/n', returnUrl: 'https://m.test/r' };
    expect(planHash(cases, plain, 10)).not.toBe(planHash(cases, plain, 9));
    expect(planHash(cases.slice(1), plain, 9)).not.toBe(planHash(cases, plain, 9));
    expect(JSON.stringify(merchantPlan(cases, plain, 9, 1))).toBe(
      JSON.stringify(merchantPlan(cases, { ...plain }, 9, 1)),
    );
    // a case's call depends on the seed and its id, not on the cases before it
    expect(merchantPlan(cases.slice(5), plain, 9, 1)[0]).toEqual(merchantPlan(cases, plain, 9, 1)[5]);
  });

  it('a merchant that accepts everything is NOT CERTIFIED, naming every refuse requirement', async () => {
    const { result } = await certifyTestMerchant('accept-all');
    expect(result.verdict).toBe('NOT CERTIFIED');
    expect(failed(result).sort()).toEqual([...REFUSE_REQUIREMENTS].sort());
    for (const id of REFUSE_REQUIREMENTS) expect(result.reasons.some((r) => r.startsWith(`${id} (`))).toBe(true);
  });

  it('a merchant that refuses everything is NOT CERTIFIED for the accept requirements', async () => {
    const { result } = await certifyTestMerchant('refuse-all');
    expect(failed(result).sort()).toEqual([
      'redirect.special-chars',
      'redirect.valid',
      'webhook.additions',
      'webhook.header-field-value',
      'webhook.header-order',
      'webhook.non-ascii',
      'webhook.raw-bytes',
      'webhook.valid',
    ]);
  });

  it.each([
    ['status-500', 'server-error', 'answered 5xx'],
    ['hang', 'timeout', 'no answer within the timeout'],
    ['reset', 'reset', 'connection reset'],
  ] as const)(
    'a merchant that %s is reported as such and the run finishes with a report',
    async (behaviour, handling, words) => {
      // every call to the hanging merchant waits out its timeout, one after another (87 calls): keep it short (it never answers)
      const { result } = await certifyTestMerchant(behaviour, { timeoutMs: behaviour === 'hang' ? 10 : 1000 });
      expect(result.verdict).toBe('NOT CERTIFIED');
      const sent = result.requirements.flatMap((q) => q.checks).filter((c) => c.outcome);
      expect(sent.every((c) => c.judgement.handling === handling)).toBe(true);
      expect(result.robustness[handling]).toBe(sent.length);
      expect(result.reasons.join('\n')).toContain(words);
      // a refuse check answered by a crash counts as a refusal, reported as advisory (R16); other answers are none
      const refuse = result.requirements.find((q) => q.id === 'webhook.scheme');
      expect(refuse?.result).toBe(behaviour === 'status-500' ? 'advisory' : 'fail');
      // replay stays advisory in the certification (R12); in the run, a replay nobody answered is an error, never a pass
      expect(result.requirements.find((q) => q.id === 'webhook.replay')?.result).toBe('advisory');
      const replays = result.run.cases.filter((c) => c.id.includes('.replay.'));
      expect(replays.map((c) => c.verdict)).toEqual(
        replays.map(() => (behaviour === 'status-500' ? 'passed' : 'error')),
      );
      const dir = join(tempDir(), 'r');
      await writeCertificationReports(result, { dir, secrets: [APP_SECRET] });
      expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toContain('NOT CERTIFIED');
      expect(readFileSync(join(dir, 'certification.md'), 'utf8')).not.toContain(APP_SECRET);
    },
  );

  it('a merchant that verifies correctly but answers 500 to what it refuses is CERTIFIED, each such refusal an advisory (R16)', async () => {
    const { result } = await certifyTestMerchant('crash-on-refusal');
    expect(result.verdict).toBe('CERTIFIED');
    const checks = result.requirements.flatMap((q) => q.checks);
    const refused = checks.filter((c) => c.expect === 'refuse');
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((c) => c.judgement.result === 'advisory' && c.judgement.handling === 'server-error')).toBe(
      true,
    );
    expect(result.requirements.find((q) => q.id === 'webhook.scheme')?.result).toBe('advisory');
    expect(
      result.notes.some(
        (n) => n.startsWith('merchant.') && n.includes('answered with a server error, not a refusal (R16)'),
      ),
    ).toBe(true);
    // the genuine calls were accepted, so nothing failed
    expect(checks.filter((c) => c.expect === 'accept').every((c) => c.judgement.result === 'pass')).toBe(true);
  });

  it('a merchant that cannot be reached: one line, exit 3, no call made, a NOT CERTIFIED report that says why (as run --merchant)', async () => {
    // port 1: nothing listens there (a port freed by closing a server could be taken by a concurrent test)
    const url = 'http://127.0.0.1:1';
    const dir = join(tempDir(), 'r');
    const r = await run(
      [
        'certify',
        '--notify-url',
        `${url}/notify`,
        '--return-url',
        `${url}/return`,
        '--timeout',
        '1',
        '--seed',
        '1',
        '--report-dir',
        dir,
      ],
      { env: { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET } },
    );
    const why = `the merchant's notify endpoint at ${url}/notify cannot be reached: connection refused (127.0.0.1:1)`;
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(`pgv2kit certify: ${why}\n`);
    expect(r.stdout).toContain(`reason: ${why}\n`);
    expect(r.stdout).toContain(`reports: ${dir}\n`);
    expect(r.stdout).toMatch(/Verdict: NOT CERTIFIED \(1 reason\); plan hash [0-9a-f]{64}\n$/);
    const certification = JSON.parse(readFileSync(join(dir, 'certification.json'), 'utf8')) as {
      verdict: string;
      reasons: string[];
      answered: boolean;
      requirements: unknown[];
    };
    expect(certification).toMatchObject({
      verdict: 'NOT CERTIFIED',
      reasons: [why],
      answered: false,
      requirements: [],
    });
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      aborted: { kind: string; command: string };
      conformant: boolean;
    };
    expect(results.aborted).toMatchObject({ kind: 'target-unreachable', command: `${url}/notify` });
    expect(results.conformant).toBe(false);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toContain(why);
  });
});

describe.concurrent('pgv2kit certify usage', () => {
  it.each([
    [['certify', '--notify-url', 'https://m.test/n'], 'give both --notify-url and --return-url'],
    [
      ['certify', '--notify-url', 'ftp://m.test/n', '--return-url', 'https://m.test/r'],
      '--notify-url must be an http(s):// URL',
    ],
    [
      ['certify', '--notify-url', 'https://m.test/n', '--return-url', 'https://m.test/r'],
      'needs the merchant credentials',
    ],
    [['certify', '--seed', 'x'], '--seed must be an integer'],
    [['certify', '--timeout', '0'], '--timeout must be a positive number'],
    [
      ['certify', '--return-refusal-location', 'pay/failed'],
      '--return-refusal-location must be an http(s):// URL or a path starting with "/" (where the return endpoint redirects a refused payment), not "pay/failed"',
    ],
    [
      ['certify', '--return-refusal-body', ''],
      '--return-refusal-body needs a text the return page shows only when it refuses',
    ],
  ])('%j → exit 2', async (argv, message) => {
    const r = await run(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('masks the secret given on the command line', async () => {
    const r = await run([
      'certify',
      '--notify-url',
      'https://m.test/n',
      '--return-url',
      'https://m.test/r',
      '--app-id',
      'a',
      '--secret',
      'topsecret_value_123',
      '--seed',
      'bad',
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).not.toContain('topsecret_value_123');
  });
});

describe.concurrent('pgv2kit run --merchant: the same cases through the runner, into the standard reports', () => {
  const merchantCases = liveCases(loadVectorSet()).filter((l) => l.case.kind === 'merchant');

  it('with no URLs checks the sample merchant: every merchant case passes, the reports name the seed', async () => {
    const dir = join(tempDir(), 'r');
    const r = await run(['run', '--merchant', '--seed', '7', '--report-dir', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^merchant role: the sample merchant: notifyUrl https:\/\/shop\.example\.test\/pgv2\/notify \(delivered to http:\/\/127\.0\.0\.1:\d+\/pgv2\/notify\).*; seed 7$/m,
    );
    expect(r.stdout).toContain(`\n${merchantCases.length} passed, 0 failed\n`);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      target: { kind: string; description: string };
      cases: Array<{ id: string; verdict: string }>;
    };
    expect(results.target.kind).toBe('merchant');
    expect(results.target.description).toContain('seed 7');
    expect(results.cases.map((c) => c.id)).toEqual(merchantCases.map((l) => l.case.id));
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).not.toContain(SAMPLE_CREDENTIALS.appSecret);
  });

  it('a merchant that refuses with 200 pages: every case passes with --accept-body and --return-refusal-body', async ({
    onTestFinished,
  }) => {
    const notifyUrl = 'https://merchant.example.test/notify';
    const returnUrl = 'https://merchant.example.test/return';
    const m = await startTestMerchant('refusal-page', () => ({ notifyUrl, returnUrl }));
    onTestFinished(() => m.close());
    const argv = [
      'run',
      '--merchant',
      '--notify-url',
      notifyUrl,
      '--return-url',
      returnUrl,
      '--deliver-to',
      localDelivery(m.url, notifyUrl),
      '--return-deliver-to',
      localDelivery(m.url, returnUrl),
      '--seed',
      '3',
      '--no-reports',
    ];
    const r = await run([...argv, '--accept-body', 'SUCCESS', '--return-refusal-body', 'could not be verified'], {
      env: { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET },
    });
    expect(r.stdout).toContain(`\n${merchantCases.length} passed, 0 failed\n`);
    expect(r.code).toBe(0);
  });

  it('a merchant that accepts everything fails exactly the cases it must refuse, exit 1, its secret never shown', async ({
    onTestFinished,
  }) => {
    const notifyUrl = 'https://merchant.example.test/notify';
    const returnUrl = 'https://merchant.example.test/return';
    const m = await startTestMerchant('accept-all', () => ({ notifyUrl, returnUrl }));
    onTestFinished(() => m.close());
    const dir = join(tempDir(), 'r');
    const argv = [
      'run',
      '--merchant',
      '--notify-url',
      notifyUrl,
      '--return-url',
      returnUrl,
      '--deliver-to',
      localDelivery(m.url, notifyUrl),
      '--return-deliver-to',
      localDelivery(m.url, returnUrl),
      '--seed',
      '3',
      '--report-dir',
      dir,
    ];
    const r = await run(argv, { env: { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET } });
    expect(r.code).toBe(1);
    const mustRefuse = merchantCases.filter((l) => l.case.result === 'invalid').map((l) => l.case.id);
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as {
      cases: Array<{ id: string; verdict: string }>;
    };
    expect(
      results.cases
        .filter((c) => c.verdict !== 'passed')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...mustRefuse].sort());
    expect(r.stdout + r.stderr + allFiles(dir)).not.toContain(APP_SECRET);
    // a failing redirect case shows what was sent, as explain would: the URL sent, the returnUrl as
    // registered, the signed parts 4 and 7 and the content (§5.1: seven parts, each + LF), its secret masked
    type Sent = { url: string; returnUrl: string; signed: { part4: string; part7: string; content: string } };
    const redirects = (
      results.cases as unknown as Array<{ id: string; verdict: string; ops: Array<{ input: Sent | null }> }>
    ).filter((c) => c.id.startsWith('merchant.redirect.') && c.verdict === 'failed');
    const plain = redirects.map((c) => c.ops[0]?.input).filter((x): x is Sent => x?.signed?.part4 === returnUrl);
    expect(plain.length).toBeGreaterThan(0);
    for (const sent of plain) {
      expect(sent.returnUrl).toBe(returnUrl);
      expect(sent.url.startsWith(`${localDelivery(m.url, returnUrl)}?`)).toBe(true);
      expect(sent.signed.part7.startsWith('payment=')).toBe(true);
      // the merchant's appId, or another merchant's (merchant.redirect.wrong-app-id.consistent: signed over that one)
      const appId = sent.signed.content.startsWith(`${APP_ID}X\n`) ? `${APP_ID}X` : APP_ID;
      expect(
        sent.signed.content.startsWith(
          `${appId}\nsk${'*'.repeat(APP_SECRET.length - 2)} (${APP_SECRET.length} chars)\nGET\n${returnUrl}\n`,
        ),
      ).toBe(true);
      expect(sent.signed.content.endsWith(`\n${sent.signed.part7}\n`)).toBe(true);
    }
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toContain('"returnUrl"');
  });

  it.each([
    [['run', '--notify-url', 'https://m.test/n'], '--notify-url goes with --merchant'],
    [['run', '--merchant', '--notify-url', 'https://m.test/n'], 'give both --notify-url and --return-url'],
    [['run', '--merchant', '--gateway'], 'give --gateway or --merchant, not both'],
    [
      ['run', '--merchant', '--notify-url', 'https://m.test/n', '--return-url', 'https://m.test/r'],
      'the merchant role needs the merchant credentials',
    ],
    [['run', '--merchant', '--properties', '10'], '--properties and --replay need the properties'],
    [['run', '--return-refusal-body', 'not verified'], '--return-refusal-body goes with --merchant'],
    [
      ['run', '--merchant', '--return-refusal-location', 'ftp://x/'],
      '--return-refusal-location must be an http(s):// URL or a path',
    ],
  ])('%j → exit 2', async (argv, message) => {
    const r = await run(argv, { env: { PGV2_APP_ID: '', PGV2_APP_SECRET: '' } });
    expect(r.stderr).toContain(message);
    expect(r.code).toBe(2);
  });
});

function allFiles(dir: string): string {
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}
