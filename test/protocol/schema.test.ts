/**
 * Testee protocol 1: the schema (src/protocol/protocol-v1.schema.json) and its checks
 * (validate.ts) against the lines of PROTOCOL.md, well-formed and malformed lines of
 * every operation, and every request and answer of a vector run of the reference; then
 * the Node example adapter as a real child process over the compiled dist/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_OPERATIONS,
  PROTOCOL_SCHEMA,
  createReferenceSubject,
  liveCases,
  loadVectorSet,
  runCase,
  validateRunnerLine,
  validateTesteeLine,
  type Json,
  type LineExpectation,
  type ProtocolOperation,
  type Subject,
} from '../../src/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADAPTER = join(ROOT, 'examples', 'node-adapter', 'adapter.mjs');
const PROTOCOL_MD = readFileSync(join(ROOT, 'docs', 'PROTOCOL.md'), 'utf8');
const { version: KIT_VERSION } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };

/** The operations the reference offers over protocol 1: all of them (upload.formCheck is kit-internal). */
const ADAPTER_OPERATIONS = [...PROTOCOL_OPERATIONS];

const answer = (id: string, op: ProtocolOperation): LineExpectation => ({ expecting: 'answer', id, op });
const ok = { ok: true };

/** A well-formed result of each operation. */
const RESULTS: Record<ProtocolOperation, { [key: string]: Json }> = {
  'signature.content': { contentB64: 'YQpiCg==' },
  'signature.sign': { sign: 'f'.repeat(64) },
  'authorization.format': { header: 'V2_SHA256 appId=a,sign=s,timestamp=1,nonce=n' },
  'authorization.parse': { appId: 'a', sign: 's', timestamp: '1', nonce: 'n' },
  'request.verify': { valid: true },
  'response.verify': { valid: false, reason: 'sign does not match' },
  'webhook.verify': { valid: false },
  'redirect.verify': { valid: true, payment: '{"amount":"1.00"}' },
  'upload.validate': { valid: false, reason: 'filename has no extension' },
  'upload.form': { contentType: 'multipart/form-data; boundary=x', bodyB64: '' },
  'client.upload': { storageUri: 's3://b/k.pdf', uploadNo: '1-ab' },
  'client.createPayment': { code: 'OK', paymentNo: null },
};

/** For each operation: a result with one thing wrong, and the problem it must give. */
const WRONG_RESULTS: Array<[ProtocolOperation, { [key: string]: Json }, string]> = [
  ['signature.content', { contentB64: 'not base64!' }, '/result/contentB64: must be standard padded base64'],
  ['signature.content', { contentB64: 'YQ' }, '/result/contentB64: must be standard padded base64'],
  ['signature.sign', { sign: 42 }, '/result/sign: must be string'],
  ['signature.sign', {}, '/result/sign: required property is missing'],
  ['authorization.format', { header: null }, '/result/header: must be string'],
  [
    'authorization.parse',
    { appId: 'a', sign: 's', timestamp: 1718090123511, nonce: 'n' },
    '/result/timestamp: must be string',
  ],
  ['authorization.parse', { appId: 'a', sign: 's', timestamp: '1' }, '/result/nonce: required property is missing'],
  ['request.verify', { valid: 'true' }, '/result/valid: must be boolean'],
  ['response.verify', { valid: false, reason: 7 }, '/result/reason: must be string'],
  ['webhook.verify', {}, '/result/valid: required property is missing'],
  ['redirect.verify', { valid: true }, '/result/payment: required property is missing'],
  ['redirect.verify', { valid: false, payment: '{"amount":"1.00"}' }, '/result/payment: must be null'],
  ['redirect.verify', { valid: true, payment: null }, '/result/payment: must be string'],
  ['upload.validate', { valid: false }, '/result/reason: required property is missing'],
  ['upload.validate', { valid: 1 }, '/result/valid: must be boolean'],
  ['upload.form', { contentType: 'multipart/form-data; boundary=x' }, '/result/bodyB64: required property is missing'],
  ['upload.form', { contentType: ['multipart/form-data'], bodyB64: '' }, '/result/contentType: must be string'],
  ['client.upload', { storageUri: 's3://b/k.pdf', uploadNo: 17 }, '/result/uploadNo: must be string'],
  ['client.createPayment', { code: 'OK' }, '/result/paymentNo: required property is missing'],
  ['client.createPayment', { code: 'OK', paymentNo: 5 }, '/result/paymentNo: must be string or null'],
];

