/**
 * The gateway role's upload cases against a small upload address written here (node:http and busboy, loopback):
 * correct, it passes them; with one bug a gateway team could ship — a form without a file part accepted, the file
 * under another part name accepted, parts after the file ignored, the credentials never expiring — the case of that
 * rule fails, its message naming the rule. The fake gateway issues credentials with a response signed by
 * node:crypto here (5.1–5.4), not by the kit's signer.
 */
import busboy from 'busboy';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCase } from '../../src/roles/run-case.js';
import { createGatewaySubject } from '../../src/roles/gateway/subject.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';

const APP = { appId: 'app_bugs_1', appSecret: 'sk_bugs_not-printed' };

type Bug = 'no-file-needed' | 'any-file-name' | 'ignores-after-file';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function signedResponse(url: string, body: string): string {
  const timestamp = '1718090499120';
  const nonce = 'n-bugs';
  const content = `${APP.appId}\n${APP.appSecret}\nPOST\n${url}\n${timestamp}\n${nonce}\n${body}\n`;
  const sign = createHash('sha256').update(content, 'utf8').digest('hex');
  return `V2_SHA256 appId=${APP.appId},sign=${sign},timestamp=${timestamp},nonce=${nonce}`;
}

/** A gateway issuing fixed formFields, and an upload address with at most one bug. */
async function fakeGateway(bug?: Bug): Promise<string> {
  let origin = '';
  const issued: Record<string, string> = {};
  const server = createServer((req, res) => {
    if (req.url === '/pg/v2/file/generateUploadUrl') return credentials(req, res);
    if (req.url === '/bucket' && req.method === 'POST') return upload(req, res);
    res.writeHead(404).end();
  });
  const credentials = (req: IncomingMessage, res: ServerResponse): void => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const asked = JSON.parse(text) as { contentType?: string };
      Object.assign(issued, {
        key: 'evidence/0412.pdf',
        policy: 'eyJjb25kaXRpb25zIjpbXX0=',
        'x-test-signature': 'c0ffee42',
        'Content-Type': asked.contentType ?? 'application/octet-stream',
      });
      const data = {
        uploadUrl: `${origin}/bucket`,
        storageUri: 'oss://bucket/evidence/0412.pdf',
        uploadNo: '1718090499120-ab12',
        formFields: issued,
        httpMethod: 'POST',
      };
      const body = JSON.stringify({ code: 'OK', errorMessage: null, data });
      res.writeHead(200, {
        'content-type': 'application/json',
        authorization: signedResponse(`${origin}/pg/v2/file/generateUploadUrl`, body),
      });
      res.end(body);
    });
  };
  const upload = (req: IncomingMessage, res: ServerResponse): void => {
    const parts: Array<{ name: string; value?: string; file: boolean }> = [];
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers });
    } catch {
      res.writeHead(400).end('not multipart');
      return;
    }
    parser.on('field', (name: string, value: string) => parts.push({ name, value, file: false }));
    parser.on('file', (name: string, stream: NodeJS.ReadableStream) => {
      parts.push({ name, file: true });
      stream.resume();
    });
    parser.on('close', () => {
      let seen = parts;
      const firstFile = parts.findIndex((p) => p.file);
      // the bug: what follows the file is never looked at
      if (bug === 'ignores-after-file' && firstFile >= 0) seen = parts.slice(0, firstFile + 1);
      const files = seen.filter((p) => p.file);
      const texts = seen.filter((p) => !p.file);
      const fileOk =
        (files.length === 1 && (files[0]?.name === 'file' || bug === 'any-file-name')) ||
        (files.length === 0 && bug === 'no-file-needed');
      const last = files.length === 0 || seen[seen.length - 1]?.file === true;
      const fieldsOk = texts.length === Object.keys(issued).length && texts.every((p) => issued[p.name] === p.value);
      res.writeHead(fileOk && last && fieldsOk ? 204 : 400).end();
    });
    req.pipe(parser);
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return origin;
}

const cases = liveCases(loadVectorSet());
const byId = (id: string) => {
  const c = cases.find((l) => l.case.id === id);
  if (!c) throw new Error(`no case ${id}`);
  return c;
};

async function run(id: string, bug?: Bug) {
  const baseUrl = await fakeGateway(bug);
  return runCase(byId(id), createGatewaySubject({ baseUrl, ...APP, timeoutMs: 5000 }));
}

describe('gateway role, upload cases against an upload address with one bug', () => {
  it.each([
    'gateway.upload-valid',
    'gateway.upload-no-file-part',
    'gateway.upload-file-named-upload',
    'gateway.upload-file-named-capital-file',
    'gateway.upload-text-after-file',
    'gateway.upload-two-file-parts',
    'gateway.upload-urlencoded-body',
  ])('the correct address passes %s', async (id) => {
    const o = await run(id);
    expect(o.message).not.toMatch(/accepted, but/);
    expect(o.status).toBe('pass');
  });

  it.each([
    ['no-file-needed', 'gateway.upload-no-file-part', 'no file part (4.2: one part named file)'],
    [
      'any-file-name',
      'gateway.upload-file-named-upload',
      'the file part named upload (4.2: the file part is named file)',
    ],
    [
      'any-file-name',
      'gateway.upload-file-named-capital-file',
      'the file part named File (4.2: the file part is named file)',
    ],
    [
      'ignores-after-file',
      'gateway.upload-text-after-file',
      'a text part after the file (x-pgv2kit-after) (4.2, 7: the file part is last, else the upload fails)',
    ],
  ] as const)('an address whose bug is %s fails %s, naming the rule', async (bug, id, rule) => {
    const o = await run(id, bug);
    expect(o.status).toBe('fail');
    expect(o.message).toBe(`gateway.upload: accepted, but the case is invalid: ${rule} (HTTP 204)`);
  });

  it('records what was sent: the method, the address, each part, and never the secret', async () => {
    const o = await run('gateway.upload-text-after-file');
    const got = o.ops[0]?.got as { result: { sent: Record<string, unknown> } };
    const sent = got.result.sent;
    expect(sent['method']).toBe('POST');
    expect(String(sent['url'])).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/bucket$/);
    expect(sent['parts']).toEqual([
      { name: 'key', size: 17, value: 'evidence/0412.pdf' },
      { name: 'policy', size: 24, value: 'eyJjb25kaXRpb25zIjpbXX0=' },
      { name: 'x-test-signature', size: 8, value: 'c0ffee42' },
      { name: 'Content-Type', size: 15, value: 'application/pdf' },
      { name: 'file', filename: 'evidence-0412.pdf', contentType: 'application/pdf', size: 4096 },
      { name: 'x-pgv2kit-after', size: 1, value: '1' },
    ]);
    expect(sent['changed']).toBe('a text part after the file (x-pgv2kit-after)');
    expect(JSON.stringify(o)).not.toContain(APP.appSecret);
  });
});
