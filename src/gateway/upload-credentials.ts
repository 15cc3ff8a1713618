/**
 * Issuing upload credentials (spec §2.4, §3): the uploadUrl on the upload listener
 * (outside base_url), a storageUri `s3://<bucket>/evidence/<date>/<generated>.<ext>`,
 * an uploadNo `<digits>-<hex>`, httpMethod POST, and the formFields of a presigned POST
 * ({@link presignPost}) valid for 10 minutes; with what the scenario asks for (another
 * vendor, extra entries, values with spaces, "+", "/", "=", an uploadUrl already expired).
 * The issued uploads are remembered by key and by policy, for the upload address's
 * file checks and to name the field a client changed.
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { SceneName } from '../upload/scenes.js';
import { SCENES, fileExtension } from '../upload/scenes.js';
import { OrderedPairs, type JsonOut } from './envelope.js';
import { POLICY_VALIDITY_MS, amzDate, presignPost, type StorageSigner } from './policy.js';
import type { Scenario } from '../vectors/scenario.js';
import { scenarioPrefix } from './scenario-routing.js';

/** One set of issued upload credentials. */
export interface IssuedUpload {
  readonly uploadNo: string;
  /** The object key (the `key` entry). */
  readonly key: string;
  readonly storageUri: string;
  readonly bucket: string;
  readonly uploadUrl: string;
  /** The formFields, in issue order. */
  readonly formFields: ReadonlyArray<readonly [string, string]>;
  /** The `policy` entry. */
  readonly policy: string;
  /** Milliseconds; for an expired scenario, more than 10 minutes before the request. */
  readonly issuedAt: number;
  readonly expiresAt: number;
  /** From the credentials request. */
  readonly filename: string;
  readonly contentType: string | undefined;
  readonly scene: SceneName;
  /** The merchant that asked. */
  readonly appId: string;
  /** The scenario id of the request's path, if any. */
  readonly scenarioId: string | undefined;
}

/** What issuing needs besides the request. */
export interface IssueContext {
  readonly signer: StorageSigner;
  readonly bucket: string;
  /** The upload listener's origin, e.g. `http://127.0.0.1:9001`. */
  readonly uploadOrigin: string;
  /** The gateway clock, milliseconds. */
  readonly now: number;
  /** The gateway's vendor and extra entries (a scenario may replace them). */
  readonly vendor: string;
  readonly extra: ReadonlyArray<readonly [string, string]>;
  readonly scenario: Scenario;
  readonly scenarioId: string | undefined;
  readonly appId: string;
}

/** A checked credentials request. */
export interface CredentialsInput {
  readonly filename: string;
  readonly contentType: string | undefined;
  readonly scene: SceneName;
}

/**
 * Issues upload credentials.
 * @param ctx - signer, bucket, upload origin, clock, vendor, extra entries, scenario
 * @param request - the checked credentials request
 * @returns the issued upload
 */
export function issueUpload(ctx: IssueContext, request: CredentialsInput): IssuedUpload {
  const fields = ctx.scenario.formFields;
  const issuedAt = ctx.scenario.upload?.expired ? ctx.now - POLICY_VALIDITY_MS - 1000 : ctx.now;
  const expiresAt = issuedAt + POLICY_VALIDITY_MS;
  const uploadNo = `${ctx.now}${String(++sequence % 10000).padStart(4, '0')}-${randomBytes(8).toString('hex')}`;
  // The request was checked: its filename has an extension.
  const ext = (fileExtension(request.filename) as string).replace(/[A-Z]/g, (c) => c.toLowerCase());
  const name = `${randomBytes(16).toString('hex')}.${ext}`;
  const day = amzDate(ctx.now).slice(0, 8);
  const special = fields?.specialValues === true;
  const key = special ? `evidence/${day}/case 17+a=b/${name}` : `evidence/${day}/${name}`;
  const tags = [['uploadNo', uploadNo], ...(special ? [['note', 'scan 1+2/3=ok']] : [])];
  const tagSet = tags.map(([k, v]) => `<Tag><Key>${k}</Key><Value>${v}</Value></Tag>`).join('');
  const tagging = `<Tagging><TagSet>${tagSet}</TagSet></Tagging>`;
  const { formFields, policy } = presignPost(ctx.signer, {
    bucket: ctx.bucket,
    key,
    tagging,
    contentType: request.contentType,
    issuedAt,
    expiresAt,
    maxSize: SCENES[request.scene].maxFileSize,
    vendor: fields?.vendor ?? ctx.vendor,
    extra: fields?.extra ?? ctx.extra,
  });
  return {
    uploadNo,
    key,
    storageUri: `s3://${ctx.bucket}/evidence/${day}/${name}`,
    bucket: ctx.bucket,
    uploadUrl: `${ctx.uploadOrigin}${ctx.scenarioId !== undefined ? scenarioPrefix(ctx.scenarioId) : ''}/${ctx.bucket}`,
    formFields,
    policy,
    issuedAt,
    expiresAt,
    filename: request.filename,
    contentType: request.contentType,
    scene: request.scene,
    appId: ctx.appId,
    scenarioId: ctx.scenarioId,
  };
}

/**
 * The data object of the credentials response (§2.4), formFields in issue order.
 * @param issued - the issued upload
 * @returns uploadUrl, storageUri, uploadNo, formFields, httpMethod
 */
export function credentialsData(issued: IssuedUpload): { readonly [key: string]: JsonOut } {
  return {
    uploadUrl: issued.uploadUrl,
    storageUri: issued.storageUri,
    uploadNo: issued.uploadNo,
    formFields: new OrderedPairs(issued.formFields),
    httpMethod: 'POST',
  };
}

/**
 * The uploads a gateway issued, by object key and by policy.
 * @example new IssuedUploads().byPolicy('e30=') // undefined — no upload was issued that policy
 */
export class IssuedUploads {
  readonly #byKey = new Map<string, IssuedUpload>();
  readonly #byPolicy = new Map<string, IssuedUpload>();

  /**
   * Remembers an issued upload.
   * @param issued - the upload
   */
  add(issued: IssuedUpload): void {
    // forget uploads long past their expiry (an hour after), so a long-running gateway does not grow without bound
    for (const [key, old] of this.#byKey) {
      if (old.expiresAt + 3_600_000 >= issued.expiresAt) break;
      this.#byKey.delete(key);
      this.#byPolicy.delete(old.policy);
    }
    this.#byKey.set(issued.key, issued);
    this.#byPolicy.set(issued.policy, issued);
  }

  /**
   * @param key - an object key
   * @returns the upload issued with it, or undefined
   */
  byKey(key: string): IssuedUpload | undefined {
    return this.#byKey.get(key);
  }

  /**
   * @param policy - a `policy` entry
   * @returns the upload issued with it, or undefined
   */
  byPolicy(policy: string): IssuedUpload | undefined {
    return this.#byPolicy.get(policy);
  }
}

// --- internal ---

let sequence = 0;
