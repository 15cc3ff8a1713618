/**
 * How the reports and the run's name call what was run (issue 20, item 7): a gateway or a merchant
 * under test, which says nothing of itself, by its host or as --name and --version say — never
 * "… unknown"; the built-in reference and the Node example adapter under names of their own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDelivery } from '../../src/roles/merchant/certify/sample.js';
import { DEMO_MERCHANT, startGateway, type Gateway } from '../../src/gateway/index.js';
import { tempFolders } from '../_support.js';
import { APP_ID, APP_SECRET, startTestMerchant, type TestMerchant } from '../certify/_merchant.js';
import { run } from './_run.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The kit's version as package.json says it. */
const { version: KIT_VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const tmp = tempFolders('pgv2kit-names-');

interface Written {
  readonly implementation: { name: string; version: string; language: string };
  readonly runName: string;
  readonly html: string;
  readonly md: string;
}

/** What a run's report folder says of its subject. */
function written(dir: string): Written {
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) as Pick<
    Written,
    'implementation' | 'runName'
  >;
  return {
    implementation: results.implementation,
    runName: results.runName,
    html: readFileSync(join(dir, 'report.html'), 'utf8'),
    md: readFileSync(join(dir, 'report.md'), 'utf8'),
  };
}

/** The report's title and the folder's run name, for a subject called `named`: no "unknown" anywhere in either. */
function expectNamed(w: Written, named: string): void {
  expect(w.html).toContain(`<h1>pgv2kit report: ${named}</h1>`);
  expect(w.md.split('\n')[0]).toBe(`# pgv2kit conformance report: ${named}`);
  expect(w.html.slice(0, w.html.indexOf('</header>'))).not.toMatch(/unknown/i);
  expect(w.md.slice(0, w.md.indexOf('## '))).not.toMatch(/unknown/i);
}

describe.concurrent('run --gateway', () => {
  let gateway: Gateway;
  let host: string;
  const env = { PGV2_APP_ID: DEMO_MERCHANT.appId, PGV2_APP_SECRET: DEMO_MERCHANT.appSecret };
  beforeAll(async () => {
    gateway = await startGateway({ merchants: [DEMO_MERCHANT] });
    // the host as the URL says it: what follows the scheme, up to the path
    host = gateway.baseUrl.replace(/^http:\/\//, '').replace(/\/.*$/, '');
  });
  afterAll(() => gateway.close());

  it('names the gateway by its host, with no version rather than "unknown"', async () => {
    const cwd = tmp();
    const r = await run(
      ['run', '--gateway', gateway.baseUrl, '--only', 'gateway.credentials-valid', '--report-dir', 'r'],
      { cwd, env },
    );
    expect(r.code).toBe(0);
    const w = written(join(cwd, 'r'));
    expect(w.implementation).toEqual({ name: `gateway ${host}`, version: '', language: 'http' });
    expectNamed(w, `gateway ${host}`);
    expect(w.runName).toMatch(
      new RegExp(`^gateway-${host.replace(/[.:]/g, (c) => (c === ':' ? '-' : '\\.'))}-\\d{8}-\\d{6}$`),
    );
  });

  it('names it as --name and --version say, in the reports and the run name', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--gateway',
        gateway.baseUrl,
        '--name',
        'acme-gateway',
        '--version',
        '2.3',
        '--only',
        'gateway.credentials-valid',
        '--report-dir',
        'r',
      ],
      { cwd, env },
    );
    expect(r.code).toBe(0);
    const w = written(join(cwd, 'r'));
    expect(w.implementation).toEqual({ name: 'acme-gateway', version: '2.3', language: 'http' });
    expectNamed(w, 'acme-gateway 2.3');
    expect(w.runName).toMatch(/^acme-gateway-\d{8}-\d{6}$/);
  });

  it("with no URL, the reference gateway run in process is the kit's, with the kit's version", async () => {
    const cwd = tmp();
    const r = await run(['run', '--gateway', '--only', 'gateway.credentials-valid', '--report-dir', 'r'], { cwd });
    expect(r.code).toBe(0);
    const w = written(join(cwd, 'r'));
    expect(w.implementation).toEqual({ name: 'reference-gateway', version: KIT_VERSION, language: 'http' });
    expectNamed(w, `reference-gateway ${KIT_VERSION}`);
    expect(w.runName).toMatch(/^reference-gateway-\d{8}-\d{6}$/);
  });
});

