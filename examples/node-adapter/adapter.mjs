#!/usr/bin/env node
/**
 * A testee for pgv2kit's testee protocol 1 (docs/PROTOCOL.md) that answers
 * with the kit's own reference implementation. Plain JavaScript, no build step:
 *
 *     pgv2kit run --testee "node examples/node-adapter/adapter.mjs"
 *
 * One JSON object per line on stdin; exactly one answer line on stdout per `start`
 * and `run`, in request order, written as soon as it (and every answer before it) is
 * ready; `stop` or EOF ends the process with exit code 0. A line it cannot use is
 * reported on stderr and never answered; stdout carries protocol lines only.
 *
 * The client operations (client.upload, client.createPayment) make real HTTP calls with
 * the kit's reference client to the baseUrl the runner gives, so their answers come later
 * than the others': each answer waits in a queue until every answer before it is written,
 * so the order is always the order of the requests. Each HTTP call times out after 4 s,
 * below the runner's default per-case timeout (5 s), so a gateway that does not answer
 * gives a `rejected` answer rather than a killed testee.
 *
 * Copy it for your own Node library: replace `subject.call(op, input, id)` with calls
 * into your code, and the operations list with the ones you implement.
 */
import { createInterface } from 'node:readline';
import { PROTOCOL_OPERATIONS, createReferenceSubject } from 'pgv2kit';

const PROTOCOL = 1;
const subject = createReferenceSubject({ client: { timeoutMs: 4_000 } });
/** Exactly the reference's operations that protocol 1 sends (client.* included; not the kit-internal ones such as upload.formCheck). */
const operations = subject.operations.filter((op) => PROTOCOL_OPERATIONS.includes(op));
const offered = new Set(operations);
/** Who answers: this example, named apart from the kit's built-in reference (pgv2kit-reference) so that their runs and reports are told apart; the version is the kit's. */
const implementation = {
  name: 'pgv2kit-node-example',
  version: subject.implementation.version,
  language: 'javascript',
};

/** Answers not yet written, in request order: `{ text }` once ready, `{ text: undefined }` while pending. */
const queue = [];
let stopping = false;

// The runner stopped reading (it closed our stdout): nothing more can be answered.
process.stdout.on('error', () => process.exit(0));

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
lines.on('line', onLine);
lines.on('close', () => finish());

function onLine(line) {
  if (stopping) return;
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (e) {
    return complain(`not JSON (${e.message}): ${clip(line)}`);
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message))
    return complain(`not a JSON object: ${clip(line)}`);
  switch (message.cmd) {
    case 'start':
      return enqueue(hello(message.protocol));
    case 'run':
      return run(message, line);
    case 'stop':
      stopping = true;
      lines.close();
      return undefined;
    default:
      return complain(`unknown cmd ${JSON.stringify(message.cmd)}: ${clip(line)}`);
  }
}

function hello(protocol) {
  if (protocol !== PROTOCOL)
    return { ready: false, reason: `this adapter speaks protocol ${PROTOCOL} only, not ${JSON.stringify(protocol)}` };
  return { ready: true, protocol: PROTOCOL, implementation, operations };
}

function run(message, line) {
  const { id, op, input } = message;
  if (typeof id !== 'string') return complain(`run without a string id, not answered: ${clip(line)}`);
  if (!offered.has(op))
    return enqueue({ id, unsupported: { reason: `this adapter does not offer ${JSON.stringify(op ?? null)}` } });
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return enqueue({ id, rejected: { reason: 'input must be a JSON object' } });
  const slot = { text: undefined };
  queue.push(slot);
  subject.call(op, input, id).then(
    (answer) => settle(slot, { id, ...answer }),
    // The implementation raised: protocol 1 calls that "rejected".
    (e) =>
      settle(slot, {
        id,
        rejected: { reason: `the implementation threw: ${e instanceof Error ? e.message : String(e)}` },
      }),
  );
  return undefined;
}

/** Queues an answer that is ready now. */
function enqueue(answer) {
  queue.push({ text: `${JSON.stringify(answer)}\n` });
  scheduleFlush();
}

let settled = 0;
function settle(slot, answer) {
  slot.text = `${JSON.stringify(answer)}\n`;
  // every 32 answers go out at once, the rest when this read's lines are done: the runner gets
  // answers (and sends more work) while this adapter goes on, at one write per 32 answers
  if (++settled % 32 === 0) flush();
  else scheduleFlush();
}

let flushScheduled = false;
/** Flushes once the answers settled by the current lines are all in: one write for many answers, not one each. */
function scheduleFlush() {
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(() => {
    flushScheduled = false;
    flush();
  });
}

/** Writes every ready answer at the head of the queue, in one write. */
function flush() {
  let out = '';
  while (queue.length > 0 && queue[0].text !== undefined) out += queue.shift().text;
  if (out) process.stdout.write(out);
  if (stopping && queue.length === 0) exit();
}

/** stop or EOF: answer what is still pending, then exit. */
function finish() {
  stopping = true;
  scheduleFlush();
}

let exiting = false;
function exit() {
  if (exiting) return;
  exiting = true;
  // The callback runs once everything written so far has been handed to the OS.
  process.stdout.write('', () => process.exit(0));
}

function complain(problem) {
  process.stderr.write(`node-adapter: ${problem}\n`);
}

function clip(text) {
  return text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}…` : JSON.stringify(text);
}
