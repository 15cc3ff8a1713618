/**
 * What `pgv2kit run` does, loaded only when the command runs (run.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { targetRole } from '../../roles/registry.js';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { TesteeStartError } from '../../protocol/testee.js';
import { ReportWriteError } from '../../reports/write.js';
import { checkedReportFolder, reportFolderName } from '../_report-folder.js';
import { readExpectFailures, writeExpectFailures, type ExpectedFailure } from '../../runner/expect-failures.js';
import { createProgress } from '../../runner/progress.js';
import { runConformant, STOP_INFO, type RunResult, type RunTarget } from '../../runner/result.js';
import { PROPERTY_SELECTABLES, caseSecrets, countVerdicts, selectedIds } from '../../runner/run.js';
import { runConformance } from '../../conformance.js';
import { selectCases } from '../../runner/select.js';
import { PROPERTIES } from '../../properties/catalogue.js';
import { DEFAULT_PROPERTY_RUNS, type PropertyOptions } from '../../runner/properties.js';
import { unknownOperation } from '../../runner/unknown-operations.js';
import type { Subject } from '../../subjects/subject.js';
import { liveCases, loadVectorSets } from '../../vectors/load.js';
import { vectorFolders } from '../vector-folders.js';
import { checkWritableFile, resolvePath } from '../_files.js';
import { reportAbortedRun, startFailure } from '../_start-failure.js';
import { integerOption, positiveNumber } from '../_numbers.js';
import { quoteHint, standIn } from '../_args.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { runOptions } from './run.js';
import { startTarget } from '../run-target.js';
import { saveCounterexamples, saveTarget } from '../run-save.js';
import { listSelection } from '../run-list.js';
import { APP_SECRET_ENV } from '../../env.js';
import { useColour, type CliIo } from '../io.js';
import { jsonOutput } from '../_json-output.js';
import { concludeRun, prepareJunit } from '../_conclude.js';
import { buildModel, writeModelReports, type ReportModel } from '../../reports/index.js';
import { vectorLimitsOf } from '../vector-limit-options.js';
import { TargetUnreachableError } from '../_reach.js';
import type { GivenGateway } from '../../checks/context.js';

/**
 * Runs `pgv2kit run`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runRun({
  values,
  positionals,
  io: given,
  addSecret,
  atEnd,
}: CommandContext<typeof runOptions>): Promise<number> {
  // the option rules (one target, merchant options with --merchant, …) and numbers are run.ts's table, applied by
  // the parser
  // --json: stdout carries the one JSON summary; every line for people goes to stderr
  const { io, emit } = jsonOutput(values.json === true, given);
  // `--testee python3 x.py` unquoted: the shell split the command line (and a path with spaces)
  const split = values.testee !== undefined ? 'testee' : values.module !== undefined ? 'module' : undefined;
  if (positionals.length > 0 && !values.gateway)
    throw new UsageError(
      (split && quoteHint(split, runOptions, [values[split] ?? '', ...positionals])) ||
        `unexpected argument ${JSON.stringify(positionals[0])} (a base URL goes with --gateway)`,
    );
  if (positionals.length > 1) throw new UsageError('--gateway takes one base URL');
  // plain defaults: the parser applies them (run.ts's table)
  const timeoutMs = values.timeout!;
  const deadlineMs = values.deadline!;
  const shard = values.shard;
  const giveUpAfter = values['give-up-after'];
  const maxRestarts = values['max-restarts'];
  const maxFailures = values.bail ? 1 : values['max-failures'];
  // a role's run (--gateway, --merchant): its kinds, its calls in flight (the merchant's one at a time), no properties
  // with an SDK (--testee, --module), --gateway names the client cases' gateway: no role runs
  const sdk = values.testee !== undefined || values.module !== undefined;
  const role = sdk ? undefined : targetRole(values);
  if (role?.name === 'gateway' && (values.properties !== undefined || values.replay !== undefined))
    throw new UsageError(runOptions.properties.conflicts.message);
  const concurrency = values.concurrency ?? role?.target?.concurrency ?? 32;
  // `area:` is what results.json has recorded for a role's selection since it was first written (a contract)
  const selection = {
    only: values.only ? [values.only] : role ? Object.keys(role.kinds).map((k) => `area:${k}`) : [],
    skip: values.skip ? [values.skip] : [],
  };
  // the merchant role's calls are seeded by --seed (the properties' seed too), else at random (the reports name it)
  // PGV2KIT_SEED and PGV2KIT_PROPERTIES stand in for --seed and --properties (as --help says)
  const seed = standIn(values.seed, 'seed', runOptions, io.env);
  const merchantSeed = seed !== undefined ? integerOption(seed.text, seed.name, false) : randomInt(0, 2 ** 32 - 1);
  const properties = propertyOptions(
    values,
    role !== undefined,
    seed,
    standIn(values.properties, 'properties', runOptions, io.env),
  );
  const limits = vectorLimitsOf(values, io.env);
  const saveTo =
    values.save !== undefined ? saveTarget(resolvePath(io.cwd, values.save), properties, limits) : undefined;

  // a set that does not load (VectorSetError) and a pattern that matches nothing (SelectionError) are usage errors
  // (exit 2)
  const set = loadVectorSets(vectorFolders(values.vectors, io.cwd), { limits });
  const selected = selectCases(liveCases(set), selection, PROPERTY_SELECTABLES);
  for (const s of caseSecrets(selected)) addSecret(s);
  // every secret the run knows: the vectors', and the merchant's (a testee may print it)
  const secrets = [...caseSecrets(selected), values.secret ?? '', io.env[APP_SECRET_ENV] ?? ''].filter((x) => x !== '');

  const listPath = values['expect-failures'] ? resolvePath(io.cwd, values['expect-failures']) : undefined;
  let listed = new Map<string, ExpectedFailure>();
  // an unreadable or malformed list is an ExpectFailuresError: a usage error (exit 2)
  if (listPath) listed = readExpectFailures(listPath, { missingOk: values['update-expect-failures'] === true });

  // where the reports go, and the list --update-expect-failures rewrites: checked before any case runs
  const reportDir =
    values['no-reports'] || values.list ? undefined : checkedReportFolder(values, { name: 'run', io, atEnd });
  if (listPath && values['update-expect-failures']) checkWritableFile(listPath, '--expect-failures');
  const junitPath = values.list ? undefined : prepareJunit(values.junit, io.cwd);
  // what every ending does after its reports: the --junit file, the CI job summary, the --json line
  const conclude = (model: ReportModel, code: number, reportsDir: string | undefined): number =>
    concludeRun('run', io, emit, { model, code, reportsDir, junitPath, secrets });

  const log: string[] = [];
  const startedAt = new Date();
  let closeGateway: (() => Promise<void>) | undefined;
  let subject: Subject;
  let target: RunTarget;
  let clientGateway: GivenGateway | undefined;
  try {
    ({
      subject,
      target,
      close: closeGateway,
      clientGateway,
    } = await startTarget(values, positionals[0], io, {
      needsGateway: selected.some((c) => c.case.kind === 'gateway'),
      needsMerchant: selected.some((c) => c.case.kind === 'merchant'),
      timeoutMs,
      startTimeoutMs: Math.min(timeoutMs, deadlineMs),
      ...(giveUpAfter !== undefined ? { giveUpAfter } : {}),
      ...(maxRestarts !== undefined ? { maxRestarts } : {}),
      seed: merchantSeed,
      log,
      addSecret: (s) => {
        // a role's credentials (the reference gateway's or the sample merchant's demo secret): masked on the
        // terminal and in every report
        addSecret(s);
        secrets.push(s);
      },
    }));
  } catch (e) {
    if (e instanceof TesteeStartError || e instanceof TargetUnreachableError) {
      // the run ends here, loudly: the message, and reports that say no case ran and why (exit 3)
      const failure = e instanceof TesteeStartError ? startFailure(e, values.testee ?? '') : e;
      const runTarget: RunTarget =
        e instanceof TesteeStartError
          ? { kind: 'testee', description: values.testee ?? '' }
          : sdk
            ? {
                kind: values.testee !== undefined ? 'testee' : 'module',
                description: `${values.testee ?? values.module ?? ''}; client cases against ${e.url}`,
              }
            : { kind: role?.name === 'merchant' ? 'merchant' : 'gateway', description: e.url };
      const facts = {
        failure,
        vectorSetHash: set.hash,
        target: runTarget,
        selection,
        startedAt,
        finishedAt: new Date(),
        log,
        ...(values['run-name'] ? { runName: values['run-name'] } : {}),
        ...(shard ? { shard: { ...shard, ids: selectedIds(set, selection, properties !== false) } } : {}),
      };
      const ended = await reportAbortedRun(
        io,
        facts,
        values['no-reports'] || values.list ? undefined : { ...(reportDir ? { dir: reportDir } : {}), secrets },
      );
      return values.list ? ended.code : conclude(buildModel(ended.run, secrets), ended.code, ended.dir);
    }
    // ModuleSubjectError (exit 2), SampleMerchantError (exit 3): reported by main, by their exit class
    throw e;
  }

  if (role?.name === 'merchant' && !values.list) io.stdout(`merchant role: ${target.description}\n`);
  if (clientGateway && !values.list)
    io.stdout(`client cases: against ${clientGateway.baseUrl} (plain), else the kit's gateway\n`);
  const who = target.kind === 'testee' ? 'the testee' : 'the implementation';
  for (const name of subject.unknownOperations ?? [])
    io.stderr(`pgv2kit run: warning: ${unknownOperation(name, who).message}\n`);
  try {
    if (values.list) {
      listSelection(selected, subject, properties, selection, io.stdout);
      return EXIT.ok;
    }
    const progress = createProgress({
      stdout: io.stdout,
      stderr: io.stderr,
      isTTY: io.isTTY === true && io.env['CI'] !== 'true',
      colour: useColour(io),
    });
    // Ctrl-C / SIGTERM: no case starts after it, the testee is stopped a moment later (what it was
    // doing ends as not run), the reports of what ran are written and say so; a second one stops at once
    const interrupt = new AbortController();
    let signalled: NodeJS.Signals | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (signalled) {
        subject.abort?.();
        process.exit(signal === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted);
      }
      signalled = signal;
      io.stderr(`pgv2kit run: ${signal}: stopping (the cases in flight end, reports follow; again to stop at once)\n`);
      interrupt.abort(`interrupted by ${signal}`);
      setTimeout(() => void subject.close?.(), 1000);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    let run: RunResult;
    try {
      // the library's run (pgv2kit/run): it starts the client-role gateway when the cases need it
      run = await runConformance({
        set,
        subject,
        target,
        selection,
        expectFailures: listed,
        concurrency,
        log,
        onCase: progress.onCase,
        properties,
        signal: interrupt.signal,
        ...(clientGateway ? { clientGateway } : {}),
        deadlineMs,
        ...(shard ? { shard } : {}),
        ...(maxFailures !== undefined ? { maxFailures } : {}),
        ...(values['run-name'] ? { runName: values['run-name'] } : {}),
      });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    if (listPath && values['update-expect-failures']) {
      if (run.stopped)
        io.stderr(
          `pgv2kit run: the expected-failure list ${listPath} was not updated: the run stopped before every case ran\n`,
        );
      else run = updateList(run, listPath, listed, io.stdout);
    }
    if (saveTo) saveCounterexamples(run, saveTo, io, limits);
    progress.finish(run);
    // the run's reports, its --junit file, job summary and --json line: all from one model
    const model = buildModel(run, secrets);
    let writtenTo: string | undefined;
    if (!values['no-reports']) {
      const dir = reportDir ?? join(io.cwd, 'reports', reportFolderName(run.runName));
      try {
        writtenTo = (await writeModelReports(model, { dir, secrets })).dir;
        io.stdout(`reports: ${writtenTo}\n`);
      } catch (e) {
        // checked before the run: what fails now is the disk or a race (exit 3), never an internal error
        if (!(e instanceof ReportWriteError)) throw e;
        io.stderr(`pgv2kit run: ${e.message}\n`);
        return conclude(model, EXIT.failure, undefined);
      }
    }
    return conclude(model, runExitCode(run, subject, signalled, io), writtenTo);
  } finally {
    await subject.close?.();
    await closeGateway?.();
  }
}

/**
 * The exit code of a run that finished (its warnings said on stderr): 130/143 interrupted, 3 the run itself failed,
 * 1 nonconformant or nothing ran, 0 conformant.
 */
