/**
 * Client zoo member: the client puts the path and query in part 4 instead of the full
 * URL (§5.1 part 4: "Full URL"; R4: scheme://host[:port]/path[?query] as sent).
 * @module
 */
import type { Subject } from '../../../src/subjects/subject.js';
import { ZooClient, clientSubject } from './_client.js';

class PathSigningClient extends ZooClient {
  override signedUrl(url: string): string {
    const u = new URL(url);
    return u.pathname + u.search; // BUG: the request target, as an HTTP server sees it, not the full URL
  }
}

export function createSubject(): Subject {
  return clientSubject('url-path-signed', new PathSigningClient());
}
