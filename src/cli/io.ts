/**
 * What a command may touch of the outside world: output streams, the environment
 * and the working folder. Tests pass their own to run `main` in process.
 * @module
 */
import { Masker, MIN_SECRET_LENGTH } from '../scheme/mask.js';
import { inertOutput } from '../scheme/terminal-text.js';

/** The outside world of one CLI run. */
export interface CliIo {
  /** Writes text to standard output, as given (commands end their lines with LF). */
  readonly stdout: (s: string) => void;
  /** Writes text to standard error, as given. */
  readonly stderr: (s: string) => void;
  /** The environment variables. */
  readonly env: Record<string, string | undefined>;
  /** The folder relative paths are resolved against. */
  readonly cwd: string;
  /** Whether standard error is a terminal (progress is then drawn in place). */
  readonly isTTY?: boolean;
  /** Whether standard output is a terminal (colours, unless NO_COLOR: see {@link useColour}). */
  readonly stdoutIsTTY?: boolean;
  /** Reads all of standard input, for `-` as a file name; absent when there is none. */
  readonly readStdin?: () => Promise<Uint8Array>;
}

/**
 * The io of the running process.
 * @returns an io writing to process.stdout and process.stderr
 * @example processIo().cwd === process.cwd() // true
 */
export function processIo(): CliIo {
  return {
    stdout: (s) => void process.stdout.write(s),
    stderr: (s) => void process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stderr.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const all = Buffer.concat(chunks);
      return new Uint8Array(all.buffer, all.byteOffset, all.byteLength);
    },
  };
}

/**
 * Whether to colour the output, as https://no-color.org and the FORCE_COLOR convention say:
 * NO_COLOR set to anything but the empty string turns colours off; else FORCE_COLOR set to
 * anything but `0` or `false` turns them on; else colours go to a terminal only.
 * @param io - the environment and whether standard output is a terminal
 * @returns true to colour
 * @example useColour({ env: { NO_COLOR: '1' }, stdoutIsTTY: true }) // false
 */
export function useColour(io: Pick<CliIo, 'env' | 'stdoutIsTTY'>): boolean {
  const no = io.env['NO_COLOR'];
  if (no !== undefined && no !== '') return false;
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return io.stdoutIsTTY === true;
}

/**
 * Secrets shorter than this are not searched for in output: every occurrence of a
 * two-letter "secret" would be masked, making the output unreadable. Commands never
 * print a secret by construction; this is the safety net behind that. The same floor as the
 * report files' (one masker, one rule: src/scheme/mask.ts).
 */
export const MIN_REDACTED_SECRET_LENGTH = MIN_SECRET_LENGTH;

/**
 * An io whose output has every secret masked ({@link maskingWith}: the masker the report files
 * use) and every control character other than the kit's own colours and progress line made
 * visible ({@link inertOutput}): the safety nets behind commands that never print a secret by
 * construction and renderers that make untrusted text inert.
 * @param io - the io to wrap
 * @param secrets - the secrets to mask; may grow while the command runs
 * @returns the wrapped io
 * @example redactingIo(io, new Set([io.env['PGV2_APP_SECRET'] ?? '']))
 */
export function redactingIo(io: CliIo, secrets: ReadonlySet<string>): CliIo {
  const masker = currentMasker(secrets);
  const clean = (s: string): string => inertOutput(maskOutput(s, masker()));
  return { ...io, stdout: (s) => io.stdout(clean(s)), stderr: (s) => io.stderr(clean(s)) };
}

/**
 * What {@link redactingIo} masks in a text, for a text that is then encoded (a JSON string): the
 * kit's one {@link Masker}, the same rule as the report files' — each secret in any ASCII case and
 * encoding, its 12-byte fragments, its base64. The masker is built once and built again when the
 * set has grown (a vector secret learned after loading).
 * @param secrets - the secrets to mask; may grow while the command runs
 * @returns the masking function
 * @example maskingWith(new Set(['s3cret-value']))('key S3CRET-VALUE') // 'key ‹12 bytes masked: part of a secret›'
 */
export function maskingWith(secrets: ReadonlySet<string>): (text: string) => string {
  const masker = currentMasker(secrets);
  return (s) => masker().text(s);
}

// --- internal ---

/** The masker of a set of secrets that may grow: built again when it has. */
function currentMasker(secrets: ReadonlySet<string>): () => Masker {
  let masker = new Masker(secrets);
  let size = secrets.size;
  return () => {
    if (secrets.size !== size) {
      masker = new Masker(secrets);
      size = secrets.size;
    }
    return masker;
  };
}

/**
 * A text on its way out, masked. A JSON document (what --json prints, masked as data before it was encoded) is masked
 * as data again, never as text: masking its text could cut through its quotes and escapes and break it.
 */
function maskOutput(s: string, masker: Masker): string {
  if (masker.empty) return s;
  if (/^[{[]/.test(s) && /[}\]]\n?$/.test(s)) {
    let value: unknown;
    try {
      value = JSON.parse(s);
    } catch {
      return masker.text(s);
    }
    const masked = JSON.stringify(masker.data(value));
    return masked === JSON.stringify(value) ? s : `${masked}${s.endsWith('\n') ? '\n' : ''}`;
  }
  return masker.text(s);
}
