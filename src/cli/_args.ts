/**
 * Parses a command's arguments with `node:util` parseArgs (strict), turning its
 * errors into one-line {@link UsageError}s that never echo a value (a misplaced
 * value may be a secret).
 * @module
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../closest.js';
import { clip } from '../scheme/text.js';
import { shellQuote } from '../shell-quote.js';
import { UsageError, type OptionRule, type OptionSpec, type OptionSpecs, type OptionValues } from './command.js';

/** The options every command has. */
export const HELP_OPTION = {
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const satisfies OptionSpecs;

/** What {@link parseCommandArgs} returns. */
export interface ParsedArgs {
  /**
   * Strings and booleans as given, an option's `parse` result, a plain default (typed per command by
   * {@link OptionValues}).
   */
  readonly values: OptionValues<OptionSpecs>;
  readonly positionals: readonly string[];
}

/**
 * Parses argv against a command's options.
 * @param argv - the arguments after the command name
 * @param options - the command's options (help included)
 * @param positionalsAllowed - whether the command takes positional arguments
 * @returns the values and positionals
 * @throws {UsageError} for an unknown option (with the closest one), a missing or unexpected
 *   value, an option given twice (a list option: how to give several), a positional argument
 *   the command does not take (words after a command or a path: how to quote them), or a rule
 *   or value of the option table ({@link applyOptionTable}; not with `--help`)
 */
export function parseCommandArgs(
  argv: readonly string[],
  options: OptionSpecs,
  positionalsAllowed: boolean,
): ParsedArgs {
  const config: ParseArgsConfig['options'] = {};
  for (const [name, spec] of Object.entries(options))
    config[name] = spec.short ? { type: spec.type, short: spec.short } : { type: spec.type };
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: config, strict: true, allowPositionals: true, tokens: true });
  } catch (e) {
    throw new UsageError(describeParseError(e, options));
  }
  const seen = new Set<string>();
  for (const [i, token] of parsed.tokens.entries()) {
    if (token.kind === 'option') {
      if (seen.has(token.name) && options[token.name]?.type === 'string')
        throw new UsageError(givenTwice(token.name, options, parsed.tokens));
      seen.add(token.name);
    } else if (token.kind === 'positional' && !positionalsAllowed) {
      const before = parsed.tokens[i - 1];
      const words = parsed.tokens
        .slice(i)
        .filter((t) => t.kind === 'positional')
        .map((t) => t.value);
      const hint =
        before?.kind === 'option' && before.value !== undefined
          ? quoteHint(before.name, options, [before.value, ...words])
          : undefined;
      throw new UsageError(
        hint ??
          `unexpected argument #${token.index + 1}: ` +
            'this command takes no positional arguments (a value without its --option?)',
      );
    }
  }
  // No option is declared `multiple`, so every value is a string or a boolean.
  const given = parsed.values as Readonly<Record<string, string | boolean | undefined>>;
  // --help shows the help whatever else is given: the table's rules wait for a run
  if (given['help'] === true) return { values: given, positionals: parsed.positionals };
  return { values: applyOptionTable(given, options) as OptionValues<OptionSpecs>, positionals: parsed.positionals };
}

/**
 * Applies a command's option table to the values given: its rules first (`conflicts`, then
 * `requires`, each in table order), then each `parse` and plain `default`.
 * @param given - the values parseArgs found
 * @param options - the command's options
 * @returns the values the command receives
 * @throws {UsageError} for options given together that conflict, an option without one it
 *   requires, or a value its `parse` refuses
 * @example
 * import { runOptions } from './commands/run.js';
 * applyOptionTable({ bail: true, 'max-failures': '2' }, runOptions) // throws UsageError
 */
