/**
 * `pgv2kit/run`: what `pgv2kit run` does, as a library — the implementation under test (a
 * subject: the reference, a testee over protocol v1, a module), a conformance run over the
 * vectors and the properties, and its reports.
 *
 * @example
 * import { loadVectorSet } from 'pgv2kit';
 * import { createTesteeSubject, runConformance, runConformant, writeReports } from 'pgv2kit/run';
 * const subject = await createTesteeSubject({ command: 'node examples/node-adapter/adapter.mjs', timeoutMs: 5000 });
 * try {
 *   const run = await runConformance({
 *     set: loadVectorSet(),
 *     subject,
 *     target: { kind: 'testee', description: 'my adapter' },
 *     selection: { only: ['signature'], skip: [] },
 *   });
 *   await writeReports(run, { dir: `${tmp}/my-run`, secrets: [] });
 *   console.log(runConformant(run) ? 'CONFORMANT' : 'NOT CONFORMANT');
 * } finally {
 *   await subject.close?.();
 * }
 * @module
 */

// --- subjects: the implementation under test ---
export type { Answer, Implementation, Json, OperationInput, Subject } from './subjects/subject.js';
export { KIT_OPERATIONS, PROTOCOL_OPERATIONS, isOperation } from './protocol/operations.js';
export type { Operation, ProtocolOperation } from './protocol/operations.js';
export { createReferenceSubject } from './subjects/reference.js';
export type { ReferenceOptions } from './subjects/reference.js';
export { createTesteeSubject } from './subjects/testee-subject.js';
export type { TesteeSubject } from './subjects/testee-subject.js';
export type { TesteeOptions } from './protocol/testee.js';
export { TesteeStartError, formatStartFailure } from './protocol/start-failure.js';
export { Pgv2kitError, type ErrorExit } from './errors.js';
export type { TesteeStartFailure, TesteeStartKind } from './protocol/start-failure.js';
export { ModuleSubjectError, loadModuleSubject } from './subjects/module-subject.js';

// --- a run ---
export { runConformance } from './conformance.js';
export type { ConformanceOptions } from './conformance.js';
export type { RunOptions } from './runner/run.js';
export { SelectionError, selectCases } from './runner/select.js';
export type { Selection } from './runner/select.js';
export { VERDICT_INFO, runConformant, runPassed } from './runner/result.js';
export type {
  CaseArea,
  CaseKind,
  CaseResult,
  Diagnosis,
  OpResult,
  PropertyRecord,
  RunAborted,
  RunResult,
  RunTarget,
  Totals,
  Verdict,
} from './runner/result.js';
export type { PropertyOptions } from './runner/properties.js';

// --- reports ---
export { REPORT_FILES, ReportWriteError, writeReports } from './reports/write.js';
