/**
 * Client zoo member: the client percent-encodes the `key` entry as a URL path
 * (`encodeURI`) before sending it, because it also builds object URLs from it: a key
 * with a space reaches the upload address changed (§4.2: "name and value exactly as
 * returned, none … altered"; R14).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject, type FormField } from './_client.js';

class EncodedKeyClient extends ZooClient {
  override fieldsToSend(fields: readonly FormField[]): FormField[] {
    // BUG: the object key is escaped for a URL path ("it is a path, after all") before it goes into the form
    return fields.map(([name, value]): FormField => [name, name === 'key' ? encodeURI(value) : value]);
  }
}

export function createSubject(): Subject {
  return clientSubject('object-key-url-encoded', new EncodedKeyClient());
}
