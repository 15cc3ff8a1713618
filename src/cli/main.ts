/**
 * The entry point of the `pgv2kit` CLI: picks the command, parses its options,
 * runs it and turns every failure into a message and an exit code (exit-codes.ts).
 * A user's mistake never shows a stack trace; output never shows a secret.
 * @module
 */
import { VectorSetError, formatProblem } from '../vectors/errors.js';
import { Pgv2kitError } from '../errors.js';
import { HELP_OPTION, findSecrets, parseCommandArgs } from './_args.js';
import { kitVersion } from '../version.js';
import type { Command } from './command.js';
import { EXIT } from './exit-codes.js';
import { formatCommandHelp, formatMainHelp } from './help.js';
import { maskingWith, redactingIo, type CliIo } from './io.js';
import { COMMANDS } from './registry.js';
import { clip } from '../scheme/text.js';
import { closest } from '../closest.js';
import { DEMO_MERCHANT } from '../gateway/merchants.js';

export { processIo, type CliIo } from './io.js';

/** Set to 1 to print the stack of an internal error. */
export const DEBUG_ENV = 'PGV2KIT_DEBUG';

/**
 * Runs the CLI.
 * @param argv - the arguments after `pgv2kit` (process.argv.slice(2))
 * @param io - output, environment and working folder
 * @returns the exit code: 0 success, 1 nonconformance, 2 usage, 3 failure
 * @example await main(['--version'], io) // 0
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  return runCli(argv, io, COMMANDS);
}

/**
 * Runs the CLI over a given command list (main uses {@link COMMANDS}; tests and
 * embedders may pass their own).
 * @param argv - the arguments after `pgv2kit`
 * @param io - output, environment and working folder
 * @param commands - the commands to offer
 * @returns the exit code
 * @example await runCli(['vectors'], io, COMMANDS)
 */
