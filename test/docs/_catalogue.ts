/**
 * The ids that must each have a page in docs/: every known mistake a diagnosis can name
 * (the catalogue tables of src/diagnosis/, and every literal `mistake: '…'` written in
 * its sources), and every failure kind the kit reports (case statuses, testee
 * failures, header, verification, upload and credentials problem kinds). The unions
 * are spelled out as exhaustive records, so a new kind without an entry here is a
 * type error (npm test type-checks test/).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PARSER_MISTAKES } from '../../src/diagnosis/authorization.js';
import { MISTAKES } from '../../src/diagnosis/mistakes.js';
import { REDIRECT_MISTAKES } from '../../src/diagnosis/redirect.js';
import { REFUSALS } from '../../src/diagnosis/refusals.js';
import { RUN_CAUSES } from '../../src/diagnosis/run-causes.js';
import { FORM_MISTAKES } from '../../src/diagnosis/upload.js';
import { UPLOAD_RULES } from '../../src/gateway/upload-problems.js';
import { VERDICT_INFO, type Verdict } from '../../src/runner/result.js';
import type { HeaderProblemKind } from '../../src/scheme/authorization.js';
import type { VerifyProblemKind } from '../../src/scheme/verify.js';
import { FORM_PROBLEMS, type CredentialsRule } from '../../src/upload/index.js';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';

/** Every mistake id a diagnosis can name, with where it comes from. */
export function mistakeIds(): Map<string, string> {
  const ids = new Map<string, string>();
  const add = (id: string, from: string): void => void (ids.has(id) || ids.set(id, from));
  for (const m of MISTAKES) add(m.id, 'MISTAKES (src/diagnosis/mistakes.ts)');
  for (const m of PARSER_MISTAKES) add(m.id, 'PARSER_MISTAKES (src/diagnosis/authorization.ts)');
  for (const id of Object.keys(REDIRECT_MISTAKES)) add(id, 'REDIRECT_MISTAKES (src/diagnosis/redirect.ts)');
  for (const id of Object.keys(FORM_MISTAKES)) add(id, 'FORM_MISTAKES (src/diagnosis/upload.ts)');
  for (const id of Object.keys(RUN_CAUSES)) add(id, 'RUN_CAUSES (src/diagnosis/run-causes.ts)');
  for (const kind of Object.keys(REFUSALS))
    add(`accepts-${kind}`, 'REFUSALS (src/diagnosis/refusals.ts), as accepts-<kind>');
  for (const [id, file] of literalMistakeIds()) add(id, `a literal mistake id in src/diagnosis/${file}`);
  return ids;
}

/** `mistake: 'id'` literals in the diagnosis sources (diagnoses written inline, not in a table): src/diagnosis/ and each role's diagnosis.ts. */
export function literalMistakeIds(): Array<[string, string]> {
  const dir = join(PACKAGE_ROOT, 'src', 'diagnosis');
  const roles = join(PACKAGE_ROOT, 'src', 'roles');
  const files = [
    ...readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ path: join(dir, f), name: f })),
    ...readdirSync(roles, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => ({ path: join(roles, e.name, 'diagnosis.ts'), name: `../roles/${e.name}/diagnosis.ts` })),
  ].filter((f) => existsSync(f.path));
  const out: Array<[string, string]> = [];
  for (const { path, name } of files) {
    for (const m of readFileSync(path, 'utf8').matchAll(/\bmistake:\s*'([a-z0-9-]+)'/g))
      if (m[1]) out.push([m[1], name]);
  }
  return out;
}

const HEADER_KINDS: Record<HeaderProblemKind, true> = {
  'empty-header': true,
  'wrong-scheme': true,
  'no-items': true,
  'malformed-item': true,
  'empty-value': true,
  'duplicate-item': true,
  'missing-item': true,
  'not-strict': true,
};

const VERIFY_KINDS: Record<VerifyProblemKind, true> = {
  'no-authorization': true,
  'malformed-authorization': true,
  'app-id-mismatch': true,
  'malformed-sign': true,
  'uppercase-sign': true,
  'sign-mismatch': true,
  'status-not-verified': true,
  'redirect-parameter': true,
  'redirect-encoding': true,
};

/** Credentials rules by their page id: `credentials-<rule in kebab case>`. */
const CREDENTIALS_RULES: Record<CredentialsRule, true> = {
  required: true,
  type: true,
  maxLength: true,
  extension: true,
  fileType: true,
  uppercase: true,
  allowedValue: true,
  maxSize: true,
};

/** A verdict's page: every verdict but `passed`. */
const VERDICT_PAGES: Record<Verdict, boolean> = Object.fromEntries(
  Object.keys(VERDICT_INFO).map((v) => [v, v !== 'passed']),
) as Record<Verdict, boolean>;

/**
 * How a testee fails (src/protocol/testee.ts, docs/PROTOCOL.md "Errors, restarts and
 * timeouts"): its messages are free text, so the kinds are listed here.
 */
export const TESTEE_FAILURES = [
  'testee-start',
  'testee-crashed',
  'testee-timeout',
  'testee-not-json',
  'testee-wrong-id',
  'testee-protocol-error',
] as const;

/** What a whole run can end in besides its cases' verdicts (src/runner/coverage.ts). */
export const RUN_OUTCOMES = ['no-test-ran', 'other-targets', 'target-unreachable'] as const;

/** Every failure kind with a page, with where it comes from. */
export function failureKinds(): Map<string, string> {
  const ids = new Map<string, string>();
  const add = (id: string, from: string): void => void (ids.has(id) || ids.set(id, from));
  for (const [v, page] of Object.entries(VERDICT_PAGES)) if (page) add(v, 'Verdict (src/runner/result.ts)');
  for (const id of TESTEE_FAILURES) add(id, 'testee failures (test/docs/_catalogue.ts)');
  for (const id of RUN_OUTCOMES) add(id, 'run outcomes (test/docs/_catalogue.ts)');
  for (const id of Object.keys(HEADER_KINDS)) add(id, 'HeaderProblem (src/scheme/authorization.ts)');
  for (const id of Object.keys(VERIFY_KINDS)) add(id, 'VerifyProblem (src/scheme/verify.ts)');
  for (const id of Object.keys(UPLOAD_RULES)) add(id, 'UPLOAD_RULES (src/gateway/upload-problems.ts)');
  for (const id of Object.keys(FORM_PROBLEMS)) add(id, 'FORM_PROBLEMS (src/upload/form-check.ts)');
  for (const rule of Object.keys(CREDENTIALS_RULES))
    add(
      `credentials-${rule.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`,
      'CredentialsRule (src/upload/credentials-request.ts)',
    );
  return ids;
}