describe.concurrent('run --merchant and certify', () => {
  const notifyUrl = 'https://shop.example.test/notify';
  const returnUrl = 'https://shop.example.test/return';
  const env = { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET };
  let merchant: TestMerchant;
  // a seed per test: the same seed gives the same nonces, which the merchant, shared, would refuse as replays
  let seed = 5;
  const urls = (): string[] => [
    '--notify-url',
    notifyUrl,
    '--return-url',
    returnUrl,
    '--deliver-to',
    localDelivery(merchant.url, notifyUrl),
    '--return-deliver-to',
    localDelivery(merchant.url, returnUrl),
    '--seed',
    String(seed++),
  ];
  beforeAll(async () => {
    merchant = await startTestMerchant('correct', () => ({ notifyUrl, returnUrl }));
  });
  afterAll(() => merchant.close());

  it('run --merchant names the merchant by the host of its notifyUrl, with no version', async () => {
    const cwd = tmp();
    const r = await run(['run', '--merchant', ...urls(), '--only', 'merchant.webhook.valid*', '--report-dir', 'r'], {
      cwd,
      env,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const w = written(join(cwd, 'r'));
    expect(w.implementation).toEqual({ name: 'merchant shop.example.test', version: '', language: 'http' });
    expectNamed(w, 'merchant shop.example.test');
    expect(w.runName).toMatch(/^merchant-shop\.example\.test-\d{8}-\d{6}$/);
  });

  it('run --merchant --name --version', async () => {
    const cwd = tmp();
    const r = await run(
      [
        'run',
        '--merchant',
        ...urls(),
        '--name',
        'acme-shop',
        '--version',
        '7.1.0',
        '--only',
        'merchant.webhook.valid*',
        '--report-dir',
        'r',
      ],
      { cwd, env },
    );
    expect(r.code).toBe(0);
    const w = written(join(cwd, 'r'));
    expect(w.implementation).toEqual({ name: 'acme-shop', version: '7.1.0', language: 'http' });
    expectNamed(w, 'acme-shop 7.1.0');
  });

  it('certify --name --version: the certificate and the standard reports name the merchant so', async () => {
    const dir = join(tmp(), 'c');
    const r = await run(['certify', ...urls(), '--name', 'acme-shop', '--version', '7.1.0', '--report-dir', dir], {
      env,
    });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(join(dir, 'certification.md'), 'utf8')).toContain('\n| Merchant | acme-shop 7.1.0 |\n');
    expect(readFileSync(join(dir, 'certification.html'), 'utf8')).toContain(
      '<dt>Merchant</dt><dd>acme-shop 7.1.0</dd>',
    );
    expectNamed(written(dir), 'acme-shop 7.1.0');
  });

  it('certify with no URL names the sample merchant as run --merchant does', async () => {
    const dir = join(tmp(), 'c');
    const r = await run(['certify', '--seed', '1', '--report-dir', dir]);
    expect(r.code).toBe(0);
    expect(written(dir).implementation).toEqual({ name: 'sample-merchant', version: '', language: 'http' });
  });
});

describe.concurrent('--name and --version are refused where nothing takes them', () => {
  it.each([
    [
      ['run', '--name', 'x'],
      '--name names a gateway or merchant under test (--gateway, --merchant): a testee or a module names itself in its handshake',
    ],
    [['run', '--testee', 'node x.mjs', '--version', '1'], '--version names a gateway or merchant under test'],
    [
      ['run', '--gateway', 'http://127.0.0.1:1', '--name', ' '],
      '--name needs a value (leave it out for the default: the host)',
    ],
    [['certify', '--version', ''], '--version needs a value (leave it out for the default: none)'],
  ])('%j → exit 2, the problem in one line (then where the help is)', async (argv, message) => {
    const r = await run(argv, { env: { PGV2_APP_ID: 'a', PGV2_APP_SECRET: 'sk_names_000000001' }, cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain(message);
    expect(r.stderr.split('\n')[1]).toMatch(/^see pgv2kit (run|certify) --help$/);
  });
});

describe.concurrent('the built-in reference and the Node example adapter', () => {
  it('run under names of their own: pgv2kit-reference and pgv2kit-node-example', async () => {
    const names = await Promise.all(
      [[], ['--testee', `"${process.execPath}" examples/node-adapter/adapter.mjs`]].map(async (target) => {
        const cwd = tmp();
        const dir = join(cwd, 'r');
        const r = await run(
          ['run', ...target, '--only', 'id:signature.generate-upload-url', '--no-properties', '--report-dir', dir],
          { cwd: ROOT },
        );
        expect(r.code, r.stderr).toBe(0);
        return written(dir);
      }),
    );
    const [reference, example] = names as [Written, Written];
    expect(reference.implementation.name).toBe('pgv2kit-reference');
    expect(example.implementation).toEqual({
      name: 'pgv2kit-node-example',
      version: KIT_VERSION,
      language: 'javascript',
    });
    expect(reference.runName).toMatch(/^pgv2kit-reference-\d{8}-\d{6}$/);
    expect(example.runName).toMatch(/^pgv2kit-node-example-\d{8}-\d{6}$/);
  });
});