const B64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const PARTS = {
  appId: 'a',
  appSecret: 's',
  method: 'POST',
  url: 'https://pg.example.com/x',
  timestamp: '1',
  nonce: 'n',
  bodyB64: B64('{}'),
};

/** A well-formed input of each operation. */
const INPUTS: Record<ProtocolOperation, { [key: string]: Json }> = {
  'signature.content': PARTS,
  'signature.sign': PARTS,
  'authorization.format': { appId: 'a', sign: 's', timestamp: '1', nonce: 'n' },
  'authorization.parse': { header: 'V2_SHA256 appId=a' },
  'request.verify': {
    appId: 'a',
    appSecret: 's',
    method: 'POST',
    url: 'https://pg.example.com/x',
    authorization: null,
    bodyB64: '',
  },
  'response.verify': {
    appId: 'a',
    appSecret: 's',
    method: 'POST',
    url: 'https://pg.example.com/x',
    status: 200,
    authorization: 'V2_SHA256 x',
    bodyB64: '',
  },
  'webhook.verify': {
    appId: 'a',
    appSecret: 's',
    notifyUrl: 'https://shop.example.net/n',
    method: 'POST',
    authorization: null,
    bodyB64: '',
  },
  'redirect.verify': {
    appId: 'a',
    appSecret: 's',
    returnUrl: 'https://shop.example.net/r',
    redirectUrl: 'https://shop.example.net/r?payment=x',
  },
  'upload.validate': { filename: null, contentType: null, scene: null, fileSize: null },
  'upload.form': {
    formFields: [
      ['key', 'k'],
      ['policy', 'p'],
    ],
    filename: 'a.pdf',
    contentType: 'application/pdf',
    fileB64: B64('%PDF'),
  },
  'client.upload': {
    baseUrl: 'http://127.0.0.1:1',
    appId: 'a',
    appSecret: 's',
    filename: 'a.pdf',
    contentType: null,
    scene: 'DISPUTE_EVIDENCE',
    fileB64: '',
  },
  'client.createPayment': { baseUrl: 'http://127.0.0.1:1', appId: 'a', appSecret: 's', payment: { amount: '1.00' } },
};

/** A request of each operation with one thing wrong in its input, and the problem it must give. */
const WRONG_INPUTS: Array<[ProtocolOperation, { [key: string]: Json }, string]> = [
  ['signature.sign', { ...PARTS, bodyB64: 'e30' }, '/input/bodyB64: must be standard padded base64'],
  ['signature.content', { ...PARTS, timestamp: 1 }, '/input/timestamp: must be string'],
  ['authorization.parse', {}, '/input/header: required property is missing'],
  ['request.verify', { ...INPUTS['request.verify'], authorization: 5 }, '/input/authorization: must be string or null'],
  ['response.verify', { ...INPUTS['response.verify'], status: '200' }, '/input/status: must be integer'],
  [
    'upload.validate',
    { filename: 'a.pdf', contentType: null, scene: 'DISPUTE_EVIDENCE' },
    '/input/fileSize: required property is missing',
  ],
  [
    'upload.form',
    { ...INPUTS['upload.form'], formFields: [['key', 'k', 'extra']] },
    '/input/formFields/0: must NOT have more than 2 items',
  ],
  ['upload.form', { ...INPUTS['upload.form'], formFields: { key: 'k' } }, '/input/formFields: must be array'],
  [
    'client.createPayment',
    { ...INPUTS['client.createPayment'], payment: '{"amount":"1.00"}' },
    '/input/payment: must be object',
  ],
];