export function applyOptionTable(
  given: Readonly<Record<string, unknown>>,
  options: OptionSpecs,
): Record<string, unknown> {
  const isGiven = (name: string): boolean => given[name] !== undefined;
  const names = Object.keys(options);
  for (const [name, spec] of Object.entries(options)) {
    if (spec.conflicts === undefined || !isGiven(name)) continue;
    const rule = ruleOf(spec.conflicts);
    if (!rule.options.some(isGiven)) continue;
    throw new UsageError(rule.message ?? withWhy(conflictMessage(name, rule.options, names), rule.why));
  }
  for (const [name, spec] of Object.entries(options)) {
    if (spec.requires === undefined || !isGiven(name)) continue;
    const rule = ruleOf(spec.requires);
    if (rule.options.some(isGiven)) continue;
    throw new UsageError(rule.message ?? withWhy(`--${name} goes with ${joinOptions(rule.options, 'or')}`, rule.why));
  }
  const values: Record<string, unknown> = { ...given };
  for (const [name, spec] of Object.entries(options)) {
    if (spec.parse === undefined) continue;
    const text = given[name];
    if (typeof text === 'string') values[name] = spec.parse(text, name);
    else if (
      text === undefined &&
      spec.env === undefined &&
      (typeof spec.default === 'string' || typeof spec.default === 'number')
    )
      values[name] = spec.parse(String(spec.default), name);
  }
  return values;
}

/**
 * A rule's options, reason and message, whichever form it was declared in.
 * @param rule - a `conflicts` or `requires` rule
 * @returns its parts
 * @example ruleOf(['merchant']).options // ['merchant']
 */
export function ruleOf(rule: OptionRule): {
  readonly options: readonly string[];
  readonly why?: string;
  readonly message?: string;
} {
  return isOptionList(rule) ? { options: rule } : rule;
}

/**
 * The options an option cannot be combined with: those its `conflicts` names and those whose
 * `conflicts` name it, in table order (for `--help`: a rule reads the same from either side).
 * @param name - the option's long name
 * @param options - the command's options
 * @returns the long names
 * @example
 * import { runOptions } from './commands/run.js';
 * conflictsOf('max-failures', runOptions) // ['bail']
 */
export function conflictsOf(name: string, options: OptionSpecs): string[] {
  const own = options[name]?.conflicts;
  const mine = new Set(own === undefined ? [] : ruleOf(own).options);
  for (const [other, spec] of Object.entries(options))
    if (spec.conflicts !== undefined && ruleOf(spec.conflicts).options.includes(name)) mine.add(other);
  return Object.keys(options).filter((n) => mine.has(n));
}

/**
 * The values of the options marked secret, found in argv without parsing it (so they
 * are masked even when parsing fails), plus their environment variables.
 * @param argv - the arguments after the command name
 * @param options - the command's options
 * @param env - the environment
 * @returns the secrets found
 */
export function findSecrets(
  argv: readonly string[],
  options: OptionSpecs,
  env: Record<string, string | undefined>,
): string[] {
  const found: string[] = [];
  for (const [name, spec] of Object.entries(options)) {
    if (!spec.secret) continue;
    const envValue = spec.env ? env[spec.env] : undefined;
    if (envValue) found.push(envValue);
    argv.forEach((arg, i) => {
      if (arg === `--${name}` || (spec.short && arg === `-${spec.short}`)) {
        const next = argv[i + 1];
        if (next !== undefined && !next.startsWith('--')) found.push(next);
      } else if (arg.startsWith(`--${name}=`)) {
        found.push(arg.slice(name.length + 3));
      }
    });
  }
  return found;
}

/**
 * A string option's text as given, else the text of the environment variable that stands in for
 * it (its spec's `env`, which `--help` names), with the name a message should use for it.
 * @param value - the option's value as given
 * @param name - the option's long name
 * @param options - the command's options
 * @param env - the environment
 * @returns the text and the name (`seed`, or `PGV2KIT_SEED` when it came from there), or undefined
 * @example
 * import { runOptions } from './commands/run.js';
 * standIn(undefined, 'seed', runOptions, { PGV2KIT_SEED: '7' }) // { text: '7', name: 'PGV2KIT_SEED' }
 */
export function standIn(
  value: string | undefined,
  name: string,
  options: OptionSpecs,
  env: Readonly<Record<string, string | undefined>>,
): { text: string; name: string } | undefined {
  if (value !== undefined) return { text: value, name };
  const variable = options[name]?.env;
  const text = variable !== undefined ? env[variable] : undefined;
  return variable !== undefined && text !== undefined && text !== '' ? { text, name: variable } : undefined;
}

