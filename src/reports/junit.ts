/**
 * The JUnit XML report (junit.xml), for CI systems: one `<testsuite>` per vector
 * area, one `<testcase>` per case.
 * @module
 */
import { ABORT_INFO, STOP_INFO, type RunResult } from '../runner/result.js';
import { buildModel, seconds, type CaseView, type ReportModel } from './_model.js';
import { escapeXml } from './escape.js';
import { caseText } from './_text.js';

/**
 * Renders a run as JUnit XML.
 *
 * - `<testsuites>` carries the totals and `<properties>`: kit name and version, vector
 *   set hash, implementation name, version and language, target, run name, whether
 *   conformant, why no test ran (when none did), each operation's coverage
 *   (`pgv2kit.operation.<op>`: offered or not, ran, passed, failed, error, not run) and
 *   each unknown operation name advertised (`pgv2kit.warning`), repeated on each
 *   `<testsuite>` for tools that only read those.
 * - `<testcase name="<case id>" classname="pgv2kit.<kind>" file="<vector file>" time="<s>">`.
 * - failed → `<failure type="nonconformance">`, unexpected pass → `<failure type="unexpected-pass">`,
 *   error → `<error type="error">`, skipped and expected failure → `<skipped>`, partial →
 *   `<skipped message="partial: not run: … (not offered); passed: …">` naming the steps
 *   that did not run (never a pass); the body
 *   holds the case's facts, each operation's expected and got (contents as a diff) and
 *   the diagnosis.
 *
 * Text is XML-escaped; characters XML 1.0 forbids (controls other than tab, LF, CR;
 * lone surrogates; U+FFFE, U+FFFF) and C1 controls are written as visible escapes
 * (`\x1B`, `\uFFFE`). Secrets are masked (see {@link toResultsJson}).
 *
 * @param run - the run
 * @param secrets - the app secrets used in the run's vectors
 * @returns the XML document
 * @example toJUnitXml(run, [appSecret]).startsWith('<?xml') // true
 */
export function toJUnitXml(run: RunResult, secrets: readonly string[]): string {
  return junitFromModel(buildModel(run, secrets), secrets);
}

/**
 * {@link toJUnitXml} from a report model already built (the writer builds it once).
 * @param model - the run's model
 * @param secrets - the secrets (unused: the model is masked; a rendered document is never masked as text)
 * @returns the XML document
 */
export function junitFromModel(model: ReportModel, secrets: readonly string[]): string {
  const props = properties(model);
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const t = model.totals;
  out.push(
    `<testsuites${attrs({
      name: `${model.kit.name} ${model.runName}`,
      tests: model.cases.length + (model.aborted || model.noTestRan !== undefined || model.stopped ? 1 : 0),
      failures: t.failed + t['unexpected-pass'] + (!model.aborted && model.noTestRan !== undefined ? 1 : 0),
      errors: t.error + (model.aborted || (model.stopped && STOP_INFO[model.stopped.kind].junit === 'error') ? 1 : 0),
      skipped:
        t.skipped +
        t.partial +
        t['expected-failure'] +
        (model.stopped && STOP_INFO[model.stopped.kind].junit === 'skipped' ? 1 : 0),
      time: seconds(model.durationMs),
      timestamp: model.startedAt,
    })}>`,
    ...props.map((l) => `  ${l}`),
  );
  out.push(...runProblemSuite(model, props));
  for (const area of model.byKind) {
    const cases = model.cases.filter((c) => c.kind === area.name);
    const n = area.counts;
    out.push(
      `  <testsuite${attrs({
        name: area.name,
        tests: area.total,
        failures: n.failed + n['unexpected-pass'],
        errors: n.error,
        skipped: n.skipped + n.partial + n['expected-failure'],
        time: seconds(cases.reduce((ms, c) => ms + c.durationMs, 0)),
        timestamp: model.startedAt,
      })}>`,
      ...props.map((l) => `    ${l}`),
    );
    for (const c of cases) out.push(...testcase(c));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  // every text came masked from the model: the XML is never rewritten after it is written (issue 25, item 1)
  void secrets;
  return out.join('\n');
}

// --- internal ---

/**
 * A run that proved nothing, as one suite with one testcase, so no CI shows it green: a testee
 * that could not start (`testee.start`, an `<error>`), or a run in which no test ran
 * (`run.no-test-ran`, a `<failure>`, as pytest's "no tests ran" fails a job).
 */
function runProblemSuite(model: ReportModel, props: readonly string[]): string[] {
  const a = model.aborted;
  const suite = (
    name: string,
    failures: number,
    errors: number,
    testcase: string,
    element: string,
    skipped = 0,
  ): string[] => {
    const time = seconds(model.durationMs);
    const suiteAttrs = attrs({ name, tests: 1, failures, errors, skipped, time, timestamp: model.startedAt });
    return [
      `  <testsuite${suiteAttrs}>`,
      ...props.map((l) => `    ${l}`),
      `    <testcase${attrs({ name: testcase, classname: `pgv2kit.${name}`, time })}>`,
      `      ${element}`,
      '    </testcase>',
      '  </testsuite>',
    ];
  };
  if (a) {
    const info = ABORT_INFO[a.kind];
    const message = a.kind === 'testee-start' ? `the testee could not start: ${a.message}` : a.message;
    const stderr =
      a.kind !== 'testee-start'
        ? []
        : [
            a.stderrTail.length > 0 ? 'stderr (last lines):' : 'stderr: (nothing)',
            ...a.stderrTail.map((l) => `  ${l}`),
          ];
    const body = [message, `${info.commandLabel}: ${a.command}`, `ended: ${a.ended}`, ...stderr].join('\n');
    return suite(
      info.testcase.split('.')[0] as string,
      0,
      1,
      info.testcase,
      `<error${attrs({ message, type: a.kind })}>${escapeXml(body)}</error>`,
    );
  }
  const stopped = model.stopped;
  if (stopped) {
    // interrupted, deadline, gave-up: an error (what did not run is unknown, no CI may show it green);
    // --max-failures: the rest skipped
    const text = `${stopped.reason}: ${stopped.notRun} selected case${stopped.notRun === 1 ? '' : 's'} did not run`;
    if (STOP_INFO[stopped.kind].junit === 'error')
      return suite(
        'run',
        0,
        1,
        `run.${stopped.kind}`,
        `<error${attrs({ message: text, type: stopped.kind })}>${escapeXml(text)}</error>`,
      );
    return suite('run', 0, 0, 'run.stopped', `<skipped${attrs({ message: text })}/>`, 1);
  }
  if (model.noTestRan === undefined) return [];
  return suite(
    'run',
    1,
    0,
    'run.no-test-ran',
    `<failure${attrs({ message: model.noTestRan, type: 'no-test-ran' })}>` +
      `${escapeXml(`${model.noTestRan}: this run checked nothing`)}</failure>`,
  );
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([k, v]) => ` ${k}="${escapeXml(String(v), true)}"`)
    .join('');
}