describe('the schema file', () => {
  const defs = (PROTOCOL_SCHEMA as { $defs: Record<string, { enum?: unknown }> }).$defs;

  it('names exactly the operations of protocol 1, each with input-, result- and answer- definitions', () => {
    expect(defs['operation']?.enum).toEqual([...PROTOCOL_OPERATIONS]);
    for (const op of PROTOCOL_OPERATIONS)
      for (const d of ['input', 'result', 'answer']) expect(defs[`${d}-${op}`], `${d}-${op}`).toBeDefined();
    const keywords = collect(PROTOCOL_SCHEMA, '');
    // validate.ts words these problems for exactly these uses:
    expect(keywords.filter((k) => k.keyword === 'pattern').map((k) => k.at)).toEqual(['/$defs/base64']);
    expect(new Set(keywords.filter((k) => k.keyword === 'minLength').map((k) => k.value))).toEqual(new Set([1]));
    expect(keywords.filter((k) => k.keyword === 'oneOf' && k.at !== '').map((k) => k.at)).toEqual(['/$defs/runAnswer']);
    for (const entry of [
      'runnerLine',
      'testeeLine',
      'readyLine',
      'runAnswer',
      'startRequest',
      'runRequest',
      'stopRequest',
      'readyAnswer',
      'notReadyAnswer',
    ])
      expect(defs[entry], entry).toBeDefined();
  });
});

describe('lines of PROTOCOL.md', () => {
  const lines = exampleLines(PROTOCOL_MD);

  it('has the examples and the transcript', () => {
    expect(lines.length).toBeGreaterThan(25);
    const ops = new Set(lines.filter((l) => l.dir === '→').map((l) => (l.value as { op?: string }).op));
    for (const op of PROTOCOL_OPERATIONS) expect(ops, `an example of ${op}`).toContain(op);
  });

  it('every line is valid: runner lines as runner lines, testee lines as answers to the request before them', () => {
    let context: LineExpectation | undefined;
    for (const { dir, text, value } of lines) {
      if (dir === '→') {
        expect(validateRunnerLine(value), text).toEqual(ok);
        const m = value as { cmd: string; id?: string; op?: ProtocolOperation };
        context =
          m.cmd === 'start'
            ? { expecting: 'ready' }
            : m.cmd === 'run'
              ? answer(m.id ?? '', m.op ?? 'signature.sign')
              : undefined;
      } else {
        expect(context, `an answer with no request before it: ${text}`).toBeDefined();
        expect(validateTesteeLine(value, context as LineExpectation), text).toEqual(ok);
        context = undefined;
      }
    }
  });
});

