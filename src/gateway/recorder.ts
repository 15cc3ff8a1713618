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
 *
 * The recorder is bounded whatever arrives (issue 12): a refused request or upload is kept as a
 * summary (the body's first KiB, headers and field values clipped, at most 32 parts), everything
 * recorded counts against one byte budget across all scenario ids, and the number of ids is
 * bounded; past either, the scenario least recently written to is dropped whole.
 * @module
 */
import type { Tolerance } from '../scheme/authorization.js';
import type { FoundMistake } from './request-auth.js';

/** How the signature of a recorded API request fared. */
export type RequestVerification =
  | { readonly valid: true; readonly appId: string; readonly tolerated: readonly Tolerance[] }
  | {
      readonly valid: false;
      /**
       * The problem kind: no-authorization, malformed-authorization, unknown-app-id, malformed-sign, uppercase-sign,
       * sign-mismatch.
       */
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
  /**
   * The body bytes as received (at most the API's body limit); of a refused request only the
   * first {@link SUMMARY_BODY_BYTES} are kept ({@link RecordedRequest.bodySize} says how many came).
   */
  readonly body: Uint8Array;
  /** How many body bytes were received (≥ body.length). */
  readonly bodySize: number;
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
  | {
      readonly kind: 'file';
      readonly name: string;
      readonly filename: string;
      readonly contentType: string;
      readonly size: number;
      readonly sha256?: string;
    };

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
  /** Stored with the formFields entries in another order than issued (acceptable, R14). */
  readonly reordered?: true;
}

/** Everything recorded under one scenario id. */
export interface ScenarioRecord {
  /** The scenario id; undefined for plain paths. */
  readonly id: string | undefined;
  readonly requests: readonly RecordedRequest[];
  readonly uploads: readonly RecordedUpload[];
}

/** The most body bytes kept of a refused request. */
export const SUMMARY_BODY_BYTES = 1024;

/** The most characters kept of a header value, a URL or a field value in a refused exchange's summary. */
export const SUMMARY_TEXT_CHARS = 1024;

/** The most parts kept of a refused upload. */
export const SUMMARY_PARTS = 32;

/** How much the recorder keeps. */
export interface RecorderLimits {
  /** The most requests and uploads kept per scenario (the oldest dropped). Default: no count limit. */
  readonly perScenario?: number;
  /** Bytes of everything recorded, all scenarios together (bodies, headers, URLs, parts). Default 32 MiB. */
  readonly maxBytes?: number;
  /** Scenario ids kept. Default 2,000. */
  readonly maxScenarios?: number;
}

/** The default byte budget of the recorder. */
export const DEFAULT_RECORD_BYTES = 32 * 1024 * 1024;

/**
 * The default number of scenario ids kept: a test suite's scenarios in one session (the least
 * recently written is dropped first, so the scenarios of tests running now stay), and few enough
 * that a flood of refused requests to distinct ids grows `pgv2kit serve` by less than 100 MB
 * however long it lasts (bench gateway-flood, 30,000 requests: 74 MB; 99 MB at 5,000 ids, 130 MB
 * at 10,000).
 */
export const DEFAULT_RECORD_SCENARIOS = 2_000;

type Entry = {
  readonly record: { id: string | undefined; requests: RecordedRequest[]; uploads: RecordedUpload[] };
  bytes: number;
};

/**
 * The gateway's recorder.
 * @example
 * const record = gateway.recorder.for('client.happy-pdf');
 * record.uploads[0]?.problem // e.g. 'formFields entry x-amz-date changed'
 */
export class Recorder {
  /** By id, least recently written first (a write moves an id to the end). */
  readonly #records = new Map<string | undefined, Entry>();
  readonly #perScenario: number;
  readonly #maxBytes: number;
  readonly #maxScenarios: number;
  #bytes = 0;
  #seq = 0;
  #dropped = 0;

  /**
   * @param limits - {@link RecorderLimits}, or the per-scenario count alone
   */
  constructor(limits: number | RecorderLimits = {}) {
    const l = typeof limits === 'number' ? { perScenario: limits } : limits;
    this.#perScenario = l.perScenario ?? Number.POSITIVE_INFINITY;
    this.#maxBytes = l.maxBytes ?? DEFAULT_RECORD_BYTES;
    this.#maxScenarios = l.maxScenarios ?? DEFAULT_RECORD_SCENARIOS;
  }

  /**
   * The record of a scenario id (an empty one when nothing was received under it).
   * @param scenarioId - the id; omit for plain paths
   * @returns the record; it grows as requests arrive
   * @example gateway.recorder.for('client.tampered-sign').requests.length
   */
  for(scenarioId?: string): ScenarioRecord {
    return this.#record(scenarioId, false).record;
  }

  /**
   * The scenario ids something was recorded under (undefined for plain paths).
   * @returns the ids, least recently written first
   * @example gateway.recorder.ids()
   */
  ids(): Array<string | undefined> {
    return [...this.#records.values()]
      .filter((e) => e.record.requests.length + e.record.uploads.length > 0)
      .map((e) => e.record.id);
  }

  /**
   * What the recorder holds and has let go.
   * @returns the bytes counted, the scenario ids held, and the scenarios dropped to stay in bounds
   * @example gateway.recorder.usage().bytes
   */
  usage(): { readonly bytes: number; readonly scenarios: number; readonly dropped: number } {
    return { bytes: this.#bytes, scenarios: this.#records.size, dropped: this.#dropped };
  }

  /**
   * Forgets what was recorded under one id (records handed out before stay as they were).
   * @param scenarioId - the id; omit for the plain record
   * @example gateway.recorder.clear('client.happy-pdf')
   */
  clear(scenarioId?: string): void {
    const r = this.#records.get(scenarioId);
    if (r) this.#bytes -= r.bytes;
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
   * Records an API request: whole when it succeeded, as a summary when it was refused.
   * @param scenarioId - the scenario id of its path (undefined for a plain path)
   * @param request - what was received and answered (bodySize is set here)
   */
  addRequest(scenarioId: string | undefined, request: Omit<RecordedRequest, 'bodySize'>): void {
    const refused = !request.verified || request.problem !== undefined;
    const kept: RecordedRequest = refused
      ? summarizeRequest(request)
      : { ...request, bodySize: request.body.byteLength };
    this.#add(scenarioId, 'requests', kept, requestBytes(kept));
  }

  /**
   * Records an upload: as a summary when it was refused.
   * @param scenarioId - the scenario id of its path (undefined for a plain path)
   * @param upload - what was received and answered
   */
  addUpload(scenarioId: string | undefined, upload: RecordedUpload): void {
    const kept = upload.outcome.ok ? upload : summarizeUpload(upload);
    this.#add(scenarioId, 'uploads', kept, uploadBytes(kept));
  }

  #add(
    scenarioId: string | undefined,
    kind: 'requests' | 'uploads',
    item: RecordedRequest | RecordedUpload,
    bytes: number,
  ): void {
    const entry = this.#record(scenarioId, true);
    if (kind === 'requests') entry.record.requests.push(item as RecordedRequest);
    else entry.record.uploads.push(item as RecordedUpload);
    entry.bytes += bytes;
    this.#bytes += bytes;
    if (entry.record[kind].length > this.#perScenario) this.#shift(entry, kind);
    // the byte budget: the scenarios least recently written to go first, this one last (its oldest entries)
    while (this.#bytes > this.#maxBytes) {
      const oldest = this.#records.values().next().value as Entry;
      if (oldest !== entry) this.#drop(oldest);
      else if (!this.#shift(entry, entry.record.requests.length > 0 ? 'requests' : 'uploads')) break;
    }
  }

  /** Drops the oldest request or upload of a record. */
  #shift(entry: Entry, kind: 'requests' | 'uploads'): boolean {
    const gone = entry.record[kind].shift();
    if (gone === undefined) return false;
    const bytes = kind === 'requests' ? requestBytes(gone as RecordedRequest) : uploadBytes(gone as RecordedUpload);
    entry.bytes -= bytes;
    this.#bytes -= bytes;
    return true;
  }

  #drop(entry: Entry): void {
    this.#records.delete(entry.record.id);
    this.#bytes -= entry.bytes;
    this.#dropped += 1;
  }

  #record(id: string | undefined, write: boolean): Entry {
    let r = this.#records.get(id);
    if (r && write) {
      // a Map iterates in insertion order: re-inserted, the scenario written last is evicted last
      this.#records.delete(id);
      this.#records.set(id, r);
    }
    if (!r) {
      r = { record: { id, requests: [], uploads: [] }, bytes: 0 };
      this.#records.set(id, r);
      while (this.#records.size > this.#maxScenarios) this.#drop(this.#records.values().next().value as Entry);
    }
    return r;
  }
}

// --- internal ---

/** What one record costs beyond its bytes: the objects, arrays and strings that hold them (measured: about 1 KiB). */
const OVERHEAD = 1024;

function clip(text: string): string {
  return text.length > SUMMARY_TEXT_CHARS ? `${text.slice(0, SUMMARY_TEXT_CHARS)}…` : text;
}

function clipHeaders(headers: ReadonlyArray<readonly [string, string]>): ReadonlyArray<readonly [string, string]> {
  return headers.map(([n, v]) => [clip(n), clip(v)] as const);
}

function summarizeRequest(r: Omit<RecordedRequest, 'bodySize'>): RecordedRequest {
  // a copy, not a view: a view would keep the whole received body alive
  const body =
    r.body.byteLength > SUMMARY_BODY_BYTES ? Uint8Array.prototype.slice.call(r.body, 0, SUMMARY_BODY_BYTES) : r.body;
  return { ...r, url: clip(r.url), headers: clipHeaders(r.headers), body, bodySize: r.body.byteLength };
}

function summarizeUpload(u: RecordedUpload): RecordedUpload {
  const parts = u.parts
    .slice(0, SUMMARY_PARTS)
    .map((p) =>
      p.kind === 'field'
        ? { ...p, name: clip(p.name), value: clip(p.value) }
        : { ...p, name: clip(p.name), filename: clip(p.filename), contentType: clip(p.contentType) },
    );
  return { ...u, url: clip(u.url), headers: clipHeaders(u.headers), parts };
}

function headerBytes(headers: ReadonlyArray<readonly [string, string]>): number {
  let n = 0;
  for (const [name, value] of headers) n += name.length + value.length + 4;
  return n;
}

function requestBytes(r: RecordedRequest): number {
  return (
    OVERHEAD +
    r.url.length +
    headerBytes(r.headers) +
    r.body.byteLength +
    r.response.body.byteLength +
    (r.issued ? 2048 : 0)
  );
}

function uploadBytes(u: RecordedUpload): number {
  let n = OVERHEAD + u.url.length + headerBytes(u.headers);
  for (const p of u.parts)
    n += OVERHEAD + p.name.length + (p.kind === 'field' ? p.value.length : p.filename.length + p.contentType.length);
  return n;
}
