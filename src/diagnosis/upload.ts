/**
 * Diagnosis of the upload cases (§2.1, §4.2; R13, R14). A form that does not hold the
 * expected parts is checked as the upload address checks it ({@link checkUploadBody}),
 * which names what is wrong (the file part not last, an entry missing …). A valid
 * credentials request refused while one of its texts is within its limit in code points
 * but over it in UTF-16 units: the lengths are counted in UTF-16 units.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { fromBase64 } from '../scheme/bytes.js';
import type { Diagnosis } from './diagnosis.js';
import {
  CREDENTIALS_LIMITS,
  FORM_PROBLEMS,
  checkUploadBody,
  codePointLength,
  type FormProblemKind,
} from '../upload/index.js';
import { fileBytes } from '../vectors/fields.js';
import type { UploadCase } from '../vectors/types.js';
import { refused, resultOf } from './common.js';

/**
 * What a form with each problem of {@link FORM_PROBLEMS} is, "in which …"; the mistake id
 * is the problem's kind.
 * @example FORM_MISTAKES['file-not-last'] // 'a part follows the file part, which goes last'
 */
export const FORM_MISTAKES: Readonly<Record<FormProblemKind, string>> = Object.freeze({
  'malformed-multipart': 'the body cannot be read as multipart/form-data',
  'no-file-part': 'no part named file carries a filename',
  'extra-file-part': 'more than one part carries a filename',
  'file-not-last': 'a part follows the file part, which goes last',
  'field-missing': 'a formFields entry was left out',
  'field-changed': 'a formFields value was changed',
  'field-added': 'a text part was added that is not a formFields entry, or an entry was repeated',
  'file-name': "the file part's filename is not the one of the credentials request",
  'file-content-type': "the file part's content type is not the one of the credentials request",
  'file-content': "the file part does not carry the file's bytes",
});

/**
 * The known mistakes that explain a failed upload case.
 * @param c - the case
 * @param outcome - the failed operation's outcome
 * @returns the diagnoses; empty when nothing fits
 */
export async function diagnoseUpload(c: UploadCase, outcome: OpOutcome): Promise<Diagnosis[]> {
  if (c.op === 'upload.form') return diagnoseForm(c, outcome);
  if (c.op === 'upload.validate' && c.result === 'valid' && refused(outcome.got)) return utf16Length(c.inputs);
  return [];
}

// --- internal ---

async function diagnoseForm(c: Extract<UploadCase, { op: 'upload.form' }>, outcome: OpOutcome): Promise<Diagnosis[]> {
  const result = resultOf(outcome.got);
  const contentType = result?.['contentType'];
  const bodyB64 = result?.['bodyB64'];
  if (typeof contentType !== 'string' || typeof bodyB64 !== 'string') return [];
  const { formFields, filename, contentType: fileType } = c.inputs;
  let check: Awaited<ReturnType<typeof checkUploadBody>>;
  try {
    check = await checkUploadBody(
      { formFields, filename, contentType: fileType, file: fileBytes(c.inputs) },
      fromBase64(bodyB64),
      contentType,
    );
  } catch {
    return [];
  }
  if (check.valid) return [];
  const kind = check.problem.kind;
  return [
    {
      mistake: kind,
      message: `your form is one in which ${FORM_MISTAKES[kind]}`,
      ref: FORM_PROBLEMS[kind].sources.map((s) => (/^\d/.test(s) ? `§${s}` : s)).join(', '),
    },
  ];
}

function utf16Length(inputs: {
  readonly filename: string | null;
  readonly contentType: string | null;
  readonly scene: string | null;
}): Diagnosis[] {
  const over = (Object.keys(CREDENTIALS_LIMITS) as Array<keyof typeof CREDENTIALS_LIMITS>).some((field) => {
    const text = inputs[field];
    return (
      typeof text === 'string' &&
      text.length > CREDENTIALS_LIMITS[field] &&
      codePointLength(text) <= CREDENTIALS_LIMITS[field]
    );
  });
  if (!over) return [];
  return [
    {
      mistake: 'utf16-length',
      message:
        'your length is the count of UTF-16 units, in which a character ' +
        'beyond U+FFFF (an emoji) counts twice: lengths count code points',
      ref: 'R13',
    },
  ];
}