describe('validateTesteeLine: answers', () => {
  it.each(PROTOCOL_OPERATIONS.map((op) => [op]))(
    '%s: a well-formed result, rejected and unsupported are accepted',
    (op) => {
      expect(validateTesteeLine({ id: 'c.1', result: RESULTS[op] }, answer('c.1', op))).toEqual(ok);
      expect(validateTesteeLine({ id: 'c.1', rejected: { reason: 'raised ValueError' } }, answer('c.1', op))).toEqual(
        ok,
      );
      expect(validateTesteeLine({ id: 'c.1', unsupported: { reason: 'not implemented' } }, answer('c.1', op))).toEqual(
        ok,
      );
    },
  );

  it('extra fields in a result, and in rejected / unsupported, are allowed', () => {
    expect(
      validateTesteeLine(
        { id: 'c.1', result: { valid: true, checkedBy: 'sdk 2.1', items: { a: 1 } } },
        answer('c.1', 'request.verify'),
      ),
    ).toEqual(ok);
    expect(
      validateTesteeLine({ id: 'c.1', rejected: { reason: 'r', code: 'E_SIGN' } }, answer('c.1', 'request.verify')),
    ).toEqual(ok);
  });

  it.each(WRONG_RESULTS)('%s: %j is refused with "%s"', (op, result, problem) => {
    expect(validateTesteeLine({ id: 'c.1', result }, answer('c.1', op))).toEqual({ ok: false, problems: [problem] });
  });

  it.each<[string, unknown, string[]]>([
    ['missing id', { result: { sign: 'x' } }, ['/id: required property is missing']],
    [
      'empty id',
      { id: '', result: { sign: 'x' } },
      ['/id: must be "c.1", the id of the request answered (got "")', '/id: must not be empty'],
    ],
    ['id not a string', { id: 1, result: { sign: 'x' } }, ['/id: must be string']],
    [
      'result and rejected',
      { id: 'c.1', result: { sign: 'x' }, rejected: { reason: 'r' } },
      ['/: must have exactly one of result, rejected, unsupported (it has result and rejected)'],
    ],
    [
      'all three',
      { id: 'c.1', result: { sign: 'x' }, rejected: { reason: 'r' }, unsupported: { reason: 'u' } },
      ['/: must have exactly one of result, rejected, unsupported (it has result and rejected and unsupported)'],
    ],
    ['none of them', { id: 'c.1' }, ['/: must have exactly one of result, rejected, unsupported (it has none)']],
    [
      'an unknown top-level field',
      { id: 'c.1', result: { sign: 'x' }, error: null },
      ['/error: is not a property of this message'],
    ],
    ['result not an object', { id: 'c.1', result: 'f'.repeat(64) }, ['/result: must be object']],
    ['rejected without a reason', { id: 'c.1', rejected: {} }, ['/rejected/reason: required property is missing']],
    ['unsupported as a string', { id: 'c.1', unsupported: 'no' }, ['/unsupported: must be object']],
    ['not an object', ['c.1', { sign: 'x' }], ['/: must be object']],
    ['null', null, ['/: must be object']],
  ])('refuses an answer with %s, naming the pointer', (_what, line, problems) => {
    expect(validateTesteeLine(line, answer('c.1', 'signature.sign'))).toEqual({ ok: false, problems });
  });

  it('refuses an answer with the wrong id, and reports its other problems too', () => {
    expect(validateTesteeLine({ id: 'c.2', result: { sign: 'x' } }, answer('c.1', 'signature.sign'))).toEqual({
      ok: false,
      problems: ['/id: must be "c.1", the id of the request answered (got "c.2")'],
    });
    expect(validateTesteeLine({ id: 'c.2', result: {} }, answer('c.1', 'signature.sign'))).toEqual({
      ok: false,
      problems: [
        '/id: must be "c.1", the id of the request answered (got "c.2")',
        '/result/sign: required property is missing',
      ],
    });
  });

  it('a pointer escapes "/" and "~" in property names', () => {
    expect(
      validateTesteeLine({ id: 'c.1', result: { sign: 'x' }, 'a/b~c': 1 }, answer('c.1', 'signature.sign')),
    ).toEqual({ ok: false, problems: ['/a~1b~0c: is not a property of this message'] });
  });

  it('throws a RangeError for a kit-internal operation: no testee ever answers it', () => {
    expect(() =>
      validateTesteeLine(
        { id: 'c.1', result: { valid: true } },
        { expecting: 'answer', id: 'c.1', op: 'upload.formCheck' },
      ),
    ).toThrow(RangeError);
  });
});

