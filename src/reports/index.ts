/**
 * Reports of a conformance run: JUnit XML, results.json, Markdown, HTML, and the
 * atomic writer of the report folder.
 * @module
 */
export { toHtml } from './html.js';
export { toJUnitXml } from './junit.js';
export { toMarkdown } from './markdown.js';
export { RESULTS_SCHEMA_VERSION, toResultsJson } from './results-json.js';
export type { ResultsJson, ResultsJsonCase, ResultsJsonOp } from './results-json.js';
export { REPORT_FILES, ReportWriteError, writeReports } from './write.js';
export { summaryLine } from './_model.js';
export { buildModel, type ReportModel } from './_model.js';
export { junitFromModel } from './junit.js';
export { stepSummaryFromModel } from './markdown.js';
export { runSummaryFromModel } from './results-json.js';
export { MergeError, mergeShards, readShard, readShards, SHARD_FILE } from './merge.js';
export { writeModelReports } from './write.js';
