/**
 * What each client sent, per scenario id: every API request (method, full URL as
 * received, headers, raw body bytes, the verification outcome with the known mistake
 * that reproduces a wrong sign, and the answer) and every upload (its parts in order,
 * the check outcome with the exact rule broken, and whether it was stored). Requests
 * on plain paths (no `/s/<id>` prefix) are recorded under the plain record,
 * `recorder.for()` / `recorder.for(undefined)`.
 *
 * The record of a scenario is shaped so that the runner's view of it
 * (`requests[].path/verified/problem`, `uploads[].stored/problem/storageUri`) reads it as is.
 * @module
 */
import type { Tolerance } from '../scheme/authorization.js';
import type { FoundMistake } from './request-auth.js';

/** How the signature of a recorded API request fared. */
export type RequestVerification =
  | { readonly valid: true; readonly appId: string; readonly tolerated: readonly Tolerance[] }
  | {
      readonly valid: false;
      /** The problem kind: no-authorization, malformed-authorization, unknown-app-id, malformed-sign, uppercase-sign, sign-mismatch. */
      readonly problem: string;
      /** Why, in words. */
      readonly message: string;
      /** The appId the header named, when it could be read. */
      readonly appId?: string;
      /** The known mistakes that reproduce the sign (sign-mismatch only). */
      readonly mistakes: readonly FoundMistake[];
    };

/** One API request as the gateway received and answered it. */
export interface RecordedRequest {
  /** Order among every exchange of the gateway. */
  readonly seq: number;
  /** The gateway clock when it arrived, milliseconds. */
  readonly at: number;
  readonly method: string;
  /** The full URL as the client sent it (scheme://Host + request target; R4). */
  readonly url: string;
  /** The operation path, without the scenario prefix and the query (e.g. `/pg/v2/file/generateUploadUrl`). */
  readonly path: string;
  /** The headers as received: [name, value] in order, names as written. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body bytes as received (at most the API's body limit). */
  readonly body: Uint8Array;
  /** False when the body was cut at the limit or stopped arriving. */
  readonly bodyComplete: boolean;
  readonly verification: RequestVerification;
  /** Whether the signature verified. */
  readonly verified: boolean;
  /** Why the request was refused, in words; absent on success. */
  readonly problem?: string;
  /** The answer. */
  readonly response: {
    readonly status: number;
    readonly code: string;
    readonly errorMessage: string | null;
    /** The exact response bytes. */
    readonly body: Uint8Array;
    /** The response's Authorization header, when it had one. */
    readonly authorization?: string;
  };
  /** What a successful credentials request issued. */
  readonly issued?: {
    readonly uploadNo: string;
    readonly storageUri: string;
    readonly uploadUrl: string;
    readonly key: string;
    readonly formFields: ReadonlyArray<readonly [string, string]>;
    readonly expiresAt: number;
  };
  /** The paymentNo a successful payment creation returned. */
  readonly paymentNo?: string;
}

/** One part of a recorded upload, in the order received (file bytes are not kept: size and SHA-256). */
export type RecordedPart =
  | { readonly kind: 'field'; readonly name: string; readonly value: string; readonly size: number }
  | { readonly kind: 'file'; readonly name: string; readonly filename: string; readonly contentType: string; readonly size: number; readonly sha256?: string };

/** The rule an upload broke (see UPLOAD_PROBLEMS). */
export interface UploadOutcomeProblem {
  readonly rule: string;
  /** The formFields entry or part concerned. */
  readonly field?: string;
  /** The rule in words: "formFields entry x-amz-date changed", "file part not last" … */
  readonly message: string;
  /** More: S3's words, the limit … */
  readonly detail: string;
}

/** One upload as the upload address received and answered it. */
export interface RecordedUpload {
  readonly seq: number;
  readonly at: number;
  readonly method: string;
  readonly url: string;
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The parts, in order. */
  readonly parts: readonly RecordedPart[];
  /** Accepted, or the rule broken. */
  readonly outcome: { readonly ok: true } | ({ readonly ok: false } & UploadOutcomeProblem);
  /** The rule broken, in words; absent when accepted. */
  readonly problem?: string;
  /** HTTP status of the answer (0 when the client went away before one could be sent). */
  readonly status: number;
  /** Whether the file was stored. */
  readonly stored: boolean;
  readonly storageUri?: string;
  readonly key?: string;
  readonly uploadNo?: string;
  /** Deviations that do not refuse the upload (e.g. formFields out of order, R14). */
  readonly advisories: readonly string[];
}

/** Everything recorded under one scenario id. */
export interface ScenarioRecord {
  /** The scenario id; undefined for plain paths. */
  readonly id: string | undefined;
  readonly requests: readonly RecordedRequest[];
  readonly uploads: readonly RecordedUpload[];
}

/**
 * The gateway's recorder.
 * @example
 * const record = gateway.recorder.for('client.happy-pdf');
 * record.uploads[0]?.problem // e.g. 'formFields entry x-amz-date changed'
 */
export class Recorder {
  readonly #records = new Map<string | undefined, { id: string | undefined; requests: RecordedRequest[]; uploads: RecordedUpload[] }>();
  #seq = 0;

  /**
   * @param limit - the most requests and uploads kept per scenario (the oldest are dropped);
   *   default: all. `pgv2kit serve`, which runs for long, sets one.
   */
  constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {}

  /**
   * The record of a scenario id (an empty one when nothing was received under it).
   * @param scenarioId - the id; omit for plain paths
   * @returns the record; it grows as requests arrive
   * @example gateway.recorder.for('client.tampered-sign').requests.length
   */
  for(scenarioId?: string): ScenarioRecord {
    return this.#record(scenarioId);
  }

  /**
   * The scenario ids something was recorded under (undefined for plain paths).
   * @returns the ids, in first-seen order
   * @example gateway.recorder.ids()
   */
  ids(): Array<string | undefined> {
    return [...this.#records.values()].filter((r) => r.requests.length + r.uploads.length > 0).map((r) => r.id);
  }

  /**
   * Forgets what was recorded under one id (records handed out before stay as they were).
   * @param scenarioId - the id; omit for the plain record
   * @example recorder.clear('client.happy-pdf')
   */
  clear(scenarioId?: string): void {
    this.#records.delete(scenarioId);
  }

  /**
   * The next sequence number (shared by requests and uploads).
   * @returns 1, 2, 3 …
   */
  nextSeq(): number {
    return ++this.#seq;
  }

  /**
   * Records an API request.
   * @param scenarioId - the scenario id of its path (undefined for a plain path)
   * @param request - what was received and answered
   */
  addRequest(scenarioId: string | undefined, request: RecordedRequest): void {
    const list = this.#record(scenarioId).requests;
    list.push(request);
    if (list.length > this.limit) list.shift();
  }

  /**
   * Records an upload.
   * @param scenarioId - the scenario id of its path (undefined for a plain path)
   * @param upload - what was received and answered
   */
  addUpload(scenarioId: string | undefined, upload: RecordedUpload): void {
    const list = this.#record(scenarioId).uploads;
    list.push(upload);
    if (list.length > this.limit) list.shift();
  }

  #record(id: string | undefined): { id: string | undefined; requests: RecordedRequest[]; uploads: RecordedUpload[] } {
    let r = this.#records.get(id);
    if (!r) {
      r = { id, requests: [], uploads: [] };
      this.#records.set(id, r);
    }
    return r;
  }
}
