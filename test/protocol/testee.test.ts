/**
 * The testee session against testees that misbehave: every failure fails only the
 * case it happened on, the testee is restarted, and the cases after it still run.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startTestee, TesteeStartError, type TesteeOptions } from '../../src/protocol/testee.js';

const fixture = fileURLToPath(new URL('./fixtures/misbehaving-testee.mjs', import.meta.url));
const options = (env: Record<string, string>, extra: Partial<TesteeOptions> = {}): TesteeOptions & { logged: string[] } => {
  const logged: string[] = [];
  return { command: `"${process.execPath}" "${fixture}"`, env: { ...process.env, ...env }, timeoutMs: 1500, startTimeoutMs: 5000, log: (l) => logged.push(l), logged, ...extra };
};
const ids = ['c-1', 'c-2-bad', 'c-3', 'c-4'];

async function runAll(env: Record<string, string>, extra: Partial<TesteeOptions> = {}) {
  const opts = options(env, extra);
  const session = await startTestee(opts);
  const answers = await Promise.all(ids.map((id) => session.call(id, 'signature.sign', { appSecret: 'sk_test_supersecret' })));
  const restarts = session.restarts;
  await session.close();
  return { answers, restarts, logged: opts.logged, hello: session.hello };
}

describe('testee session', () => {
  it('handshakes, keeps only protocol operations, and matches answers in order with write-ahead', async () => {
    const { answers, restarts, hello } = await runAll({});
    expect(hello.implementation).toEqual({ name: 'misbehaving', version: '0.0.1', language: 'javascript' });
    expect(hello.operations).toEqual(['signature.sign', 'signature.content']);
    expect(hello.unknownOperations).toEqual(['x.unknown']);
    expect(answers).toEqual(ids.map((id) => ({ result: { sign: `signature.sign:${id}` } })));
    expect(restarts).toBe(0);
  });

  it.each([
    ['crash', /^the testee exited with code 3 before answering$/],
    ['hang', /^no answer within 1500 ms$/],
    ['garbage', /^the answer is not JSON: "not json"$/],
    ['wrongid', /^the answer has id "someone-else", expected "c-2-bad"$/],
  ])('%s: fails only that case, restarts, goes on', async (mode, reason) => {
    const { answers, restarts, logged } = await runAll({ MODE: mode });
    expect(answers[1]).toMatchObject({ failed: { reason: expect.stringMatching(reason) } });
    for (const i of [0, 2, 3]) expect(answers[i]).toEqual({ result: { sign: `signature.sign:${ids[i]}` } });
    expect(restarts).toBe(1);
    expect(logged.some((l) => l.startsWith('restarting the testee (restart 1)'))).toBe(true);
  }, 15_000);

  it('an answer without result, rejected or unsupported fails that case without a restart', async () => {
    const { answers, restarts } = await runAll({ MODE: 'noanswerkind' });
    expect(answers[1]).toEqual({ failed: { reason: 'the answer must have exactly one of result, rejected, unsupported (it has none)' } });
    expect(restarts).toBe(0);
  });

  it('a line too many is a protocol problem: logged, and the testee restarted', async () => {
    const { answers, logged } = await runAll({ MODE: 'twolines' });
    expect(answers[1]).toEqual({ result: { sign: 'signature.sign:c-2-bad' } });
    expect(answers.slice(2).every((a) => 'result' in a || 'failed' in a)).toBe(true);
    expect(logged.some((l) => l.startsWith('protocol: a line when no request was waiting') || l.includes('expected "c-3"'))).toBe(true);
  });

  it("keeps the testee's stderr in the log", async () => {
    const { logged } = await runAll({ MODE: 'stderr' });
    expect(logged).toContain('testee stderr: oops with secret sk_test_supersecret');
  });

  it('hands each line to the validator and fails the case on its problems', async () => {
    const opts = options({}, { validate: (m, ctx) => (ctx.expecting === 'answer' && (m as { id: string }).id === 'c-3' ? ['/result/sign: must be hex'] : []) });
    const session = await startTestee(opts);
    const answers = await Promise.all(ids.map((id) => session.call(id, 'signature.sign', {})));
    await session.close();
    expect(answers[2]).toEqual({ failed: { reason: 'protocol: /result/sign: must be hex' } });
    expect(answers[3]).toMatchObject({ result: {} });
  });

  it.each([
    ['notready', 'the testee is not ready: this testee needs protocol 7'],
    ['wrongprotocol', 'the testee speaks protocol 2, not 1'],
    ['silent', 'the testee did not answer start within 1500 ms'],
    ['exit', 'the testee exited with code 9 before it was ready'],
    ['garbage', 'the answer to start is not JSON: "hello?"'],
  ])('start %s: refused with a TesteeStartError', async (start, message) => {
    await expect(startTestee(options({ START: start }, start === 'silent' ? { startTimeoutMs: 1500 } : {}))).rejects.toThrow(new TesteeStartError(message));
  }, 10_000);

  it('a command that does not exist is a start error naming its stderr', async () => {
    await expect(startTestee({ command: 'pgv2kit-no-such-command-xyz', timeoutMs: 1000, startTimeoutMs: 3000 })).rejects.toThrow(/exited with code 127 before it was ready; its stderr ended with: .*not found/);
  });

  it('gives up when the testee cannot be restarted, failing what is left', async () => {
    const opts = options({ MODE: 'crash' });
    const session = await startTestee(opts);
    const first = session.call('c-1', 'signature.sign', {});
    const bad = session.call('c-2-bad', 'signature.sign', {});
    await first;
    await bad;
    // from now on the testee refuses to start: the restart fails
    (opts.env as Record<string, string>)['START'] = 'notready';
    const after = await session.call('c-3-bad', 'signature.sign', {});
    const later = await session.call('c-4', 'signature.sign', {});
    expect(after).toMatchObject({ failed: {} });
    expect(session.failure).toMatch(/^the testee could not be restarted: the testee is not ready/);
    expect(later).toEqual({ failed: { reason: session.failure } });
    await session.close();
  }, 15_000);
});