function runExitCode(run: RunResult, subject: Subject, signalled: NodeJS.Signals | undefined, io: CliIo): number {
  // what went wrong outside any case (a testee's lines that were no request's answer): no case is charged with it,
  // and the run says so
  for (const warning of subject.warnings?.() ?? []) io.stderr(`pgv2kit run: warning: ${warning}\n`);
  if (run.stopped)
    io.stderr(
      `pgv2kit run: stopped early: ${run.stopped.reason}; ` +
        `${run.stopped.notRun} selected case${run.stopped.notRun === 1 ? '' : 's'} not run\n`,
    );
  if (signalled) return signalled === 'SIGTERM' ? EXIT.terminated : EXIT.interrupted;
  // the run did not finish in its time, or the testee was given up on: what did not run did not pass (exit 3, the
  // reports say so)
  if (run.stopped && STOP_INFO[run.stopped.kind].runFailed) return EXIT.failure;
  // given up on while the properties ran (no case left to stop)
  const dead = subject.gaveUp?.();
  if (dead) {
    io.stderr(`pgv2kit run: ${dead}\n`);
    return EXIT.failure;
  }
  if (run.noTestRan) {
    const emptyShard =
      run.shard && run.cases.length === 0
        ? ` (shard ${run.shard.index}/${run.shard.count} holds none of the ${run.shard.ids.length} selected cases: ` +
          'use fewer shards)'
        : '';
    io.stderr(`pgv2kit run: ${run.noTestRan}${emptyShard}\n`);
    return EXIT.nonconformance;
  }
  return runConformant(run) ? EXIT.ok : EXIT.nonconformance;
}

