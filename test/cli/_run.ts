/**
 * Runs the CLI in process with a captured io.
 */
import { runCli, main } from '../../src/cli/main.js';
import type { Command } from '../../src/cli/command.js';
import type { CliIo } from '../../src/cli/io.js';

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  readonly cwd?: string;
  readonly stdin?: Uint8Array;
  /** Run over these commands instead of the registry. */
  readonly commands?: readonly Command[];
  /** Pretend standard error / standard output is a terminal. */
  readonly isTTY?: boolean;
  readonly stdoutIsTTY?: boolean;
}

/**
 * Runs `pgv2kit <argv>` in process.
 * @param argv - the arguments after pgv2kit
 * @param options - env (default: none), cwd, stdin bytes
 * @returns exit code and everything written
 */
export async function run(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    // the kit's own tests hold each property to 20 inputs from seed 1 (PGV2KIT_PROPERTIES, PGV2KIT_SEED), unless a test says otherwise
    env: { PGV2KIT_PROPERTIES: '20', PGV2KIT_SEED: '1', ...(options.env ?? {}) },
    cwd: options.cwd ?? process.cwd(),
    ...(options.stdin ? { readStdin: async () => options.stdin ?? new Uint8Array() } : {}),
    ...(options.isTTY !== undefined ? { isTTY: options.isTTY } : {}),
    ...(options.stdoutIsTTY !== undefined ? { stdoutIsTTY: options.stdoutIsTTY } : {}),
  };
  const code = options.commands ? await runCli(argv, io, options.commands) : await main(argv, io);
  return { code, stdout, stderr };
}
