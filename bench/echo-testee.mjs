#!/usr/bin/env node
/**
 * The cost floor of testee protocol 1: a testee that does no work. It answers `start`
 * with a ready line offering the operations named in its arguments (the bench passes
 * the Node adapter's list, so both are sent the same cases), every `run` line at once
 * with `{"id":…,"result":{}}`, and exits on `stop` or end of input.
 *
 * What remains is spawning node, the pipes and the JSON framing: each line is parsed
 * (any testee must read the id) and each answer stringified. Answers to the lines of
 * one read are written together, in one write.
 *
 *     node bench/echo-testee.mjs signature.sign,signature.content
 */
const operations = (process.argv[2] ?? '').split(',').filter(Boolean);
let buffered = '';

process.stdout.on('error', () => process.exit(0));
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffered += chunk;
  let out = '';
  let start = 0;
  let nl = buffered.indexOf('\n', start);
  while (nl >= 0) {
    const line = buffered.slice(start, nl);
    start = nl + 1;
    nl = buffered.indexOf('\n', start);
    const message = JSON.parse(line);
    if (message.cmd === 'run') out += `${JSON.stringify({ id: message.id, result: {} })}\n`;
    else if (message.cmd === 'start') out += `${JSON.stringify(hello())}\n`;
    else if (message.cmd === 'stop') return stop(out);
  }
  buffered = buffered.slice(start);
  if (out) process.stdout.write(out);
  return undefined;
});
process.stdin.on('end', () => stop(''));

function hello() {
  return {
    ready: true,
    protocol: 1,
    implementation: { name: 'echo', version: '0', language: 'javascript' },
    operations,
  };
}

function stop(out) {
  process.stdout.write(out, () => process.exit(0));
}