// --- internal ---

/** An option's text and the name it came by (see {@link standIn}). */
type StandIn = NonNullable<ReturnType<typeof standIn>>;

/** The properties' options from --properties, --no-properties, --seed and --replay (false: vectors only). */
function propertyOptions(
  values: { properties?: string; 'no-properties'?: boolean; replay?: string },
  aRole: boolean,
  seedText: StandIn | undefined,
  runsText: StandIn | undefined,
): PropertyOptions | false {
  // --properties and --replay with none of them: refused by run.ts's table
  if (values['no-properties'] || aRole) return false;
  const runs =
    runsText !== undefined
      ? Math.floor(positiveNumber(runsText.text, runsText.name, DEFAULT_PROPERTY_RUNS))
      : DEFAULT_PROPERTY_RUNS;
  let seed = seedText !== undefined ? integerOption(seedText.text, seedText.name, false) : undefined;
  let replay: { id: string; path: string } | undefined;
  if (values.replay !== undefined) {
    const m = /^(property\.[a-z0-9.-]+)=(-?\d+):(\d+(?::\d+)*)$/.exec(values.replay.trim());
    if (!m || !PROPERTIES.some((p) => p.id === m[1]))
      throw new UsageError(
        '--replay takes <property id>=<seed>:<path> as a failure prints it (e.g. property.lf.sign=42:3:0), ' +
          `not ${JSON.stringify(values.replay)}`,
      );
    seed = Number(m[2]);
    replay = { id: m[1] ?? '', path: m[3] ?? '' };
  }
  return { runs, ...(seed !== undefined ? { seed } : {}), ...(replay ? { replay } : {}) };
}

