/**
 * The process that started a long-running command (`serve`, `proxy`) exiting: `npx pgv2kit serve` in a test set-up
 * is stopped by stopping npx, which passes no signal on, and the command, adopted, would run on holding its ports.
 * @module
 */

/** How often the parent is looked for. */
const PARENT_POLL_MS = 500;

/**
 * Calls `gone` once, when the process's parent has exited (its parent pid changed: it was adopted).
 * @param gone - told the pid of the parent that exited
 * @returns what stops the watch (it never keeps the process alive: the timer is unref'd)
 * @example const stop = watchParent((pid) => console.error(`parent ${pid} exited`)); stop();
 */
export function watchParent(gone: (parent: number) => void): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    gone(parent);
  }, PARENT_POLL_MS).unref();
  return () => clearInterval(timer);
}