function properties(m: ReportModel): string[] {
  const props: Array<[string, string]> = [
    ['pgv2kit.kit.name', m.kit.name],
    ['pgv2kit.kit.version', m.kit.version],
    ['pgv2kit.vectorSetHash', m.vectorSetHash],
    ['pgv2kit.implementation.name', m.implementation.name],
    ['pgv2kit.implementation.version', m.implementation.version],
    ['pgv2kit.implementation.language', m.implementation.language],
    ['pgv2kit.target', `${m.target.kind}: ${m.target.description}`],
    ['pgv2kit.runName', m.runName],
    ['pgv2kit.conformant', String(m.conformant)],
    ...(m.noTestRan !== undefined ? [['pgv2kit.noTestRan', m.noTestRan] as [string, string]] : []),
    ...m.operations.map((o): [string, string] => [
      `pgv2kit.operation.${o.op}`,
      `${o.offered ? 'offered' : 'not offered'}; cases ${o.cases}, ran ${o.ran}, passed ${o.passed}, ` +
        `failed ${o.failed}, error ${o.error}, not run ${o.notRun}`,
    ]),
    ...m.unknownOperations.map((u): [string, string] => ['pgv2kit.warning', u.message]),
  ];
  return ['<properties>', ...props.map(([name, value]) => `  <property${attrs({ name, value })}/>`), '</properties>'];
}

function testcase(c: CaseView): string[] {
  const caseAttrs = attrs({ name: c.id, classname: `pgv2kit.${c.kind}`, file: c.file, time: seconds(c.durationMs) });
  const open = `    <testcase${caseAttrs}`;
  const firstLine = (s: string): string => s.split('\n')[0] ?? '';
  const body = (): string => escapeXml(caseText(c));
  switch (c.verdict) {
    case 'passed':
      return [`${open}/>`];
    case 'failed':
      return [
        `${open}>`,
        `      <failure${attrs({ message: firstLine(c.message), type: 'nonconformance' })}>${body()}</failure>`,
        '    </testcase>',
      ];
    case 'unexpected-pass': {
      const listed = c.listedReason ? ` (listed: ${c.listedReason})` : '';
      const message = `listed as an expected failure but passed: update the list${listed}`;
      return [
        `${open}>`,
        `      <failure${attrs({ message, type: 'unexpected-pass' })}>${body()}</failure>`,
        '    </testcase>',
      ];
    }
    case 'error':
      return [
        `${open}>`,
        `      <error${attrs({ message: firstLine(c.message), type: 'error' })}>${body()}</error>`,
        '    </testcase>',
      ];
    case 'skipped':
      return [`${open}>`, `      <skipped${attrs({ message: firstLine(c.message) })}/>`, '    </testcase>'];
    case 'partial':
      return [
        `${open}>`,
        `      <skipped${attrs({ message: `partial: ${firstLine(c.message)}` })}>${body()}</skipped>`,
        '    </testcase>',
      ];
    case 'expected-failure': {
      const message = `expected failure: ${c.listedReason ?? 'listed'} (${firstLine(c.message)})`;
      return [`${open}>`, `      <skipped${attrs({ message })}/>`, '    </testcase>'];
    }
  }
}