describe('validateTesteeLine: the answer to start', () => {
  const ready = {
    ready: true,
    protocol: 1,
    implementation: { name: 'sdk', version: '2.1.0', language: 'go' },
    operations: ['signature.sign'],
  };

  it('accepts ready (any subset of the operations, even none) and not-ready with a reason', () => {
    expect(validateTesteeLine(ready, { expecting: 'ready' })).toEqual(ok);
    expect(validateTesteeLine({ ...ready, operations: [...PROTOCOL_OPERATIONS] }, { expecting: 'ready' })).toEqual(ok);
    expect(validateTesteeLine({ ...ready, operations: [] }, { expecting: 'ready' })).toEqual(ok);
    expect(
      validateTesteeLine(
        { ...ready, implementation: { ...ready.implementation, vendor: 'acme' } },
        { expecting: 'ready' },
      ),
    ).toEqual(ok);
    expect(validateTesteeLine({ ready: false, reason: 'protocol 2 only' }, { expecting: 'ready' })).toEqual(ok);
  });

  it.each<[string, unknown, string[]]>([
    ['another protocol', { ...ready, protocol: 2 }, ['/protocol: must be 1']],
    [
      'an unknown operation',
      { ...ready, operations: ['signature.sign', 'signature.Sign'] },
      ['/operations/1: "signature.Sign" is not an operation of protocol 1'],
    ],
    [
      'the kit-internal operation',
      { ...ready, operations: ['upload.formCheck'] },
      ['/operations/0: "upload.formCheck" is not an operation of protocol 1'],
    ],
    [
      'an operation twice',
      { ...ready, operations: ['signature.sign', 'signature.sign'] },
      ['/operations: must not have duplicate items ("signature.sign" appears twice)'],
    ],
    [
      'no implementation version',
      { ...ready, implementation: { name: 'sdk', language: 'go' } },
      ['/implementation/version: required property is missing'],
    ],
    [
      'no operations',
      { ready: true, protocol: 1, implementation: ready.implementation },
      ['/operations: required property is missing'],
    ],
    ['ready as a string', { ...ready, ready: 'yes' }, ['/ready: must be boolean']],
    ['not ready without a reason', { ready: false }, ['/reason: required property is missing']],
    [
      'not ready with operations',
      { ready: false, reason: 'r', operations: [] },
      ['/operations: is not a property of this message'],
    ],
    ['a run answer instead', { id: 'c.1', result: {} }, ['/ready: required property is missing']],
  ])('refuses one with %s', (_what, line, problems) => {
    expect(validateTesteeLine(line, { expecting: 'ready' })).toEqual({ ok: false, problems });
  });
});

