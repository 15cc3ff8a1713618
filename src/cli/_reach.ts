/**
 * Before any case: every HTTP target the run will call is reached once (a TCP connection), so
 * a wrong URL or a server that is down is one line and exit 3, not a page of per-case errors.
 * @module
 */
import { reach } from '../subjects/reach.js';
import { Pgv2kitError } from '../errors.js';

/** A target could not be reached: the run did not start (exit 3). */
export class TargetUnreachableError extends Pgv2kitError {
  /** Stable code for programs. */
  override readonly code = 'PGV2_TARGET_UNREACHABLE';
  /** A failure (exit 3). */
  override readonly exit = 'failure';
  override readonly name = 'TargetUnreachableError';

  /**
   * @param what - the target, in words (`the gateway`)
   * @param url - its URL, as given
   * @param reason - why it was not reached (`connection refused (127.0.0.1:9)`)
   */
  constructor(
    readonly what: string,
    readonly url: string,
    readonly reason: string,
  ) {
    super(`${what} at ${url} cannot be reached: ${reason}`);
  }
}

/**
 * Reaches each target once, in order (each distinct host and port once).
 * @param targets - what each is, in words (`the gateway`), and its URL
 * @param timeoutMs - how long a connection may take (at least {@link MIN_REACH_MS})
 * @throws {TargetUnreachableError} naming the first target not reached, its URL and why
 * @example await requireReachable([{ what: 'the gateway', url: gateway.baseUrl }], 5000)
 */
export async function requireReachable(
  targets: ReadonlyArray<{ readonly what: string; readonly url: string }>,
  timeoutMs: number,
): Promise<void> {
  const seen = new Set<string>();
  for (const t of targets) {
    const key = origin(t.url);
    if (seen.has(key)) continue;
    seen.add(key);
    const r = await reach(t.url, Math.max(timeoutMs, MIN_REACH_MS));
    if (!r.ok) throw new TargetUnreachableError(t.what, t.url, r.reason);
  }
}

/**
 * The least time a connection is given before a target is called unreachable, whatever --timeout says:
 * --timeout is how long an answer may take, and a connection a loaded machine opens in 30 ms rather
 * than 25 is no sign that the target cannot be reached (a refused or unresolvable one fails at once).
 */
const MIN_REACH_MS = 2000;

function origin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
