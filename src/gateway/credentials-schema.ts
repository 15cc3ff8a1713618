/**
 * Validation of the upload-credentials request body against its JSON Schema
 * (`credentials-request.schema.json`: spec §2.1, §2.2, §8; reading R13), with ajv.
 * A refusal names the field and the rule, as the kit's own rules do
 * ({@link validateCredentialsRequest} of src/upload: the same fields, rules and order,
 * which a test checks over the credentials vectors).
 * @module
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { CredentialsField, CredentialsRule } from '../upload/credentials-request.js';
import { SCENES, SCENE_NAMES, codePointLength, fileExtension, type SceneName } from '../upload/scenes.js';
import { compileSchema, describeJson, quoteText } from './_ajv.js';
import schema from './credentials-request.schema.json' with { type: 'json' };

/** The JSON Schema of the credentials request body (draft 2020-12). */
export const CREDENTIALS_REQUEST_SCHEMA: object = schema;

/** A refusal of the body: the field (`body` for the body itself), the rule, the limit where there is one, and why. */
export interface CredentialsBodyProblem {
  readonly field: CredentialsField | 'body';
  readonly rule: CredentialsRule;
  readonly limit?: number | string;
  readonly message: string;
}

/** The outcome of {@link checkCredentialsBody}. */
export type CredentialsBodyOutcome =
  | {
      readonly valid: true;
      readonly filename: string;
      readonly contentType: string | undefined;
      readonly scene: SceneName;
    }
  | { readonly valid: false; readonly problem: CredentialsBodyProblem };

/**
 * Validates a parsed credentials request body against the schema and reports the first
 * problem in the order of {@link validateCredentialsRequest}: filename (required, type,
 * maxLength, extension), contentType (type, maxLength), scene (required, type, maxLength,
 * uppercase, allowedValue), then the filename's type for the scene.
 * @param body - the parsed JSON body
 * @returns valid with the fields, or the first problem with a message naming field and rule
 * @example checkCredentialsBody({ filename: 'a.pdf', scene: 'DISPUTE_EVIDENCE' }).valid // true
 */
export function checkCredentialsBody(body: unknown): CredentialsBodyOutcome {
  const validate = compileSchema(schema);
  if (validate(body)) {
    const b = body as { filename: string; contentType?: string | null; scene: string };
    // The schema's enum admits only listed scenes.
    return { valid: true, filename: b.filename, contentType: b.contentType ?? undefined, scene: b.scene as SceneName };
  }
  // A failed validation has errors, and at least one of them is a field's own (not only `if`).
  const found = (validate.errors as ErrorObject[]).map(toProblem).filter((p): p is Found => p !== undefined);
  found.sort((a, b) => rank(a) - rank(b));
  const first = found[0] as Found;
  return { valid: false, problem: { ...first, message: describe(first, body) } };
}

// --- internal ---

type Found = Omit<CredentialsBodyProblem, 'message'>;

const ORDER: ReadonlyArray<readonly [Found['field'], CredentialsRule]> = [
  ['body', 'type'],
  ['filename', 'required'],
  ['filename', 'type'],
  ['filename', 'maxLength'],
  ['filename', 'extension'],
  ['contentType', 'type'],
  ['contentType', 'maxLength'],
  ['scene', 'required'],
  ['scene', 'type'],
  ['scene', 'maxLength'],
  ['scene', 'uppercase'],
  ['scene', 'allowedValue'],
  ['filename', 'fileType'],
];

function rank(p: Found): number {
  return ORDER.findIndex(([f, r]) => f === p.field && r === p.rule);
}

function toProblem(e: ErrorObject): Found | undefined {
  // The schema only looks into filename, contentType and scene, all strings: no deeper paths.
  const field = ((e.keyword === 'required' ? String(e.params['missingProperty']) : e.instancePath.slice(1)) ||
    'body') as Found['field'];
  switch (e.keyword) {
    case 'required':
    case 'minLength':
      return { field, rule: 'required' };
    case 'type':
      return { field, rule: e.data === null && field !== 'body' ? 'required' : 'type' };
    case 'maxLength':
      return { field, rule: 'maxLength', limit: Number(e.params['limit']) };
    case 'pattern':
      if (field === 'scene') return { field, rule: 'uppercase' };
      return e.schemaPath.startsWith('#/allOf/')
        ? { field, rule: 'fileType', limit: SCENES.DISPUTE_EVIDENCE.extensions.join(', ') }
        : { field, rule: 'extension' };
    case 'enum':
      return { field, rule: 'allowedValue', limit: SCENE_NAMES.join(', ') };
    default:
      return undefined; // `if`: its `then` error is reported on its own
  }
}

function describe(p: Found, body: unknown): string {
  const value = field(body, p.field);
  const lead = `${p.field} breaks ${p.rule}:`;
  switch (p.rule) {
    case 'required':
      return `${lead} ${p.field} is required (2.1)`;
    case 'type':
      return p.field === 'body'
        ? `${lead} the body must be a JSON object; got ${describeJson(body)} (2.1)`
        : `${lead} ${p.field} must be a string; got ${describeJson(value)} (2.1)`;
    case 'maxLength':
      return (
        `${lead} ${p.field} is ${codePointLength(String(value))} characters (code points) long; ` +
        `the limit is ${String(p.limit)} (2.1, 8, R13)`
      );
    case 'extension':
      return (
        `${lead} filename ${quoteText(String(value))} has no extension: ` +
        'it must end in "." and at least one character (2.1)'
      );
    case 'uppercase':
      return `${lead} scene ${quoteText(String(value))} is not upper case (2.1)`;
    case 'allowedValue':
      return (
        `${lead} scene ${quoteText(String(value))} is not an allowed value; ` + `allowed: ${String(p.limit)} (2.1, 2.2)`
      );
    default:
      return (
        `${lead} filename extension ${quoteText(fileExtension(String(value)) as string)} ` +
        `is not accepted for scene ${String(field(body, 'scene'))}; accepted: ${String(p.limit)} (2.2, 8)`
      );
  }
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as Record<string, unknown>)[name]
    : undefined;
}
