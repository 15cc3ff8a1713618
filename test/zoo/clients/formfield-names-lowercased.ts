/**
 * Client zoo member: the upload sends the formFields names lower-cased (the SDK keeps
 * them like HTTP header names), so `Content-Type` goes out as `content-type` (§4.2:
 * "name and value exactly as returned"; R14).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type FormField } from './_client.js';

class LowerCaseNamesClient extends ZooClient {
  override fieldsToSend(fields: readonly FormField[]): FormField[] {
    // BUG: names normalised as header names are ("they are case-insensitive anyway"); order and values kept
    return fields.map(([name, value]) => [name.toLowerCase(), value] as const);
  }
}

export function createSubject(): Subject {
  return clientSubject('formfield-names-lowercased', new LowerCaseNamesClient());
}
