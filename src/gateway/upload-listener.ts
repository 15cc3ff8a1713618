/**
 * The upload address (spec §4.2, §3, §7, §8; readings R13, R14): POST <uploadUrl> with
 * a multipart/form-data body, read as a stream with busboy.
 *
 * A request that carries an Authorization header is refused first (R14: the gateway's
 * header signs another request; S3 refuses one it cannot read as its own).
 * As S3 reads a POST: the fields before the file part are checked against the policy
 * among them ({@link checkPostPolicy}: signature re-derived, every condition, nothing
 * added, not expired); fields after the file are ignored, so a file part that is not
 * last fails its conditions — and is refused as "file part not last" even when every
 * field came first. The file part must be the only one, named `file`, carry the
 * requested filename and content type and a type of the scene; its bytes stream to a
 * temporary file, and the upload is refused as soon as they cross 2 MiB (never
 * buffered past it). Accepted: 204 with no body, the file stored byte-identical.
 * Refused: an S3-style XML error naming the rule (upload-problems.ts), nothing stored.
 * Every upload is recorded under the scenario id of its path.
 * @module
 */
import busboy from 'busboy';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { reportedMediaType } from '../upload/content-type.js';
import { carriesParam } from '../upload/form-param.js';
import { SCENES, fileExtension } from '../upload/scenes.js';
import { drainRest, fullUrl, rawHeaderPairs, targetPath } from './http-io.js';
import { s3ErrorXml } from './_xml.js';
import type { Clock } from './clock.js';
import { checkPostPolicy, decodePolicy, type StorageSigner } from './policy.js';
import type { RecordedPart, RecordedUpload, Recorder } from './recorder.js';
import { splitScenarioPath } from './scenario-routing.js';
import type { GatewayStorage, IncomingObject } from './storage.js';
import type { IssuedUpload, IssuedUploads } from './upload-credentials.js';
import { S3_STATUS, UPLOAD_RULES, ruleMessage, type UploadRule } from './upload-problems.js';
import { clip } from '../scheme/text.js';

/**
 * The largest file accepted, bytes: 2 MB read as 2,097,152 (R13), the largest of any scene.
 * @example MAX_FILE_SIZE // 2097152 — a larger file is refused with EntityTooLarge
 */
export const MAX_FILE_SIZE = Math.max(...Object.values(SCENES).map((s) => s.maxFileSize));

/**
 * The largest whole body read, bytes: the file plus 1 MiB for the fields and part headers.
 * @example MAX_UPLOAD_BODY - MAX_FILE_SIZE // 1048576 — a larger body is refused before it is read
 */
export const MAX_UPLOAD_BODY = MAX_FILE_SIZE + 1024 * 1024;

/**
 * The longest text part (name or value), bytes.
 * @example MAX_FIELD_SIZE // 16384 — a longer name or value is refused with EntityTooLarge
 */
export const MAX_FIELD_SIZE = 16 * 1024;

/**
 * The most parts in one form.
 * @example MAX_PARTS // 100 — a form of more parts is refused
 */
export const MAX_PARTS = 100;

/** What the upload address needs of the gateway. */
export interface UploadContext {
  readonly signer: StorageSigner;
  readonly bucket: string;
  readonly clock: Clock;
  readonly storage: GatewayStorage;
  readonly recorder: Recorder;
  readonly issued: IssuedUploads;
  readonly bodyTimeoutMs: number;
  readonly log: (line: string) => void;
}

/**
 * Handles one upload: streams, checks, stores or refuses, records. Never rejects for
 * any input; an unexpected exception propagates to the server wiring (500, logged).
 * @param ctx - the gateway
 * @param req - the request
 * @param res - the answer
 * @returns when the upload has been answered and recorded
 */
export function handleUpload(ctx: UploadContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => new UploadExchange(ctx, req, res, resolve).start());
}

// --- internal ---

interface Refusal {
  readonly rule: UploadRule;
  readonly field?: string;
  readonly detail: string;
  /** An S3 code other than the rule's default. */
  readonly s3Code?: string;
}

type TextSlot = { name: string; value: string };

