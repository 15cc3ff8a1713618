/**
 * The commands of `pgv2kit`, in the order `--help` lists them. Adding a command is
 * one file in `commands/` plus one line here.
 * @module
 */
import type { Command } from './command.js';
import { certifyCommand } from './commands/certify.js';
import { checkCommand } from './commands/check.js';
import { compareCommand } from './commands/compare.js';
import { explainCommand } from './commands/explain.js';
import { fuzzCommand } from './commands/fuzz.js';
import { generateCommand } from './commands/generate.js';
import { mergeCommand } from './commands/merge.js';
import { proxyCommand } from './commands/proxy.js';
import { runCommand } from './commands/run.js';
import { serveCommand } from './commands/serve.js';
import { vectorsCommand } from './commands/vectors.js';

/** Every command, in help order. */
export const COMMANDS: readonly Command[] = [
  runCommand,
  mergeCommand,
  compareCommand,
  vectorsCommand,
  explainCommand,
  serveCommand,
  certifyCommand,
  checkCommand,
  proxyCommand,
  generateCommand,
  fuzzCommand,
];