/**
 * Rewrites the list to the cases that fail now and re-applies it to the run. Entries for cases
 * this run did not select are kept as they are (their reason with them); entries naming no case
 * of the vector set are dropped.
 */
function updateList(
  run: RunResult,
  path: string,
  before: ReadonlyMap<string, ExpectedFailure>,
  say: (s: string) => void,
): RunResult {
  const failing = run.cases.filter(
    (c) => c.verdict === 'failed' || c.verdict === 'error' || c.verdict === 'expected-failure',
  );
  const date = run.startedAt.slice(0, 10);
  const ran = new Set(run.cases.map((c) => c.id));
  const stale = new Set(run.staleListEntries);
  const outside = [...before.values()].filter((e) => !ran.has(e.id) && !stale.has(e.id));
  const entries = [
    ...failing.map((c) => before.get(c.id) ?? { id: c.id, reason: `failing since ${date}: ${c.message}` }),
    ...outside,
  ];
  writeExpectFailures(path, entries);
  const now = new Set(entries.map((e) => e.id));
  const added = entries.filter((e) => !before.has(e.id)).length;
  const removed = [...before.keys()].filter((id) => !now.has(id)).length;
  say(
    `expected-failure list ${path}: ${entries.length} entries (${added} added, ${removed} removed` +
      `${outside.length > 0 ? `, ${outside.length} kept for cases this run did not select` : ''})\n`,
  );
  const cases = run.cases.map((c) => {
    const entry = entries.find((e) => e.id === c.id);
    if (c.verdict === 'failed' || c.verdict === 'error')
      return { ...c, verdict: 'expected-failure' as const, ...(entry ? { listedReason: entry.reason } : {}) };
    if (c.verdict === 'unexpected-pass') {
      const { listedReason: _drop, ...rest } = c;
      return { ...rest, verdict: 'passed' as const };
    }
    return c;
  });
  return { ...run, cases, totals: countVerdicts(cases), staleListEntries: [] };
}
