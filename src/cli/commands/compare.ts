/**
 * `pgv2kit compare`: several implementations' runs side by side, one page and a badge each.
 * @module
 */
import { defineCommand, type OptionSpecs } from '../command.js';

/** The options of `pgv2kit compare`. */
export const compareOptions = {
  out: {
    type: 'string',
    valueName: '<dir>',
    description: 'The folder to write compare.html, compare.md and badges/ into',
    default: { shown: 'compare' },
  },
  json: {
    type: 'boolean',
    description:
      "Print one JSON summary on stdout (each run's verdict as its cases say, its badge, what its file says " +
      'otherwise); every other line goes to stderr',
  },
} as const satisfies OptionSpecs;

export const compareCommand = defineCommand({
  name: 'compare',
  summary: "Several implementations' runs side by side: one HTML page, Markdown, and an SVG badge each",
  usage: 'pgv2kit compare <results.json or report dir>… [--out <dir>]',
  arguments: [{ name: 'runs', description: 'The results.json of each run, or its report folder' }],
  description: [
    'Reads each run and writes compare.html and compare.md — implementations as columns,',
    'their verdicts, kinds, operations and cases as rows, the cases on which they differ',
    "first, each failure linked to its known mistake's page and to the case in that run's",
    'own report — and badges/<implementation>.svg for each: passed/total, green when',
    'conformant, amber when partial, red when not, grey when nothing ran, for a README.',
    "Nothing in a results.json is trusted: each is checked against the kit's schema",
    '(src/reports/results-v2.schema.json: a field of the wrong type or out of bounds is exit 2,',
    "naming its JSON pointer; at most 64 MiB a file, 1,000 runs), each case's verdict is counted",
    "again from its steps, and each run's verdict and totals from its cases; where the file says",
    'otherwise, a note says so.',
  ].join('\n'),
  options: compareOptions,
  exitCodes: {
    0: 'the page and the badges are written (whatever the verdicts)',
    2:
      "usage error: fewer than one run or more than 1,000, a path that holds no run's results.json, " +
      'a results.json over 64 MiB or not valid against its schema, an --out that is a file or holds other files',
  },
  examples: [
    'pgv2kit compare reports/java reports/python reports/go --out compare',
    'pgv2kit compare a/results.json b/results.json',
  ],
  run: async (context) => (await import('./compare.run.js')).runCompare(context),
});