describe('validateRunnerLine', () => {
  it.each(PROTOCOL_OPERATIONS.map((op) => [op]))(
    '%s: a well-formed request is accepted, with extra input fields too',
    (op) => {
      expect(validateRunnerLine({ cmd: 'run', id: 'c.1', op, input: INPUTS[op] })).toEqual(ok);
      expect(
        validateRunnerLine({
          cmd: 'run',
          id: 'c.1',
          op,
          input: { ...INPUTS[op], deliveryUrl: 'https://proxy.example/n' },
        }),
      ).toEqual(ok);
    },
  );

  it('accepts start (protocol 1, and later protocols a testee must decline) and stop', () => {
    expect(validateRunnerLine({ cmd: 'start', protocol: 1 })).toEqual(ok);
    expect(validateRunnerLine({ cmd: 'start', protocol: 2 })).toEqual(ok);
    expect(validateRunnerLine({ cmd: 'stop' })).toEqual(ok);
  });

  it('accepts upload.validate inputs that are all strings, or all null', () => {
    expect(
      validateRunnerLine({
        cmd: 'run',
        id: 'u',
        op: 'upload.validate',
        input: { filename: 'a.pdf', contentType: 'application/pdf', scene: 'DISPUTE_EVIDENCE', fileSize: 1 },
      }),
    ).toEqual(ok);
    expect(
      validateRunnerLine({ cmd: 'run', id: 'u', op: 'upload.validate', input: INPUTS['upload.validate'] }),
    ).toEqual(ok);
  });

  it.each(WRONG_INPUTS)('%s: %j is refused with "%s"', (op, input, problem) => {
    expect(validateRunnerLine({ cmd: 'run', id: 'c.1', op, input })).toEqual({ ok: false, problems: [problem] });
  });

  it.each<[string, unknown, string[]]>([
    ['no cmd', { id: 'c.1' }, ['/cmd: required property is missing']],
    ['an unknown cmd', { cmd: 'ping' }, ['/cmd: must be one of "start", "run", "stop" (got "ping")']],
    ['start without protocol', { cmd: 'start' }, ['/protocol: required property is missing']],
    ['start with protocol 0', { cmd: 'start', protocol: 0 }, ['/protocol: must be >= 1']],
    ['stop with a field', { cmd: 'stop', now: true }, ['/now: is not a property of this message']],
    [
      'run of an unknown op',
      { cmd: 'run', id: 'c.1', op: 'signature.verify', input: {} },
      ['/op: "signature.verify" is not an operation of protocol 1'],
    ],
    [
      'run of the kit-internal op',
      { cmd: 'run', id: 'c.1', op: 'upload.formCheck', input: {} },
      ['/op: "upload.formCheck" is not an operation of protocol 1'],
    ],
    [
      'run without id',
      { cmd: 'run', op: 'authorization.parse', input: { header: 'h' } },
      ['/id: required property is missing'],
    ],
    [
      'run without input',
      { cmd: 'run', id: 'c.1', op: 'authorization.parse' },
      ['/input: required property is missing'],
    ],
  ])('refuses a line with %s', (_what, line, problems) => {
    expect(validateRunnerLine(line)).toEqual({ ok: false, problems });
  });
});

describe('a vector run of the reference, seen through the protocol', () => {
  it('every request the checks send and every answer the reference gives follow the schema', async () => {
    const reference = createReferenceSubject();
    const problems: string[] = [];
    let calls = 0;
    const checked: Subject = {
      implementation: reference.implementation,
      operations: reference.operations.filter((op) => (PROTOCOL_OPERATIONS as readonly string[]).includes(op)),
      async call(op, input, caseId) {
        calls++;
        const request = validateRunnerLine(wire({ cmd: 'run', id: caseId, op, input }));
        if (!request.ok) problems.push(`${caseId} ${op} request: ${request.problems.join('; ')}`);
        const got = await reference.call(op, input, caseId);
        const reply = validateTesteeLine(wire({ id: caseId, ...got }), { expecting: 'answer', id: caseId, op });
        if (!reply.ok) problems.push(`${caseId} ${op} answer: ${reply.problems.join('; ')}`);
        return got;
      },
    };
    for (const c of liveCases(loadVectorSet())) await runCase(c, checked);
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(300);
  });
});

