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
    const base = {
      formFields: formFields.map(([n, v]) => [n, v]),
      filename,
      contentType,
      fileB64: toBase64(fileBytes(c.inputs)),
    };
    if (c.op === 'upload.formCheck') {
      const { multipart } = c.inputs;
      const input = {
        ...base,
        multipart: { contentType: multipart.contentType, bodyB64: toBase64(bodyBytes(multipart)) },
      };
      return judgeValid(op, c.result, await callOp(subject, op, input, c.id));
    }
    return checkForm(c, await callOp(subject, op, base, c.id));
  },
});

// --- internal ---

async function checkForm(
  c: Extract<UploadCase, { op: 'upload.form' }>,
  answer: Awaited<ReturnType<typeof callOp>>,
): Promise<OpOutcome> {
  const op = 'upload.form';
  const expected: Json = c.expected.parts.map((p): Json =>
    'filename' in p
      ? { name: p.name, filename: p.filename, contentType: p.contentType }
      : { name: p.name, value: p.value },
  );
  const other = nonResult(op, expected, answer);
  if (other) return other;
  const got = answer as unknown as Json;
  if (!('result' in answer)) return { op, status: 'fail', expected, got, message: 'refused to build the form' };
  const { contentType, bodyB64 } = answer.result;
  if (typeof contentType !== 'string' || typeof bodyB64 !== 'string')
    return { op, status: 'error', expected, got, message: 'result needs string contentType and bodyB64' };
  let parts: MultipartPart[];
  try {
    parts = await parseMultipart(fromBase64(bodyB64), contentType);
  } catch (e) {
    return {
      op,
      status: 'fail',
      expected,
      got,
      message: `the body is not valid multipart/form-data: ${(e as Error).message}`,
    };
  }
  const compared = compareParts(c.expected.parts, parts);
  if (compared.problem) return { op, status: 'fail', expected, got, message: compared.problem };
  // R14: the order received is the reference's; another order is acceptable, and recorded
  if (compared.reordered)
    return {
      op,
      status: 'pass',
      expected,
      got,
      choice: 'reordered',
      message: 'parts as expected, file last; sent the formFields in another order than received (acceptable, R14)',
    };
  return {
    op,
    status: 'pass',
    expected,
    got,
    ...(c.result === 'acceptable' ? { choice: 'in-order' as const } : {}),
    message: 'parts as expected, in the order received, file last',
  };
}

/**
 * Compares parsed parts with the expected ones (R14): every formFields entry once as a
 * text part, name and value exact, in any order (the order received is the reference's,
 * another is acceptable); no other part; the file part last, with the filename, the
 * requested content type as its own Content-Type (a client rule) and the bytes.
 * @returns the first difference, and whether the text parts came in another order
 */
function compareParts(
  expected: readonly ExpectedPart[],
  actual: readonly MultipartPart[],
): { readonly problem?: string; readonly reordered: boolean } {
  const fail = (problem: string): { problem: string; reordered: boolean } => ({ problem, reordered: false });
  const wantTexts = expected.filter((p) => partData(p) === undefined);
  const wantFile = expected.find((p) => partData(p) !== undefined);
  const fileAt = actual.findIndex((p) => p.kind === 'file');
  if (wantFile && fileAt < 0) return fail(`the file part (${JSON.stringify(wantFile.name)}) is missing`);
  if (wantFile && fileAt !== actual.length - 1)
    return fail(
      `part ${fileAt + 1} is the file part, but ${actual.length - fileAt - 1} part(s) follow it, ` +
        `the first named ${JSON.stringify(actual[fileAt + 1]?.name)}: the file part goes last (R14)`,
    );
  const texts = wantFile ? actual.slice(0, -1) : actual;
  const seen = new Set<string>();
  for (const [i, have] of texts.entries()) {
    if (have.kind !== 'field') return fail(`part ${i + 1} (${have.name}) is a file part, expected a text part`);
    const want = wantTexts.find((w) => w.name === have.name);
    if (!want) return fail(`extra part ${i + 1} named ${JSON.stringify(have.name)} (R14: no other parts)`);
    if (seen.has(have.name))
      return fail(`part ${i + 1} repeats ${JSON.stringify(have.name)} (R14: each formFields entry once)`);
    seen.add(have.name);
    if ('value' in want && have.value !== want.value)
      return fail(
        `formFields entry ${want.name} changed: ${JSON.stringify(have.value)} instead of ${JSON.stringify(want.value)}`,
      );
  }
  const missing = wantTexts.find((w) => !seen.has(w.name));
  if (missing) return fail(`formFields entry ${JSON.stringify(missing.name)} is missing`);
  const reordered = texts.some((t, i) => t.name !== wantTexts[i]?.name);
  if (wantFile) {
    const have = actual[fileAt];
    const data = partData(wantFile);
    if (have?.kind !== 'file' || !('filename' in wantFile) || data === undefined)
      return fail(`the last part is not the file part (${JSON.stringify(wantFile.name)})`);
    if (have.name !== wantFile.name)
      return fail(`the file part is named ${JSON.stringify(have.name)}, expected ${JSON.stringify(wantFile.name)}`);
    if (have.filename !== wantFile.filename)
      return fail(
        `file part's filename is ${JSON.stringify(have.filename)}, expected ${JSON.stringify(wantFile.filename)}`,
      );
    if (have.contentType !== wantFile.contentType)
      return fail(
        `file part's content type is ${JSON.stringify(have.contentType)}, expected ` +
          `${JSON.stringify(wantFile.contentType)} (R14: the requested contentType)`,
      );
    if (!bytesEqual(have.data, data))
      return fail(`file part's bytes differ (${have.data.length} bytes, expected ${data.length})`);
  }
  return { reordered };
}
