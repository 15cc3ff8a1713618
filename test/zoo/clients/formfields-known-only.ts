/**
 * Client zoo member: the upload forwards only the formFields entries the SDK knows —
 * bucket, key, Content-Type, tagging, policy and x-amz-* — and drops the rest (§2.4:
 * clients must use what each response returns; §4.2: none omitted; R14, R15).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type FormField } from './_client.js';

const KNOWN = new Set(['bucket', 'key', 'Content-Type', 'tagging', 'policy']);

class KnownFieldsClient extends ZooClient {
  override fieldsToSend(fields: readonly FormField[]): FormField[] {
    // BUG: a typed model of S3's POST policy fields; everything else is dropped on the way
    return fields.filter(([name]) => KNOWN.has(name) || name.startsWith('x-amz-'));
  }
}

export function createSubject(): Subject {
  return clientSubject('formfields-known-only', new KnownFieldsClient());
}
