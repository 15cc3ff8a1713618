/**
 * The child processes of proxy-throughput.ts, started with `fork` (an IPC channel to the bench), each a plain node
 * running the kit from dist/ as a user's process would:
 *
 *     node --expose-gc bench/_live-child.mjs gateway <appId> <appSecret>
 *     node --expose-gc bench/_live-child.mjs far-gateway <appId> <appSecret> <delay ms>
 *     node --expose-gc bench/_live-child.mjs proxy <appId> <appSecret> <upstream> <reportDir>
 *     node --expose-gc bench/_live-child.mjs bare-proxy <appId> <appSecret> <upstream>
 *
 * `gateway`: the reference gateway (startGateway, one merchant). `far-gateway`: the same behind a front that holds
 * each request the delay given before passing it on (a sandbox a round trip away). `proxy`: what `pgv2kit proxy` does — startProxy in
 * front of the upstream, every exchange handed to a LiveSession (judged, its terminal line written to stdout, which
 * the bench points at /dev/null, and streamed to the report folder's files). Each sends `{ ready, url }` when it
 * listens, then answers the bench's messages: `{ type: 'stats', gc }` (memory after an optional full GC, CPU time,
 * exchanges judged so far) and `{ type: 'finish' }` (closes; the proxy writes its reports and sends the outcome and
 * traffic.har's size), then exits. `bare-proxy`: startProxy alone, its exchanges dropped (no judging, no reports):
 * the forwarding's own cost, to tell it from the session's.
 */
import { statSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import { join } from 'node:path';
import { startGateway } from '../dist/gateway/index.js';
import { MerchantBook } from '../dist/gateway/merchants.js';
import { startProxy } from '../dist/live/proxy.js';
import { LiveSession } from '../dist/live/session.js';

const [role, appId, appSecret, upstream, reportDir] = process.argv.slice(2);
const merchant = { appId, appSecret };
const send = (message) => new Promise((resolve) => process.send(message, resolve));

let url;
let judged = () => 0;
let finish;
if (role === 'gateway') {
  const gateway = await startGateway({ merchants: [merchant] });
  url = gateway.baseUrl;
  finish = async () => {
    await gateway.close();
    return {};
  };
} else if (role === 'far-gateway') {
  // the reference gateway behind a front that holds each request `upstream` ms before it passes it on, its Host
  // kept (the gateway verifies over the URL the client addressed): a sandbox a round trip away
  const delay = Number(upstream);
  const gateway = await startGateway({ merchants: [merchant] });
  const port = Number(new URL(gateway.baseUrl).port);
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const front = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const up = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers, agent },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
            answer.pipe(res);
          },
        );
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(chunks));
      }, delay),
    );
  });
  await new Promise((resolve) => front.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${front.address().port}`;
  finish = async () => {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    agent.destroy();
    await gateway.close();
    return {};
  };
} else if (role === 'proxy') {
  const merchants = new MerchantBook([merchant]);
  const session = LiveSession.open({
    name: 'bench',
    target: `proxy → ${upstream}`,
    merchants,
    secrets: [appSecret],
    reportDir,
    print: (text) => process.stdout.write(text),
  });
  const proxy = await startProxy({
    upstream,
    merchants,
    onExchange: async (ex) => {
      await session.add(ex);
    },
  });
  url = proxy.url;
  judged = () => session.counts.exchanges;
  finish = async () => {
    await proxy.close();
    const outcome = await session.finish();
    return { counts: outcome.counts, harBytes: statSync(join(reportDir, 'traffic.har')).size };
  };
} else if (role === 'bare-proxy') {
  const proxy = await startProxy({ upstream, merchants: new MerchantBook([merchant]), onExchange: () => undefined });
  url = proxy.url;
  finish = async () => {
    await proxy.close();
    return {};
  };
} else {
  throw new Error(`unknown role ${role}`);
}

process.on('message', (m) => {
  void (async () => {
    if (m.type === 'stats') {
      if (m.gc) globalThis.gc?.();
      const cpu = process.cpuUsage();
      await send({
        type: 'stats',
        memory: process.memoryUsage(),
        cpuMs: (cpu.user + cpu.system) / 1000,
        judged: judged(),
      });
    } else if (m.type === 'finish') {
      const result = await finish();
      await send({ type: 'finished', ...result });
      process.exit(0);
    }
  })();
});
await send({ type: 'ready', url });
