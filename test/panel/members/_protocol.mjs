// The stdio loop of testee protocol v1 (docs/PROTOCOL.md), shared by the Node panel
// members: one JSON request per LF-terminated line on stdin, exactly one answer line per `run`,
// in order; `stop` (or end of input) ends the process with code 0. Nothing of the signing scheme
// lives here: every member implements the operations itself, independently of the others.

/**
 * Serves protocol v1 on stdin/stdout.
 * @param {{name: string, version: string, language: string}} implementation
 * @param {Record<string, (input: any) => object>} operations operation name to a function that
 *   returns the result object; a throw answers `rejected` with the error's message.
 */
export function serve(implementation, operations) {
  /** @type {Buffer[]} */
  let pending = [];
  let stopped = false;

  const write = (message) => {
    process.stdout.write(`${JSON.stringify(message)}\n`);
  };

  const handle = (line) => {
    if (line.length === 0) return;
    let message;
    try {
      message = JSON.parse(line.toString('utf8'));
    } catch (e) {
      process.stderr.write(`not a JSON line: ${e.message}\n`);
      return;
    }
    if (message.cmd === 'start') {
      if (message.protocol !== 1) {
        write({ ready: false, reason: 'this testee speaks protocol 1 only' });
        return;
      }
      write({ ready: true, protocol: 1, implementation, operations: Object.keys(operations) });
      return;
    }
    if (message.cmd === 'stop') {
      stopped = true;
      process.stdin.destroy();
      return;
    }
    if (message.cmd !== 'run') {
      process.stderr.write(`unknown command ${JSON.stringify(message.cmd)}\n`);
      return;
    }
    const operation = Object.hasOwn(operations, message.op) ? operations[message.op] : undefined;
    if (operation === undefined) {
      write({ id: message.id, unsupported: { reason: `${message.op} is not implemented` } });
      return;
    }
    try {
      write({ id: message.id, result: operation(message.input ?? {}) });
    } catch (e) {
      write({ id: message.id, rejected: { reason: String(e?.message ?? e) } });
    }
  };

  process.stdin.on('data', (chunk) => {
    if (stopped) return;
    let start = 0;
    for (let lf = chunk.indexOf(0x0a); lf !== -1; lf = chunk.indexOf(0x0a, start)) {
      pending.push(chunk.subarray(start, lf));
      const line = Buffer.concat(pending);
      pending = [];
      start = lf + 1;
      handle(line);
      if (stopped) return;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  process.stdin.on('end', () => {
    if (!stopped && pending.length > 0) handle(Buffer.concat(pending));
  });
  process.stdin.on('close', () => {
    process.exitCode = 0;
  });
}