export async function runCli(argv: readonly string[], io: CliIo, commands: readonly Command[]): Promise<number> {
  const findCommand = (name: string): Command | undefined => commands.find((c) => c.name === name);
  const unknownCommand = (out: CliIo, name: string): number => {
    const near = closest(
      name,
      commands.map((c) => c.name),
    );
    const hint = near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : '';
    return usage(
      out,
      undefined,
      `unknown command ${JSON.stringify(clip(name, 40))}${hint}; ` +
        `the commands are ${commands.map((c) => c.name).join(', ')}`,
    );
  };
  // every secret given, but the demo merchant's: published (docs/guide/gateway.md exports it, serve prints it), so
  // masking it protects nothing, and its 12 bytes in common with the demo appId masked that appId everywhere
  const given = (found: string[]): string[] => found.filter((s) => s !== DEMO_MERCHANT.appSecret);
  const secrets = new Set<string>(commands.flatMap((c) => given(findSecrets([], c.options, io.env))));
  const out = redactingIo(io, secrets);
  const [first, ...rest] = argv;

  if (first === undefined) {
    out.stderr(formatMainHelp(commands));
    return EXIT.usage;
  }
  if (first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic === undefined) {
      out.stdout(formatMainHelp(commands));
      return EXIT.ok;
    }
    const command = findCommand(topic);
    if (!command) return unknownCommand(out, topic);
    out.stdout(formatCommandHelp(command));
    return EXIT.ok;
  }
  if (first === '-v' || first === '-V' || first === '--version') {
    out.stdout(`${kitVersion()}\n`);
    return EXIT.ok;
  }
  if (first.startsWith('-'))
    return usage(
      out,
      undefined,
      `unknown option ${clip(first.split('=')[0] ?? first, 40)} (options follow the command)`,
    );

  const command = findCommand(first);
  if (!command) return unknownCommand(out, first);
  for (const s of given(findSecrets(rest, command.options, io.env))) secrets.add(s);

  const cleanups: Array<() => void> = [];
  // --json promises one JSON document on stdout, however the command ends: when an error ends it before the
  // command wrote its own, the error is that document (issue 25, item 5)
  const wantsJson = 'json' in command.options && rest.some((a) => a === '--json' || a.startsWith('--json='));
  let wroteStdout = false;
  const commandIo: CliIo = wantsJson
    ? {
        ...out,
        stdout: (t) => {
          wroteStdout = true;
          out.stdout(t);
        },
      }
    : out;
  const jsonError = (code: number, error: { code: string; exit: string; message: string }): number => {
    // masked before it is encoded: a secret escaped in JSON would escape the output's masking
    const masked = { ...error, message: maskingWith(secrets)(error.message) };
    if (wantsJson && !wroteStdout)
      out.stdout(`${JSON.stringify({ command: command.name, exitCode: code, error: masked })}\n`);
    return code;
  };
  // a command that ends the process itself (a second Ctrl-C, a signal while fuzzing) before its document: the
  // document is the signal's, written as the process exits (stdout to a pipe or a file is written synchronously)
  const onExit = (code: number): void => {
    const signal = code === EXIT.interrupted ? 'SIGINT' : code === EXIT.terminated ? 'SIGTERM' : undefined;
    jsonError(code, {
      code: signal ? 'PGV2_INTERRUPTED' : 'PGV2_EXITED',
      exit: signal ? (signal === 'SIGINT' ? 'interrupted' : 'terminated') : 'failure',
      message: signal ? `interrupted by ${signal}` : `the command ended (exit ${code}) before its summary`,
    });
  };
  if (wantsJson) process.once('exit', onExit);
  try {
    const { values, positionals } = parseCommandArgs(
      rest,
      { ...command.options, ...HELP_OPTION },
      command.arguments !== undefined,
    );
    if (values['help'] === true) {
      out.stdout(formatCommandHelp(command));
      return EXIT.ok;
    }
    return await command.run({
      values,
      positionals,
      io: commandIo,
      addSecret: (s) => void secrets.add(s),
      atEnd: (cleanup) => void cleanups.push(cleanup),
    });
  } catch (e) {
    // the one place an error becomes an exit code: a kit error by its exit class, anything else is internal
    if (e instanceof Pgv2kitError)
      return jsonError(kitError(out, command.name, e), { code: e.code, exit: e.exit, message: e.message });
    const message = e instanceof Error ? e.message : String(e);
    out.stderr(`pgv2kit ${command.name}: internal error: ${message}\n`);
    if (io.env[DEBUG_ENV] && e instanceof Error && e.stack) out.stderr(`${e.stack}\n`);
    else out.stderr(`(set ${DEBUG_ENV}=1 for the stack trace; please report it)\n`);
    return jsonError(EXIT.failure, { code: 'PGV2_INTERNAL', exit: 'failure', message: `internal error: ${message}` });
  } finally {
    process.off('exit', onExit);
    for (const cleanup of cleanups.reverse()) cleanup();
  }
}

// --- internal ---

/**
 * A kit error as the CLI reports it: a usage error (exit 2) as one line and the help hint, a
 * vector set that does not load with its problems one a line (exit 2), a failure (exit 3) as
 * one line.
 */
function kitError(io: CliIo, command: string, e: Pgv2kitError): number {
  if (e instanceof VectorSetError) {
    io.stderr(
      `pgv2kit ${command}: the vector files are not valid ` +
        `(${e.problems.length} problem${e.problems.length === 1 ? '' : 's'}):\n`,
    );
    io.stderr(e.problems.map((p) => `  ${formatProblem(p)}\n`).join(''));
    return EXIT[e.exit];
  }
  if (e.exit === 'usage') return usage(io, command, e.message);
  io.stderr(`pgv2kit ${command}: ${e.message}\n`);
  return EXIT[e.exit];
}

function usage(io: CliIo, command: string | undefined, message: string): number {
  io.stderr(`pgv2kit${command ? ` ${command}` : ''}: ${message}\nsee pgv2kit${command ? ` ${command}` : ''} --help\n`);
  return EXIT.usage;
}