describe('the Node adapter, as a child process', () => {
  it('a session: ready with the reference operations, a sign equal to node:crypto over the content, a garbage line survived, stop exits 0', async () => {
    const content =
      'app_proto\nsk_test_Proto9Kd2Wq\nPOST\nhttps://pg.example.com/pg/v2/payment/create\n1718090000000\nn-proto-1\n{"amount":"1.00","currency":"EUR"}\n\n';
    const expectedSign = createHash('sha256').update(content, 'utf8').digest('hex');
    const sign = {
      cmd: 'run',
      id: 'signature.protocol-test',
      op: 'signature.sign',
      input: {
        appId: 'app_proto',
        appSecret: 'sk_test_Proto9Kd2Wq',
        method: 'POST',
        url: 'https://pg.example.com/pg/v2/payment/create',
        timestamp: '1718090000000',
        nonce: 'n-proto-1',
        bodyB64: B64('{"amount":"1.00","currency":"EUR"}\n'),
      },
    };
    const garbage = [
      'this is not json {',
      '[1,2]',
      '{"cmd":"run","op":"signature.sign","input":{}}',
      '{"cmd":"reboot"}',
      '',
    ];
    const r = await session([{ cmd: 'start', protocol: 1 }, ...garbage, sign, { cmd: 'stop' }, sign], {
      closeStdin: false,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toHaveLength(2);
    const [hello, signed] = r.stdout as [Json, Json];
    expect(validateTesteeLine(hello, { expecting: 'ready' })).toEqual(ok);
    expect(hello).toEqual({
      ready: true,
      protocol: 1,
      implementation: { name: 'pgv2kit-node-example', version: KIT_VERSION, language: 'javascript' },
      operations: ADAPTER_OPERATIONS,
    });
    expect(validateTesteeLine(signed, answer('signature.protocol-test', 'signature.sign'))).toEqual(ok);
    expect(signed).toEqual({ id: 'signature.protocol-test', result: { sign: expectedSign } });
    expect(r.stderr.split('\n').filter((l) => l !== '')).toEqual([
      expect.stringMatching(/^node-adapter: not JSON \(.*\): "this is not json \{"$/),
      'node-adapter: not a JSON object: "[1,2]"',
      expect.stringMatching(/^node-adapter: run without a string id, not answered: /),
      'node-adapter: unknown cmd "reboot": "{\\"cmd\\":\\"reboot\\"}"',
    ]);
  });

  it('replays the worked transcript of PROTOCOL.md answer for answer', async () => {
    const transcript = exampleLines(
      PROTOCOL_MD.slice(
        PROTOCOL_MD.indexOf('<!-- transcript:begin -->'),
        PROTOCOL_MD.indexOf('<!-- transcript:end -->'),
      ),
    );
    const requests = transcript.filter((l) => l.dir === '→').map((l) => l.value);
    expect(requests.map((m) => (m as { cmd: string; op?: string }).op ?? (m as { cmd: string }).cmd)).toEqual([
      'start',
      'signature.sign',
      'authorization.parse',
      'response.verify',
      'client.createPayment',
      'stop',
    ]);
    const r = await session(requests, { closeStdin: false });
    expect(r.code).toBe(0);
    const expected = transcript.filter((l) => l.dir === '←').map((l) => l.value);
    (expected[0] as { implementation: { version: string } }).implementation.version = KIT_VERSION;
    expect(r.stdout).toEqual(expected);
    expect((r.stdout[2] as { rejected?: unknown }).rejected).toBeDefined();
    expect((r.stdout[4] as { rejected?: unknown }).rejected).toBeDefined();
  });

  it('declines another protocol, answers ops it does not offer as unsupported, keeps order, and exits 0 at EOF', async () => {
    const parse = (id: string, header: string) => ({ cmd: 'run', id, op: 'authorization.parse', input: { header } });
    const r = await session([
      { cmd: 'start', protocol: 2 },
      { cmd: 'start', protocol: 1 },
      { cmd: 'run', id: 'f', op: 'upload.formCheck', input: {} },
      { cmd: 'run', id: 'i', op: 'signature.sign', input: 'not an object' },
      { cmd: 'run', id: 'o', input: {} },
      ...Array.from({ length: 50 }, (_, i) => parse(`p${i}`, `V2_SHA256 appId=a${i},sign=s,timestamp=1,nonce=n`)),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout[0]).toEqual({ ready: false, reason: 'this adapter speaks protocol 1 only, not 2' });
    expect(r.stdout[2]).toEqual({ id: 'f', unsupported: { reason: 'this adapter does not offer "upload.formCheck"' } });
    expect(r.stdout[3]).toEqual({ id: 'i', rejected: { reason: 'input must be a JSON object' } });
    expect(r.stdout[4]).toEqual({ id: 'o', unsupported: { reason: 'this adapter does not offer null' } });
    expect(r.stdout.slice(5)).toEqual(
      Array.from({ length: 50 }, (_, i) => ({
        id: `p${i}`,
        result: { appId: `a${i}`, sign: 's', timestamp: '1', nonce: 'n' },
      })),
    );
  });
});

const python = spawnSync('python3', ['--version']).status === 0;

describe.skipIf(!python)('the Python skeleton of PROTOCOL.md', () => {
  it('answers the transcript requests with lines that follow the schema, and signs like node:crypto', () => {
    const code = /```python\n([\s\S]*?)```/.exec(PROTOCOL_MD)?.[1] ?? '';
    expect(code.split('\n').length - 1).toBeGreaterThanOrEqual(20);
    expect(code.split('\n').length - 1).toBeLessThanOrEqual(30);
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-py-'));
    try {
      writeFileSync(join(dir, 'adapter.py'), code);
      const requests = exampleLines(PROTOCOL_MD.slice(PROTOCOL_MD.indexOf('<!-- transcript:begin -->')))
        .filter((l) => l.dir === '→' && (l.value as { cmd: string }).cmd !== 'stop')
        .map((l) => l.value as { cmd: string; id?: string; op?: ProtocolOperation });
      const input = [...requests, 'garbage', { cmd: 'stop' }]
        .map((m) => (typeof m === 'string' ? m : JSON.stringify(m)))
        .join('\n');
      const r = spawnSync('python3', [join(dir, 'adapter.py')], {
        input: `${input}\n`,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status).toBe(0);
      const out = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Json);
      expect(out).toHaveLength(requests.length);
      requests.forEach((m, i) => {
        const context: LineExpectation =
          m.cmd === 'start' ? { expecting: 'ready' } : answer(m.id ?? '', m.op ?? 'signature.sign');
        expect(validateTesteeLine(out[i], context), JSON.stringify(out[i])).toEqual(ok);
      });
      const sign = requests.findIndex((m) => m.op === 'signature.sign');
      expect(out[sign]).toEqual(
        exampleLines(PROTOCOL_MD).find((l) => l.dir === '←' && (l.value as { id?: string }).id === requests[sign]?.id)
          ?.value,
      );
      expect(r.stderr).toMatch(/bad line/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// --- internal ---

/** Every keyword of a schema with the pointer of the schema object it is in (property names are skipped). */
function collect(node: unknown, at: string): Array<{ keyword: string; at: string; value: unknown }> {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => collect(n, `${at}/${i}`));
  return Object.entries(node).flatMap(([k, v]) => {
    const here = { keyword: k, at, value: v };
    if (k === 'properties' || k === '$defs')
      return [here, ...Object.entries(v as object).flatMap(([name, s]) => collect(s, `${at}/${k}/${name}`))];
    return [here, ...collect(v, `${at}/${k}`)];
  });
}

interface ExampleLine {
  readonly dir: '→' | '←';
  readonly text: string;
  readonly value: unknown;
}

/** The → and ← lines of the ```text blocks of a markdown text, parsed. */
function exampleLines(markdown: string): ExampleLine[] {
  const out: ExampleLine[] = [];
  let inText = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      inText = line === '```text';
      continue;
    }
    if (!inText) continue;
    const m = /^(→|←) (.*)$/.exec(line);
    if (m) out.push({ dir: m[1] as '→' | '←', text: m[2] as string, value: JSON.parse(m[2] as string) as unknown });
  }
  return out;
}

/** A value as the wire carries it: through JSON and back. */
function wire(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * Runs the adapter, writes the lines (strings as they are, values as JSON), and waits
 * for it to exit. With closeStdin false, stdin stays open: the exit must come from stop.
 */
function session(
  lines: readonly unknown[],
  { closeStdin = true } = {},
): Promise<{ code: number | null; stdout: Json[]; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADAPTER], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the adapter did not exit; stdout: ${stdout}; stderr: ${stderr}`));
    }, 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({
        code,
        stderr,
        stdout: stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Json),
      });
    });
    child.stdin.write(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n');
    if (closeStdin) child.stdin.end();
  });
}
