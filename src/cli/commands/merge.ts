/**
 * `pgv2kit merge`: the report folders of a run's shards (`run --shard <i>/<n>` in n CI jobs) made
 * into the reports one run would have written — same totals, same verdict, same exit code.
 * @module
 */
import { defineCommand, type OptionSpecs } from '../command.js';

/** The options of `pgv2kit merge`. */
export const mergeOptions = {
  'report-dir': {
    type: 'string',
    valueName: '<dir>',
    description: 'Write the merged reports here',
    default: { shown: 'reports/<run name>' },
  },
  'run-name': {
    type: 'string',
    valueName: '<name>',
    description: 'Name of the merged run',
    default: { shown: "merged-<the first shard's name>, never a shard's own folder" },
  },
  'no-reports': { type: 'boolean', description: 'Write no reports: the verdict and exit code only' },
  junit: { type: 'string', valueName: '<file>', description: 'Also write the JUnit XML here' },
  json: {
    type: 'boolean',
    description: 'Print one JSON summary on stdout, as run --json; every other line goes to stderr',
  },
} as const satisfies OptionSpecs;

export const mergeCommand = defineCommand({
  name: 'merge',
  summary: "Join the report folders of a run's shards into the reports of one run",
  usage: 'pgv2kit merge <shard report dir>… [--report-dir <dir>] [options]',
  arguments: [{ name: 'dirs', description: 'The report folder of every shard (each holds shard.json)' }],
  description: [
    'Each job of a sharded run (pgv2kit run --shard <i>/<n>) writes its report folder with',
    'shard.json, its part of the run. merge reads every shard, checks they are the n shards',
    'of one run (same vector set, kit, target and selection; each shard once, none',
    'missing), puts the cases back in the order one run runs them, and writes the reports',
    'one run would have written: the same totals, verdict, likely causes and exit code.',
    'A shard that could not start its testee, or stopped early, makes the merged run say so.',
    'Nothing in a shard.json is trusted: it must fit dist/reports/shard.schema.json (at most',
    '1,000 shards, 64 MiB per file); its cases must be the ids its index gets, each once; the',
    "totals, verdict and each case's commands are worked out again from the cases' steps.",
  ].join('\n'),
  options: mergeOptions,
  exitCodes: {
    0: 'conformant: as one run',
    1: 'nonconformance, or no test ran: as one run',
    2:
      'usage error: a folder that is not a shard, a shard file the schema refuses or whose cases are not its ' +
      'own, shards of different runs, a shard missing or given twice, a report folder that cannot be written',
    3:
      'a shard could not start its testee or reach its target, stopped at its deadline, ' +
      'or gave up on its testee: as one run',
  },
  examples: [
    'pgv2kit merge shard-1 shard-2 shard-3 --report-dir reports/all',
    'pgv2kit merge reports/shard-* --junit junit.xml --json',
  ],
  run: async (context) => (await import('./merge.run.js')).runMerge(context),
});
