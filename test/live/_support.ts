/**
 * What the live-traffic tests share: a client proxy whose exchanges are collected, and a raw HTTP/1.1 exchange on
 * one connection.
 */
import { connect } from 'node:net';
import type { MerchantBook } from '../../src/gateway/merchants.js';
import type { LiveExchange } from '../../src/live/exchange.js';
import { startProxy, type ProxyOptions } from '../../src/live/proxy.js';

/**
 * A proxy whose exchanges are collected: `seen(n)` resolves once n were handed on, `next(act)` with the exchange of
 * the next request `act` makes.
 */
export async function proxied(merchants: MerchantBook, options: Omit<ProxyOptions, 'merchants' | 'onExchange'>) {
  const exchanges: LiveExchange[] = [];
  const waiting: Array<() => void> = [];
  const proxy = await startProxy({
    ...options,
    merchants,
    onExchange: (ex) => {
      exchanges.push(ex);
      waiting.splice(0).forEach((w) => w());
    },
  });
  const seen = async (n: number): Promise<LiveExchange[]> => {
    while (exchanges.length < n) await new Promise<void>((r) => waiting.push(r));
    return exchanges;
  };
  const next = async (act: () => Promise<unknown>): Promise<LiveExchange> => {
    const before = exchanges.length;
    await act();
    const ex = (await seen(before + 1))[before];
    if (ex === undefined) throw new Error('no exchange');
    return ex;
  };
  return { proxy, exchanges, seen, next };
}

/** What a raw HTTP/1.1 exchange on one connection brought back, whole (the connection closed). */
export function raw(url: string, text: string, hangUp = false): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const got: Buffer[] = [];
    socket.on('data', (b: Buffer) => got.push(b));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(got).toString('latin1')));
    socket.write(text, () => {
      if (hangUp) socket.destroy();
    });
  });
}
