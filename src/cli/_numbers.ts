/**
 * Numeric options of the commands: positive numbers, and durations in seconds that a
 * timer can hold (Node's timers overflow past 2^31 - 1 ms and fire at once).
 * @module
 */
import { optionLabel } from './_args.js';
import { UsageError, type OptionSpecs } from './command.js';

/** The default of `--deadline`, in seconds: far beyond any run of the kit's vectors, short of a CI job's own limit. */
export const DEFAULT_DEADLINE_SECONDS = 1800;

/** `--deadline`, shared by run and certify: milliseconds. */
export const deadlineOption = {
  deadline: {
    type: 'string',
    valueName: '<seconds>',
    description: 'Stop starting cases after this long; the rest are not run and the run exits 3',
    default: DEFAULT_DEADLINE_SECONDS,
    parse: (text: string, name: string): number => secondsOption(text, name, 0),
  },
} as const satisfies OptionSpecs;

/** The longest duration a Node timer holds, in seconds (2^31 - 1 ms). */
export const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/**
 * A positive number option.
 * @param value - the option's text, or undefined when it was not given
 * @param name - the option's name, for the message
 * @param fallback - the value when not given
 * @returns the number
 * @throws {UsageError} when the text is not a positive number
 * @example positiveNumber('2.5', 'timeout', 5) // 2.5
 */
export function positiveNumber(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${optionLabel(name)} must be a positive number, not ${JSON.stringify(value)}`);
  return n;
}

/**
 * A duration option in seconds, as milliseconds.
 * @param value - the option's text, or undefined when it was not given
 * @param name - the option's name, for the message
 * @param fallback - the seconds when not given
 * @returns milliseconds
 * @throws {UsageError} when the text is not a positive number of seconds a timer can hold
 * @example secondsOption('5', 'timeout', 5) // 5000
 */
export function secondsOption(value: string | undefined, name: string, fallback: number): number {
  const s = positiveNumber(value, name, fallback);
  if (s > MAX_SECONDS)
    throw new UsageError(
      `${optionLabel(name)} must be at most ${MAX_SECONDS} seconds (about 24 days), not ${JSON.stringify(value)}`,
    );
  return Math.max(1, Math.round(s * 1000));
}

/**
 * An integer option.
 * @param value - the option's text
 * @param name - the option's name, for the message
 * @param positiveOnly - refuse zero and negative numbers
 * @returns the number
 * @throws {UsageError} when the text is not a (positive) safe integer
 * @example integerOption('42', 'seed', false) // 42
 */
export function integerOption(value: string, name: string, positiveOnly: boolean): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || (positiveOnly && n <= 0))
    throw new UsageError(
      `${optionLabel(name)} must be a${positiveOnly ? ' positive' : 'n'} integer, not ${JSON.stringify(value)}`,
    );
  return n;
}

/**
 * Value parsers for option tables (`parse` of an option spec): each throws the {@link UsageError}
 * of the function it stands on, naming the option (or the environment variable that stood in).
 */
export const parseOption = {
  /** A duration in seconds, as milliseconds ({@link secondsOption}). */
  seconds: (text: string, name: string): number => secondsOption(text, name, 0),
  /** A positive safe integer. */
  positiveInteger: (text: string, name: string): number => integerOption(text, name, true),
  /** A safe integer. */
  integer: (text: string, name: string): number => integerOption(text, name, false),
  /** 0 or a positive safe integer (a count where 0 is a choice). */
  count: (text: string, name: string): number => {
    const n = integerOption(text, name, false);
    if (n < 0)
      throw new UsageError(`${optionLabel(name)} must be 0 or a positive integer, not ${JSON.stringify(text)}`);
    return n;
  },
  /** A positive number, rounded down (a count given as 2.5 is 2). */
  positiveWhole: (text: string, name: string): number => Math.floor(positiveNumber(text, name, 1)),
} as const;
