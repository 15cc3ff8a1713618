/**
 * Every failing case of an HTTP role shows a curl command that sends its request again as it
 * went on the wire (issue 13, item 4): run the merchant role against a merchant that accepts
 * everything, take a forged webhook it wrongly accepted, run its curl command in a shell, and the
 * merchant receives the same request again — method, path, Authorization, body.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { curlCommand } from '../../src/reports/_model.js';
import { APP_ID, APP_SECRET, startTestMerchant, type TestMerchant } from '../certify/_merchant.js';
import { tempFolders } from '../_support.js';
import { run } from '../cli/_run.js';

const exec = promisify(execFile);
const tmp = tempFolders('pgv2kit-curl-');
let merchant: TestMerchant;
const hasCurl = await exec('curl', ['--version']).then(() => true, () => false);

beforeAll(async () => {
  merchant = await startTestMerchant('accept-all', (base) => ({ notifyUrl: `${base}/notify`, returnUrl: `${base}/return` }));
});
afterAll(async () => merchant.close());

describe('curl commands in the reports', () => {
  it('quotes what a shell would split, leaves out what curl sets itself', () => {
    expect(curlCommand({ method: 'POST', url: 'http://h/p?a=1&b=2', headers: [['Content-Type', 'application/json'], ['Content-Length', '2'], ['Authorization', "V2_SHA256 appId=a,sign=s'x"]], body: '{}' })).toBe(
      "curl -sS -i -X POST 'http://h/p?a=1&b=2' -H 'Content-Type: application/json' -H 'Authorization: V2_SHA256 appId=a,sign=s'\\''x' --data-binary '{}'",
    );
    expect(curlCommand({ method: 'GET', url: 'http://h/r', headers: [] })).toBe('curl -sS -i -X GET http://h/r');
    expect(curlCommand({ url: 'x' })).toBeUndefined();
    expect(curlCommand(null)).toBeUndefined();
  });

  it('a gateway case records its request: the curl command carries its URL, headers and body', async () => {
    const cwd = tmp();
    const r = await run(['run', '--only', 'id:gateway.*', '--no-properties', '--report-dir', 'g'], { cwd });
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(readFileSync(join(cwd, 'g/results.json'), 'utf8')) as { cases: Array<{ id: string; curl: string | null }> };
    const api = results.cases.find((c) => c.curl?.includes('/pg/v2/payment/create'));
    expect(api?.curl).toMatch(/^curl -sS -i -X POST http:\/\/127\.0\.0\.1:\d+\/pg\/v2\/payment\/create -H 'Content-Type: application\/json' .*-H 'Authorization: V2_SHA256 appId=[^']*' --data-binary '\{/);
  });

  it.skipIf(!hasCurl)('a forged webhook the merchant accepted: its curl command sends the same request again', async () => {
    const cwd = tmp();
    const r = await run(['run', '--merchant', '--notify-url', `${merchant.url}/notify`, '--return-url', `${merchant.url}/return`, '--seed', '1', '--report-dir', 'r'], { cwd, env: { PGV2_APP_ID: APP_ID, PGV2_APP_SECRET: APP_SECRET } });
    expect(r.code).toBe(1);
    const results = JSON.parse(readFileSync(join(cwd, 'r/results.json'), 'utf8')) as { cases: Array<{ id: string; verdict: string; curl: string | null }> };
    const forged = results.cases.find((c) => c.verdict === 'failed' && c.id.startsWith('merchant.webhook') && c.curl);
    expect(forged?.curl).toMatch(/^curl -sS -i -X POST /);
    const before = merchant.calls.length;
    const { stdout } = await exec('sh', ['-c', forged?.curl ?? 'false'], { timeout: 10_000 });
    expect(stdout).toMatch(/^HTTP\/1\.1 200/);
    const again = merchant.calls[before];
    const first = merchant.calls.slice(0, before).find((c) => c.body === again?.body && c.headers['authorization'] === again.headers['authorization']);
    expect(again).toBeDefined();
    expect(first, 'the replayed request matches one the run sent').toBeDefined();
    expect([again?.method, again?.url]).toEqual([first?.method, first?.url]);
    expect(readFileSync(join(cwd, 'r/report.md'), 'utf8')).toContain(`the request again (a gateway may refuse it now for its timestamp or nonce): \``);
  }, 30_000);
});
