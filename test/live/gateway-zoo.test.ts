/**
 * The gateway zoo (test/zoo/gateways/registry.ts) behind the judging proxy (issue 26): a client's genuine calls —
 * a payment and upload credentials, made with the kit's client in process — go through `startProxy` to each member
 * whose bug is in what it answers (a `reply` bug: an answer unsigned, signed before it was rewritten, with the wrong
 * Content-Type, errorMessage or formFields), and the proxy judges an answer of each not conformant, every finding
 * on the response; the front without a bug is judged conformant, exchange by exchange. A member whose bug is in
 * what it accepts (a `request` or `upload` bug) shows only when a client sends what must be refused: that is the
 * gateway role's to send (`pgv2kit run --gateway`, test/zoo/gateways/gateways.test.ts), never the proxy's, which
 * forwards what its client sends.
 */
import { describe, expect, it } from 'vitest';
import { createPayment } from '../../src/client/create-payment.js';
import { requestUploadCredentials } from '../../src/client/credentials.js';
import { MerchantBook } from '../../src/gateway/merchants.js';
import { judgeExchange, type LiveJudgement } from '../../src/live/judge.js';
import type { GatewayBug } from '../zoo/gateways/proxy.js';
import { startZooGateway } from '../zoo/gateways/proxy.js';
import { GATEWAY_ZOO } from '../zoo/gateways/registry.js';
import { proxied } from './_support.js';

/** The proxy's judgements of a payment and of upload credentials asked through it, in that order. */
async function throughProxy(bug: GatewayBug): Promise<LiveJudgement[]> {
  const gateway = await startZooGateway(bug);
  const merchants = new MerchantBook([{ appId: gateway.appId, appSecret: gateway.appSecret }]);
  const p = await proxied(merchants, { upstream: gateway.baseUrl });
  try {
    const client = { baseUrl: p.proxy.url, appId: gateway.appId, appSecret: gateway.appSecret };
    // a client that refuses what does not verify rejects: the exchange was judged all the same
    await createPayment({ ...client, payment: { merchantTradeNo: 'MT-zoo', amount: '1.00', currency: 'EUR' } }).catch(
      () => undefined,
    );
    await requestUploadCredentials({
      ...client,
      filename: 'evidence.pdf',
      contentType: 'application/pdf',
      scene: 'DISPUTE_EVIDENCE',
    }).catch(() => undefined);
    const exchanges = await p.seen(2);
    return await Promise.all(exchanges.map((ex) => judgeExchange(ex, { merchants })));
  } finally {
    await p.proxy.close();
    await gateway.close();
  }
}

const ANSWER_BUGS = GATEWAY_ZOO.filter((m) => m.bug.reply !== undefined);

describe('the gateway zoo behind the proxy', () => {
  it('the front without a bug: every exchange conformant', async () => {
    expect((await throughProxy({})).map((j) => [j.verdict, j.findings])).toEqual([
      ['conformant', []],
      ['conformant', []],
    ]);
  });

  it('has members whose bug is in what they answer', () => {
    expect(ANSWER_BUGS.length).toBeGreaterThanOrEqual(5);
  });

  it.concurrent.each(ANSWER_BUGS)('$id: caught on the response ($what)', async (member) => {
    const judged = await throughProxy(member.bug);
    expect(judged.some((j) => j.verdict === 'not conformant')).toBe(true);
    expect(judged.flatMap((j) => j.findings.map((f) => f.about)).filter((a) => a !== 'response')).toEqual([]);
    for (const j of judged) expect(j.verdict).not.toBe('not judged');
  });
});
