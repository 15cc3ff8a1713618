/**
 * A zoo member behind testee protocol v1, so that it is checked as an SDK in another language
 * would be: `node --import tsx test/zoo/protocol-adapter.ts <member>` (member: a file name in
 * test/zoo/members/). Answers in request order; synchronous members answer at once.
 */
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Subject } from '../../src/subjects/subject.js';

const name = process.argv[2] ?? '';
if (!/^[a-z0-9-]+$/.test(name)) {
  process.stderr.write(`usage: protocol-adapter.ts <member>, not ${JSON.stringify(name)}\n`);
  process.exit(2);
}
const mod = (await import(pathToFileURL(join(import.meta.dirname, 'members', `${name}.ts`)).href)) as {
  createSubject(): Subject;
};
const subject = mod.createSubject();
const queue: Array<{ text: string | undefined }> = [];
const flush = (): void => {
  while (queue[0]?.text !== undefined) process.stdout.write(queue.shift()?.text ?? '');
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === '') return;
  const m = JSON.parse(line) as {
    cmd: string;
    id?: string;
    op?: string;
    input?: Record<string, unknown>;
    protocol?: number;
  };
  if (m.cmd === 'stop') process.exit(0);
  const slot: { text: string | undefined } = { text: undefined };
  queue.push(slot);
  if (m.cmd === 'start') {
    slot.text = `${JSON.stringify({ ready: true, protocol: 1, implementation: subject.implementation, operations: subject.operations.filter((op) => !op.startsWith('gateway.') && op !== 'upload.formCheck') })}\n`;
    return flush();
  }
  subject.call(m.op as never, (m.input ?? {}) as never, m.id ?? '').then(
    (answer) => {
      slot.text = `${JSON.stringify({ id: m.id, ...answer })}\n`;
      flush();
    },
    (e: unknown) => {
      slot.text = `${JSON.stringify({ id: m.id, rejected: { reason: String(e) } })}\n`;
      flush();
    },
  );
});
