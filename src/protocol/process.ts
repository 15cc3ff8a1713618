/**
 * Supervising a testee's process: its stdout read as lines, its whole process group killed,
 * its pipes released, waits that always settle.
 * @module
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';

/**
 * Reads a stream as lines (LF, a CR before it dropped), each handed over as it ends.
 * @param stream - the testee's stdout or stderr
 * @param onLine - called with each line
 * @param maxLine - the most characters kept of one line: a longer one is cut there and marked "…"
 */
export function splitLines(
  stream: NodeJS.ReadableStream,
  onLine: (line: string) => void,
  maxLine = Number.POSITIVE_INFINITY,
): void {
  // the start of a line not ended yet, in pieces: each chunk is searched once (a line of 100 MB
  // in 64 KiB chunks is not searched again from its start at every chunk); past maxLine, a line
  // is cut there ("…") and the rest of it is dropped as it comes, never held
  let pending: string[] = [];
  let held = 0;
  let cut = false;
  const keep = (piece: string): void => {
    if (cut) return;
    if (held + piece.length > maxLine) {
      pending.push(piece.slice(0, maxLine - held));
      onLine(`${pending.join('')}…`);
      pending = [];
      held = 0;
      cut = true;
      return;
    }
    pending.push(piece);
    held += piece.length;
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl >= 0; nl = chunk.indexOf('\n', start)) {
      keep(chunk.slice(start, nl));
      if (!cut) {
        const line = pending.join('');
        onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
      pending = [];
      held = 0;
      cut = false;
      start = nl + 1;
    }
    if (start < chunk.length) keep(start === 0 ? chunk : chunk.slice(start));
  });
  stream.on('end', () => {
    if (pending.length > 0 && !cut) onLine(pending.join(''));
    pending = [];
  });
}

/**
 * Kills the testee's process group (it is spawned detached, so its shell and that
 * shell's children share one). With `evenIfEnded`, also when the leader has exited:
 * a child it left behind may still hold the pipes open.
 */
export function killGroup(proc: ChildProcessWithoutNullStreams, evenIfEnded = false): void {
  if (!evenIfEnded && hasEnded(proc)) return;
  if (!proc.pid) return;
  try {
    process.kill(-proc.pid, 'SIGKILL');
  } catch {
    if (!hasEnded(proc)) proc.kill('SIGKILL');
  }
}

/** Why spawning failed, naming a working folder that does not exist (Node says only `spawn /bin/sh ENOENT`). */
export function spawnReason(e: Error, cwd: string | undefined): string {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT' && cwd !== undefined && !existsSync(cwd))
    return `the testee could not be started: its working folder ${cwd} does not exist`;
  return `the testee could not be started: ${e.message}`;
}

export function hasEnded(proc: ChildProcessWithoutNullStreams): boolean {
  return proc.exitCode !== null || proc.signalCode !== null;
}

/** Closes our ends of the pipes, so nothing of the child keeps the event loop alive. */
export function releaseStdio(proc: ChildProcessWithoutNullStreams): void {
  proc.stdin.destroy();
  proc.stdout.destroy();
  proc.stderr.destroy();
}

/**
 * Waits for one of `events` on `emitter`, or for `ms` to pass, whichever comes
 * first; at once when `done()` already holds (the event has been and gone). The
 * timer is a normal (ref'd) one, cleared when the event comes: the wait keeps the
 * event loop alive until it settles, so an `await` on it can never be left pending
 * (which would end the CLI with Node's exit code 13, unsettled top-level await).
 * @returns true when the event came (or had come), false on the timeout
 */
export function settleWithin(
  emitter: EventEmitter,
  events: readonly string[],
  done: () => boolean,
  ms: number,
): Promise<boolean> {
  if (done()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (came: boolean): void => {
      clearTimeout(timer);
      for (const e of events) emitter.off(e, onEvent);
      resolve(came);
    };
    const onEvent = (): void => finish(true);
    const timer = setTimeout(() => finish(false), ms);
    for (const e of events) emitter.once(e, onEvent);
  });
}
