/**
 * Zoo member: the upload form keeps only the formFields entries the SDK knows (bucket,
 * key, Content-Type, tagging, policy and x-amz-*) and drops the rest (§2.4: clients
 * must use what each response returns; §4.2: none omitted; R14, R15).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooSdk, zooSubject, type FormField } from './_sdk.js';

const KNOWN = new Set(['bucket', 'key', 'Content-Type', 'tagging', 'policy']);

class KnownFieldsOnlySdk extends ZooSdk {
  override formFieldsToSend(fields: readonly FormField[]): FormField[] {
    // BUG: a typed model of the S3 POST policy fields, everything else dropped on the way
    return fields.filter(([name]) => KNOWN.has(name) || name.startsWith('x-amz-'));
  }
}

/** The operations the bug reaches. */
export const routed = ['upload.form'] as const;

export function createSubject(): Subject {
  return zooSubject('upload-known-fields-only', new KnownFieldsOnlySdk(), routed);
}