class UploadExchange {
  readonly #seq: number;
  readonly #at: number;
  readonly #route: ReturnType<typeof splitScenarioPath>;
  readonly #parts: RecordedPart[] = [];
  /** Text parts before the file part, in order (values filled as they complete). */
  readonly #before: TextSlot[] = [];
  readonly #pending: Array<Promise<void>> = [];
  #files = 0;
  #file: { name: string; filename: string; contentType: string; index: number } | undefined;
  #after: string[] = [];
  #incoming: IncomingObject | undefined;
  #fileEnded: Promise<void> = Promise.resolve();
  #received = 0;
  #done = false;
  #timer: NodeJS.Timeout | undefined;
  #parser: busboy.Busboy | undefined;

  constructor(
    private readonly ctx: UploadContext,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly resolve: () => void,
  ) {
    this.#seq = ctx.recorder.nextSeq();
    this.#at = ctx.clock.now();
    // A server request always has a method and a target.
    this.#route = splitScenarioPath(targetPath(req.url as string));
  }

  start(): void {
    const { req, ctx } = this;
    const rest = this.#route.rest;
    if (rest !== `/${ctx.bucket}` && rest !== `/${ctx.bucket}/`)
      return this.#refuse({ rule: 'no-such-bucket', detail: `The specified bucket does not exist: ${rest}` });
    if (req.method !== 'POST')
      return this.#refuse({
        rule: 'method-not-allowed',
        detail: `The specified method is not allowed against this resource: ${String(req.method)}`,
      });
    // R14: the gateway's Authorization signs another request and is never sent here; S3 would read it as its own and
    // refuse it
    if (req.headers.authorization !== undefined)
      return this.#refuse({
        rule: 'authorization-header',
        detail:
          'Unsupported Authorization Type: the upload carries an Authorization header; a POST upload is authorized ' +
          'by its policy and signature fields alone (4.2, R14).',
      });
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > MAX_UPLOAD_BODY) {
      return this.#refuse({
        rule: 'body-too-large',
        detail:
          'Your proposed upload exceeds the maximum allowed size: ' + `Content-Length ${declared} > ${MAX_UPLOAD_BODY}`,
      });
    }
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        preservePath: true,
        defParamCharset: 'utf8',
        limits: {
          fieldSize: MAX_FIELD_SIZE,
          fieldNameSize: MAX_FIELD_SIZE,
          parts: MAX_PARTS,
          fileSize: Infinity,
          files: Infinity,
          fields: Infinity,
          headerPairs: 100,
        },
      });
    } catch (e) {
      return this.#refuse({
        rule: 'not-multipart',
        detail: `Bucket POST must be of the enclosure-type multipart/form-data (${(e as Error).message})`,
      });
    }
    this.#parser = parser;
    parser.on('field', (name: string, value: string, info: busboy.FieldInfo) => this.#onField(name, value, info));
    parser.on('file', (name: string, stream: Readable, info: busboy.FileInfo) => this.#onFile(name, stream, info));
    parser.on('partsLimit', () =>
      this.#refuse({ rule: 'too-many-parts', detail: `The form has more than ${MAX_PARTS} parts.` }),
    );
    parser.on('error', (e: Error) =>
      this.#refuse({
        rule: 'malformed-multipart',
        detail: `The body of your POST request is not well-formed multipart/form-data: ${e.message}`,
      }),
    );
    parser.on('close', () => void this.#evaluate().catch((e: unknown) => this.#crash(e)));

    this.#timer = setTimeout(
      () => this.#refuse({ rule: 'timeout', detail: `The body stopped arriving for ${ctx.bodyTimeoutMs} ms.` }),
      ctx.bodyTimeoutMs,
    );
    req.on('data', (chunk: Buffer) => {
      try {
        this.#onData(chunk);
      } catch (e) {
        this.#crash(e);
      }
    });
    req.on('end', () => {
      clearTimeout(this.#timer);
      if (!this.#done) parser.end();
    });
    req.on('close', () => {
      if (!req.complete && !this.#done) this.#gone();
    });
  }

  #onData(chunk: Buffer): void {
    if (this.#done) return;
    this.#received += chunk.byteLength;
    this.#timer?.refresh();
    if (this.#received > MAX_UPLOAD_BODY) {
      this.#refuse({
        rule: 'body-too-large',
        detail: `Your proposed upload exceeds the maximum allowed size: the body is over ${MAX_UPLOAD_BODY} bytes.`,
      });
      return;
    }
    const parser = this.#parser as busboy.Busboy;
    if (!parser.write(chunk)) {
      this.req.pause();
      parser.once('drain', () => {
        // Waiting on the disk is not the client stalling.
        this.#timer?.refresh();
        this.req.resume();
      });
    }
  }

  #onField(name: string, value: string, info: busboy.FieldInfo): void {
    if (this.#done) return;
    if (info.nameTruncated || info.valueTruncated) {
      this.#refuse({
        rule: 'part-too-large',
        field: clip(name, 120),
        detail:
          'Your POST request fields preceding the upload file were too large: ' +
          `a part over ${MAX_FIELD_SIZE} bytes.`,
      });
      return;
    }
    this.#text(name, value, Buffer.byteLength(value, 'utf8'));
  }

  #text(name: string, value: string, size: number): TextSlot {
    this.#parts.push({ kind: 'field', name, value, size });
    const slot = { name, value };
    if (this.#file) this.#after.push(name);
    else this.#before.push(slot);
    return slot;
  }

  #onFile(name: string, stream: Readable, info: busboy.FileInfo): void {
    // busboy destroys a part's stream with the parser's error (reported through the parser).
    stream.on('error', () => undefined);
    if (this.#done) {
      stream.resume();
      return;
    }
    if (info.filename === undefined) {
      // busboy hands a part with Content-Type application/octet-stream and no filename over as a file: it is a text
      // part.
      this.#textFromStream(name, stream);
      return;
    }
    this.#files++;
    const part = { kind: 'file' as const, name, filename: info.filename, contentType: info.mimeType, size: 0 };
    this.#parts.push(part);
    if (this.#file) {
      this.#after.push(name);
      stream.on('data', (chunk: Buffer) => void (part.size += chunk.byteLength));
      return;
    }
    this.#file = { name, filename: info.filename, contentType: info.mimeType, index: this.#parts.length - 1 };
    const limit = this.#sizeLimit();
    const incoming = this.ctx.storage.begin();
    this.#incoming = incoming;
    this.#fileEnded = new Promise<void>((resolve) => stream.on('close', resolve));
    stream.on('data', (chunk: Buffer) => {
      part.size += chunk.byteLength;
      if (this.#done) return;
      if (part.size > limit) {
        this.#refuse({
          rule: 'file-too-large',
          detail:
            'Your proposed upload exceeds the maximum allowed size: ' +
            `the file is over ${limit} bytes (content-length-range).`,
        });
        return;
      }
      if (!incoming.write(chunk)) {
        stream.pause();
        incoming.onDrain(() => stream.resume());
      }
    });
  }

  #textFromStream(name: string, stream: Readable): void {
    const slot = this.#text(name, '', 0);
    const part = this.#parts[this.#parts.length - 1] as Extract<RecordedPart, { kind: 'field' }> & {
      value: string;
      size: number;
    };
    const chunks: Buffer[] = [];
    let size = 0;
    this.#pending.push(
      new Promise<void>((resolve) => {
        stream.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > MAX_FIELD_SIZE)
            this.#refuse({
              rule: 'part-too-large',
              field: clip(name, 120),
              detail:
                'Your POST request fields preceding the upload file were too large: ' +
                `a part over ${MAX_FIELD_SIZE} bytes.`,
            });
          else chunks.push(chunk);
        });
        stream.on('end', () => {
          slot.value = Buffer.concat(chunks).toString('utf8');
          part.value = slot.value;
          part.size = size;
          resolve();
        });
        stream.on('close', resolve);
      }),
    );
  }

  /**
   * The file limit: the policy's content-length-range when the fields before the file carry one, and never over
   * 2 MiB.
   */
  #sizeLimit(): number {
    const policy = this.#before.find((f) => f.name === 'policy')?.value;
    const doc = policy !== undefined ? decodePolicy(policy) : undefined;
    const range = doc?.conditions.find(
      (c): c is readonly ['content-length-range', number, number] =>
        Array.isArray(c) && c[0] === 'content-length-range',
    );
    return range ? Math.min(range[2], MAX_FILE_SIZE) : MAX_FILE_SIZE;
  }

  async #evaluate(): Promise<void> {
    await this.#fileEnded;
    await Promise.all(this.#pending);
    if (this.#done) return;
    const file = this.#file;
    if (!file)
      return this.#refuse({
        rule: 'no-file-part',
        detail: 'POST requires exactly one file upload per request: no part carries a filename.',
      });
    if (this.#files > 1) {
      const second = this.#parts.find((p, i) => p.kind === 'file' && i !== file.index) as RecordedPart;
      return this.#refuse({
        rule: 'extra-file-part',
        field: second.name,
        detail: `POST requires exactly one file upload per request: ${this.#files} parts carry a filename.`,
      });
    }
    if (file.name !== 'file')
      return this.#refuse({
        rule: 'file-part-name',
        field: file.name,
        detail: `The file part is named ${JSON.stringify(file.name)}; it must be named file (4.2).`,
      });

    const now = this.ctx.clock.now();
    const fields = this.#before.map((f) => [f.name, f.value] as const);
    const policy = checkPostPolicy(this.ctx.signer, fields, now, (p) => this.ctx.issued.byPolicy(p) !== undefined);
    if (this.#after.length > 0) {
      const lead =
        `${this.#after.length} part(s) follow the file part, the first named ${JSON.stringify(this.#after[0])}; ` +
        'fields after the file are ignored as S3 does';
      if (policy.ok)
        return this.#refuse({ rule: 'file-not-last', detail: `${lead}; the file part must be last (4.2).` });
      const problemField = 'field' in policy.problem ? policy.problem.field : undefined;
      return this.#refuse({
        rule: 'file-not-last',
        s3Code: policy.s3Code,
        detail: `${lead}, so: ${ruleMessage(policy.problem.kind, problemField)} (${policy.detail})`,
      });
    }
    if (!policy.ok) {
      const field = 'field' in policy.problem ? policy.problem.field : undefined;
      return this.#refuse({
        rule: policy.problem.kind,
        ...(field !== undefined ? { field } : {}),
        s3Code: policy.s3Code,
        detail: policy.detail,
      });
    }

    // The policy verified, so this gateway signed it: it issued the upload, with a key condition.
    const issued = this.ctx.issued.byKey(policy.key as string) as IssuedUpload;
    const advisories: string[] = [];
    const extension = (fileExtension(file.filename) ?? '').replace(/[A-Z]/g, (c) => c.toLowerCase());
    const accepted: readonly string[] = SCENES[issued.scene].extensions;
    if (!accepted.includes(extension)) {
      return this.#refuse({
        rule: 'file-type',
        detail:
          `The file's type ${JSON.stringify(extension)} is not accepted for scene ${issued.scene}; ` +
          `accepted: ${accepted.join(', ')} (2.2, 8).`,
      });
    }
    if (!carriesParam(file.filename, issued.filename)) {
      return this.#refuse({
        rule: 'file-name',
        detail:
          `The file part's filename is ${JSON.stringify(file.filename)}, ` +
          `not ${JSON.stringify(issued.filename)} as requested (4.2).`,
      });
    }
    if (issued.contentType !== undefined && file.contentType !== reportedMediaType(issued.contentType)) {
      return this.#refuse({
        rule: 'file-content-type',
        detail:
          `The file part's content type is ${file.contentType}, ` +
          `not ${reportedMediaType(issued.contentType)} as requested (4.2).`,
      });
    }
    const order = issued.formFields.map(([n]) => n).filter((n) => fields.some(([f]) => f === n));
    // R14: another order is acceptable (S3-style policies do not depend on it): stored, and the choice recorded
    const reordered = fields.some(([n], i) => n !== order[i]);
    if (reordered)
      advisories.push(
        'sent the formFields in another order than received (acceptable, R14); the upload address accepted the ' +
          'reordered form',
      );

    this.#finish();
    const incoming = this.#incoming as IncomingObject;
    const stored = await incoming.commit({
      key: issued.key,
      storageUri: issued.storageUri,
      bucket: issued.bucket,
      uploadNo: issued.uploadNo,
      filename: file.filename,
      contentType: file.contentType,
      storedAt: now,
    });
    const part = this.#parts[file.index] as Extract<RecordedPart, { kind: 'file' }>;
    this.#parts[file.index] = { ...part, sha256: stored.sha256 };
    this.#record({
      outcome: { ok: true },
      status: 204,
      stored: true,
      storageUri: stored.storageUri,
      key: stored.key,
      uploadNo: stored.uploadNo,
      advisories,
      ...(reordered ? { reordered: true as const } : {}),
    });
    this.res.writeHead(204);
    this.res.end();
    this.ctx.log(
      `upload ${clip(this.req.url as string, 120)} -> 204 stored ${stored.storageUri} (${stored.size} bytes)`,
    );
    this.resolve();
  }

  /** Stops reading into the parser and the file (the answer follows). */
  #finish(): void {
    this.#done = true;
    clearTimeout(this.#timer);
    this.#parser?.removeAllListeners('field').removeAllListeners('file').removeAllListeners('close');
    this.#parser?.on('error', () => undefined);
  }

  #refuse(refusal: Refusal): void {
    if (this.#done) return;
    this.#finish();
    const info = UPLOAD_RULES[refusal.rule];
    const s3Code = refusal.s3Code ?? info.s3Code;
    const status = S3_STATUS[s3Code] ?? info.status;
    const message = ruleMessage(refusal.rule, refusal.field);
    const xml = s3ErrorXml(s3Code, `${message}: ${refusal.detail}`, [
      ['Rule', refusal.rule],
      ...(refusal.field !== undefined ? [['Field', refusal.field] as const] : []),
      ['RequestId', String(this.#seq)],
    ]);
    const outcome = {
      ok: false as const,
      rule: refusal.rule,
      message,
      detail: refusal.detail,
      ...(refusal.field !== undefined ? { field: refusal.field } : {}),
    };
    // Recorded before the answer, so that a client that reads the answer finds the record.
    this.#record({ outcome, problem: message, status, stored: false, advisories: [] });
    // A body not read to its end: the answer says the connection closes (Connection: close, issue 12);
    // a stalled one is not waited for, any other unread rest is drained (bounded) so the client reads the answer.
    const closing = !this.req.complete;
    const body = Buffer.from(xml, 'utf8');
    this.res.writeHead(status, {
      'Content-Type': 'application/xml',
      'Content-Length': String(body.byteLength),
      ...(status === 405 ? { Allow: 'POST' } : {}),
      ...(closing ? { Connection: 'close' } : {}),
    });
    if (refusal.rule !== 'timeout') drainRest(this.req);
    this.res.end(body);
    this.ctx.log(`upload ${clip(this.req.url as string, 120)} -> ${status} ${s3Code}: ${message}`);
    // The partial file (never indexed, so never stored) is deleted after the answer.
    void (this.#incoming?.discard() ?? Promise.resolve()).then(() => this.resolve());
  }

  /** An exception no input should cause: logged, answered 500 when nothing was answered yet. */
  #crash(e: unknown): void {
    const first = !this.#done;
    this.#finish();
    this.ctx.log(
      `upload ${clip(this.req.url as string, 120)}: ` +
        `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
    );
    if (!this.res.headersSent) {
      const body = Buffer.from(
        s3ErrorXml('InternalError', 'We encountered an internal error. Please try again.'),
        'utf8',
      );
      this.res.writeHead(500, {
        'Content-Type': 'application/xml',
        'Content-Length': String(body.byteLength),
        Connection: 'close',
      });
      this.res.end(body);
      drainRest(this.req);
    }
    if (first) void this.#incoming?.discard().catch(() => undefined);
    this.resolve();
  }

  /** The client closed the connection before the body ended: nothing can be answered. */
  #gone(): void {
    this.#finish();
    const message = ruleMessage('incomplete');
    void (this.#incoming?.discard() ?? Promise.resolve()).then(() => {
      this.#record({
        outcome: {
          ok: false,
          rule: 'incomplete',
          message,
          detail: 'The client closed the connection before the body ended.',
        },
        problem: message,
        status: 0,
        stored: false,
        advisories: [],
      });
      this.resolve();
    });
  }

  #record(
    result: Pick<RecordedUpload, 'outcome' | 'status' | 'stored' | 'advisories'> &
      Partial<Pick<RecordedUpload, 'problem' | 'storageUri' | 'key' | 'uploadNo' | 'reordered'>>,
  ): void {
    this.ctx.recorder.addUpload(this.#route.id, {
      seq: this.#seq,
      at: this.#at,
      method: this.req.method as string,
      url: fullUrl(this.req),
      headers: rawHeaderPairs(this.req),
      parts: this.#parts,
      ...result,
    });
  }
}
