/**
 * Validation of the upload-credentials request body (spec §2.1, §2.2, §8; reading R13).
 * Outcomes are data: `{ valid: true }` or `{ valid: false, problem, message }`, the
 * problem naming the field, the rule it breaks and the limit, where there is one.
 * @module
 */
import { CREDENTIALS_LIMITS, SCENES, SCENE_NAMES, codePointLength, fileExtension, isSceneName } from './scenes.js';

/** The body of the credentials request as received: any JSON values, or absent. */
export interface CredentialsRequest {
  readonly filename?: unknown;
  readonly contentType?: unknown;
  readonly scene?: unknown;
  /**
   * The size of the file to be uploaded, in bytes. Not a field of §2.1: the kit passes
   * it alongside so that the §2.2 size limit can be judged with the request.
   */
  readonly fileSize?: unknown;
}

/** A field of {@link CredentialsRequest}. */
export type CredentialsField = 'filename' | 'contentType' | 'scene' | 'fileSize';

/** A rule of §2.1/§2.2/§8 that a field can break. */
export type CredentialsRule =
  'required' | 'type' | 'maxLength' | 'extension' | 'fileType' | 'uppercase' | 'allowedValue' | 'maxSize';

/** Why a credentials request is refused: the field, the rule and the limit, where there is one. */
export interface CredentialsProblem {
  readonly field: CredentialsField;
  readonly rule: CredentialsRule;
  /** maxLength, maxSize: the number; fileType, allowedValue: the allowed values joined by ", ". */
  readonly limit?: number | string;
}

/** The outcome of {@link validateCredentialsRequest}. */
export type CredentialsOutcome =
  { readonly valid: true } | { readonly valid: false; readonly problem: CredentialsProblem; readonly message: string };

/**
 * Validates the upload-credentials request body as the reference gateway does
 * (spec §2.1, §2.2, §8; reading R13) and reports the first problem, in this order:
 *
 * 1. filename — required (absent, null or ""), a string, at most 32 code points,
 *    with an extension (a "." followed by at least one character);
 * 2. contentType — optional (absent or null is fine), a string, at most 32 code points;
 * 3. scene — required, a string, at most 50 code points, upper case (equal to its
 *    upper-case form), a listed scene (exact match);
 * 4. the filename's extension — one of the scene's accepted types (`fileType`);
 * 5. fileSize — optional (absent or null is fine), a non-negative integer, at most the
 *    scene's maximum.
 *
 * Choices where R13 leaves room (vectors flag them ExtensionCase and SizeUnit, result
 * `acceptable`): the extension is compared case-insensitively (ASCII letters only), so
 * `SCAN.PDF` is accepted; 2 MB is 2,097,152 bytes and the limit is inclusive, so a file
 * of 2,000,001 to 2,097,152 bytes is accepted. Lengths count Unicode code points (R13):
 * 32 emoji are a valid filename although they are 64 UTF-16 units and 128 bytes.
 * Fields other than these four are ignored.
 *
 * @param request - the request body as received (and the file size, if known)
 * @returns valid, or the first problem with a message naming field, rule and limit
 * @example
 * validateCredentialsRequest({ filename: 'a.pdf', scene: 'DISPUTE_EVIDENCE' }) // { valid: true }
 * @example
 * const r = validateCredentialsRequest({ filename: 'a.gif', scene: 'DISPUTE_EVIDENCE' });
 * !r.valid && r.problem // { field: 'filename', rule: 'fileType', limit: 'jpg, jpeg, png, pdf, xls, xlsx' }
 */
export function validateCredentialsRequest(request: CredentialsRequest): CredentialsOutcome {
  const { filename, contentType, scene, fileSize } = request;

  const nameProblem = checkText('filename', filename, true);
  if (nameProblem) return nameProblem;
  const name = filename as string;
  const extension = fileExtension(name);
  if (extension === undefined)
    return refuse(
      { field: 'filename', rule: 'extension' },
      `filename ${quote(name)} has no extension: it must end in "." and at least one character (2.1)`,
    );

  const typeProblem = checkText('contentType', contentType, false);
  if (typeProblem) return typeProblem;

  const sceneProblem = checkText('scene', scene, true);
  if (sceneProblem) return sceneProblem;
  const sceneText = scene as string;
  if (sceneText !== sceneText.toUpperCase())
    return refuse({ field: 'scene', rule: 'uppercase' }, `scene ${quote(sceneText)} is not upper case (2.1)`);
  if (!isSceneName(sceneText)) {
    const allowed = SCENE_NAMES.join(', ');
    return refuse(
      { field: 'scene', rule: 'allowedValue', limit: allowed },
      `scene ${quote(sceneText)} is not an allowed value; allowed: ${allowed} (2.1, 2.2)`,
    );
  }
  const rule = SCENES[sceneText];

  if (!(rule.extensions as readonly string[]).includes(asciiLower(extension))) {
    const accepted = rule.extensions.join(', ');
    return refuse(
      { field: 'filename', rule: 'fileType', limit: accepted },
      `filename extension ${quote(extension)} is not accepted for scene ${sceneText}; accepted: ${accepted} (2.2, 8)`,
    );
  }

  if (fileSize === undefined || fileSize === null) return { valid: true };
  if (typeof fileSize !== 'number' || !Number.isInteger(fileSize) || fileSize < 0) {
    return refuse(
      { field: 'fileSize', rule: 'type' },
      `fileSize must be a non-negative integer number of bytes; got ${describeValue(fileSize)} (2.2)`,
    );
  }
  if (fileSize > rule.maxFileSize) {
    return refuse(
      { field: 'fileSize', rule: 'maxSize', limit: rule.maxFileSize },
      `fileSize is ${fileSize} bytes; the limit for scene ${sceneText} ` +
        `is ${rule.maxFileSize} (2 MB read as 2,097,152 bytes) (2.2, 8, R13)`,
    );
  }
  return { valid: true };
}

// --- internal ---

type TextField = 'filename' | 'contentType' | 'scene';

/**
 * The presence, type and length checks shared by the three string fields.
 * @returns the refusal, or undefined when the field passes (absent optional fields pass)
 */
function checkText(field: TextField, value: unknown, required: boolean): CredentialsOutcome | undefined {
  if (value === undefined || value === null || (required && value === '')) {
    if (!required) return undefined;
    return refuse({ field, rule: 'required' }, `${field} is required (2.1)`);
  }
  if (typeof value !== 'string')
    return refuse({ field, rule: 'type' }, `${field} must be a string; got ${describeValue(value)} (2.1)`);
  const limit = CREDENTIALS_LIMITS[field];
  const length = codePointLength(value);
  if (length > limit)
    return refuse(
      { field, rule: 'maxLength', limit },
      `${field} is ${length} characters long; the limit is ${limit} (2.1, 8)`,
    );
  return undefined;
}

function refuse(problem: CredentialsProblem, message: string): CredentialsOutcome {
  return { valid: false, problem, message };
}

/** Lower-cases A–Z only, so no other character can turn into an accepted extension. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

function quote(text: string): string {
  const chars = [...text];
  return JSON.stringify(chars.length > 60 ? `${chars.slice(0, 60).join('')}…` : text);
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (typeof value === 'string') return `the string ${quote(value)}`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