/**
 * How a message names an option: `--seed`, or the environment variable that stood in for it
 * (`PGV2KIT_SEED`) as it is.
 * @param name - an option's long name, or an environment variable's name
 * @returns the name to print
 * @example optionLabel('seed') // '--seed'
 */
export function optionLabel(name: string): string {
  return /^[A-Z][A-Z0-9_]*$/.test(name) ? name : `--${name}`;
}

/**
 * What to say of words left over after a command line or a path given unquoted (`--testee python3
 * x.py`: the shell split it): quote the whole value. Only for options whose value may hold spaces
 * (a `<command>`, a `<path>`, a `<file>`, a `<dir>`), never a secret one.
 * @param name - the option's long name
 * @param options - the command's options
 * @param words - the option's value and the words after it, as given
 * @returns the message, or undefined when the option's value is not one to quote
 * @example
 * import { runOptions } from './commands/run.js';
 * const hint = quoteHint('testee', runOptions, ['python3', 'x.py']);
 * hint // "--testee takes the whole command line as one argument: quote it: --testee 'python3 x.py'"
 */
export function quoteHint(name: string, options: OptionSpecs, words: readonly string[]): string | undefined {
  const spec = options[name];
  if (spec === undefined || spec.secret || spec.type !== 'string') return undefined;
  const value = `--${name} ${shellQuote(words.join(' '))}`;
  if (spec.valueName === '<command>')
    return `--${name} takes the whole command line as one argument: quote it: ${value}`;
  if (/^<(path|file|dir)>$/.test(spec.valueName ?? ''))
    return `--${name} takes one ${spec.valueName?.slice(1, -1)}: quote one with spaces: ${value}`;
  return undefined;
}

// --- internal ---

/**
 * An option given twice: a list option says how to give several (one comma-separated value, the user's values
 * in it).
 */
function givenTwice(
  name: string,
  options: OptionSpecs,
  tokens: ReadonlyArray<{ kind: string; name?: string; value?: string | undefined }>,
): string {
  const spec: OptionSpec | undefined = options[name];
  if (spec?.list === undefined || spec.secret) return `option --${name} is given more than once`;
  const values = tokens.filter((t) => t.kind === 'option' && t.name === name).map((t) => t.value ?? '');
  return (
    `option --${name} is given more than once: ` +
    `give several ${spec.list} as one comma-separated value: --${name} ${shellQuote(values.join(','))}`
  );
}

function isOptionList(rule: OptionRule): rule is readonly string[] {
  return Array.isArray(rule);
}

/** `give --a or --b, not both`, or for a group `give one of --a, --b and --c` (table order). */
function conflictMessage(name: string, others: readonly string[], order: readonly string[]): string {
  const group = [name, ...others].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return group.length === 2
    ? `give --${group[0]} or --${group[1]}, not both`
    : `give one of ${joinOptions(group, 'and')}`;
}

/** `--a`, `--a or --b`, `--a, --b and --c`. */
function joinOptions(names: readonly string[], word: 'and' | 'or'): string {
  const flags = names.map((n) => `--${n}`);
  return flags.length <= 1 ? (flags[0] ?? '') : `${flags.slice(0, -1).join(', ')} ${word} ${flags.at(-1)}`;
}

function withWhy(message: string, why: string | undefined): string {
  return why === undefined ? message : `${message} (${why})`;
}

function describeParseError(e: unknown, options: OptionSpecs): string {
  const code = (e as { code?: unknown }).code;
  const message = e instanceof Error ? e.message : String(e);
  const option = /'(-{1,2}[^' ]+)/.exec(message)?.[1] ?? 'an option';
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const near = option.startsWith('--') ? closest(option.slice(2), Object.keys(options)).map((n) => `--${n}`) : [];
      return `unknown option ${clip(option, 40)}${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return `option ${option} takes no value`;
      if (/ambiguous/.test(message))
        return `option ${option} needs a value (for a value starting with "-", write ${option}=<value>)`;
      return `option ${option} needs a value`;
    default:
      return message.split('\n')[0] ?? 'invalid arguments';
  }
}
