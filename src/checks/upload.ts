/**
 * Upload cases (2.1, 2.2, 4.2, 8; R13, R14): validation of the credentials request,
 * the multipart form a client builds, and (kit-internal) the upload address's check.
 * @module
 */
import { bytesEqual, fromBase64, toBase64 } from '../scheme/bytes.js';
import type { Json } from '../subjects/subject.js';
import { parseMultipart, type MultipartPart } from '../upload/index.js';
import { fileBytes, bodyBytes, partData } from '../vectors/fields.js';
import type { ExpectedPart, UploadCase } from '../vectors/types.js';
import { callOp, defineCheck, judgeValid, nonResult } from './check.js';
import type { OpOutcome } from './outcome.js';

/** The check of upload cases. */
export const uploadCheck = defineCheck({
  kind: 'upload',
  operations: (c) => [c.op],
  async run(c, op, subject): Promise<OpOutcome> {
    if (c.op === 'upload.validate') return judgeValid(op, c.result, await callOp(subject, op, { ...c.inputs }, c.id));
    const { filename, contentType, formFields } = c.inputs;
    const base = { formFields: formFields.map(([n, v]) => [n, v]), filename, contentType, fileB64: toBase64(fileBytes(c.inputs)) };
    if (c.op === 'upload.formCheck') {
      const { multipart } = c.inputs;
      const input = { ...base, multipart: { contentType: multipart.contentType, bodyB64: toBase64(bodyBytes(multipart)) } };
      return judgeValid(op, c.result, await callOp(subject, op, input, c.id));
    }
    return checkForm(c, await callOp(subject, op, base, c.id));
  },
});

// --- internal ---

async function checkForm(c: Extract<UploadCase, { op: 'upload.form' }>, answer: Awaited<ReturnType<typeof callOp>>): Promise<OpOutcome> {
  const op = 'upload.form';
  const expected: Json = c.expected.parts.map((p): Json => ('filename' in p ? { name: p.name, filename: p.filename, contentType: p.contentType } : { name: p.name, value: p.value }));
  const other = nonResult(op, expected, answer);
  if (other) return other;
  const got = answer as unknown as Json;
  if (!('result' in answer)) return { op, status: 'fail', expected, got, message: 'refused to build the form' };
  const { contentType, bodyB64 } = answer.result;
  if (typeof contentType !== 'string' || typeof bodyB64 !== 'string') return { op, status: 'error', expected, got, message: 'result needs string contentType and bodyB64' };
  let parts: MultipartPart[];
  try {
    parts = await parseMultipart(fromBase64(bodyB64), contentType);
  } catch (e) {
    return { op, status: 'fail', expected, got, message: `the body is not valid multipart/form-data: ${(e as Error).message}` };
  }
  const problem = compareParts(c.expected.parts, parts);
  return problem ? { op, status: 'fail', expected, got, message: problem } : { op, status: 'pass', expected, got, message: 'parts as expected, file last' };
}

/**
 * Compares parsed parts with the expected ones, in order.
 * @returns the first difference, or undefined
 */
function compareParts(expected: readonly ExpectedPart[], actual: readonly MultipartPart[]): string | undefined {
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const want = expected[i];
    const have = actual[i];
    if (!want) return `extra part ${i + 1} named ${JSON.stringify(have?.name)} (R14: no other parts)`;
    if (!have) return `part ${i + 1} (${JSON.stringify(want.name)}) is missing`;
    if (have.name !== want.name) return `part ${i + 1} is named ${JSON.stringify(have.name)}, expected ${JSON.stringify(want.name)}`;
    const data = partData(want);
    if (data === undefined) {
      if (have.kind !== 'field') return `part ${i + 1} (${want.name}) is a file part, expected a text part`;
      if ('value' in want && have.value !== want.value) return `formFields entry ${want.name} changed: ${JSON.stringify(have.value)} instead of ${JSON.stringify(want.value)}`;
      continue;
    }
    if (have.kind !== 'file' || !('filename' in want)) return `part ${i + 1} (${want.name}) is not the file part`;
    if (have.filename !== want.filename) return `file part's filename is ${JSON.stringify(have.filename)}, expected ${JSON.stringify(want.filename)}`;
    if (have.contentType !== want.contentType) return `file part's content type is ${JSON.stringify(have.contentType)}, expected ${JSON.stringify(want.contentType)}`;
    if (!bytesEqual(have.data, data)) return `file part's bytes differ (${have.data.length} bytes, expected ${data.length})`;
  }
  return undefined;
}
