/**
 * The presigned POST behind the formFields of spec §2.4, as S3 does it (and boto3's
 * `generate_presigned_post` writes it): a Base64 policy document with an expiration
 * and one condition per form field, signed with SigV4's key chain
 * (HMAC-SHA256("AWS4" + secret, date) → region → service → "aws4_request"), so that a
 * changed, missing or added field is detected (§3 "all formFields unchanged", §7).
 *
 * The upload address re-derives the signature from the policy it receives and checks
 * every condition against the fields it receives ({@link checkPostPolicy}): nothing
 * issued needs to be remembered to accept or refuse. The issued policies are only
 * consulted to say which field a client changed.
 * @module
 */
import { createHmac } from 'node:crypto';
import { signEquals } from '../scheme/constant-time.js';

/** The storage credentials the gateway signs policies with (its own, never a merchant's). */
export interface StorageSigner {
  readonly accessKeyId: string;
  readonly secretKey: string;
  readonly region: string;
}

/** The SigV4 service name of the storage. */
export const STORAGE_SERVICE = 's3';

/** How long an issued uploadUrl is valid (§2.4, §3, §8): 10 minutes. */
export const POLICY_VALIDITY_MS = 10 * 60 * 1000;

/** A policy condition: `{name: value}`, `[op, "$name", value]` or `["content-length-range", min, max]`. */
export type PolicyCondition =
  | { readonly [name: string]: string }
  | readonly [string, string, string]
  | readonly ['content-length-range', number, number];

/** The policy document (Base64 of its JSON is the `policy` form field). */
export interface PolicyDocument {
  /** ISO 8601, UTC, milliseconds: issue time + 10 minutes. */
  readonly expiration: string;
  readonly conditions: readonly PolicyCondition[];
}

/** What {@link presignPost} signs. */
export interface PresignInput {
  readonly bucket: string;
  readonly key: string;
  /** The requested contentType; no Content-Type entry when absent. */
  readonly contentType?: string | undefined;
  /** The tagging XML. */
  readonly tagging: string;
  /** The vendor of the x-<vendor>-* entries, e.g. `amz`. */
  readonly vendor: string;
  /** Entries added after the usual ones, each with its own condition. */
  readonly extra: ReadonlyArray<readonly [string, string]>;
  /** Issue time, milliseconds (gives x-<vendor>-date and the credential's date). */
  readonly issuedAt: number;
  /** Expiry, milliseconds (the policy's expiration). */
  readonly expiresAt: number;
  /** The largest file accepted, bytes (content-length-range). */
  readonly maxSize: number;
}

/** A presigned POST: the formFields in issue order, the policy entry and the document it carries. */
export interface PresignedPost {
  readonly formFields: ReadonlyArray<readonly [string, string]>;
  readonly policy: string;
  readonly document: PolicyDocument;
}

/**
 * The SigV4 signing key (AWS SigV4 "derive a signing key"): HMAC-SHA256 chained over
 * the date, the region, the service and "aws4_request", starting from "AWS4" + secret.
 * @param secret - the secret access key
 * @param date - the date, YYYYMMDD
 * @param region - e.g. us-east-1
 * @param service - e.g. s3
 * @returns the 32-byte key
 * @example
 * const key = signingKey('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', '20120215', 'us-east-1', 'iam');
 * key.toString('hex') // 'f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d'
 */
export function signingKey(secret: string, date: string, region: string, service: string): Buffer {
  const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

/**
 * The signature of a Base64 policy: hex HMAC-SHA256 of the Base64 text with the signing key.
 * @param key - the signing key ({@link signingKey})
 * @param policyB64 - the `policy` field as sent
 * @returns 64 lower-case hex digits
 * @example policySignature(signingKey(appSecret, '20250101', 'r', 's3'), 'e30=')
 */
export function policySignature(key: Buffer, policyB64: string): string {
  return createHmac('sha256', key).update(policyB64, 'utf8').digest('hex');
}

/**
 * The x-<vendor>-date form of a time: `YYYYMMDDTHHMMSSZ`, UTC.
 * @param ms - milliseconds since the epoch
 * @returns e.g. `20250101T000000Z`
 * @example amzDate(0) // '19700101T000000Z'
 */
export function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * The algorithm value of a vendor: `AWS4-HMAC-SHA256` for amz, `<VENDOR>4-HMAC-SHA256` otherwise.
 * @param vendor - e.g. amz, goog
 * @returns the x-<vendor>-algorithm value
 * @example algorithmOf('goog') // 'GOOG4-HMAC-SHA256'
 */
export function algorithmOf(vendor: string): string {
  return `${vendor === 'amz' ? 'AWS' : vendor.toUpperCase()}4-HMAC-SHA256`;
}

/**
 * Presigns a POST: the formFields in the order boto3 writes them (bucket, key,
 * Content-Type, tagging, policy, x-<vendor>-algorithm, -credential, -date, -signature),
 * then the extra entries; the policy has one condition per field except policy and
 * signature, and `["content-length-range", 0, maxSize]`.
 * @param signer - the storage credentials
 * @param input - what to sign
 * @returns the formFields and the policy document
 */
export function presignPost(signer: StorageSigner, input: PresignInput): PresignedPost {
  const v = input.vendor;
  const date = amzDate(input.issuedAt);
  const credential = `${signer.accessKeyId}/${date.slice(0, 8)}/${signer.region}/${STORAGE_SERVICE}/aws4_request`;
  const described: Array<readonly [string, string]> = [
    ['bucket', input.bucket],
    ['key', input.key],
    ...(input.contentType !== undefined ? [['Content-Type', input.contentType] as const] : []),
    ['tagging', input.tagging],
  ];
  const signed: Array<readonly [string, string]> = [
    [`x-${v}-algorithm`, algorithmOf(v)],
    [`x-${v}-credential`, credential],
    [`x-${v}-date`, date],
  ];
  const document: PolicyDocument = {
    expiration: new Date(input.expiresAt).toISOString(),
    conditions: [
      ...[...described, ...input.extra, ...signed].map(([n, value]) => ({ [n]: value })),
      ['content-length-range', 0, input.maxSize],
    ],
  };
  const policy = Buffer.from(JSON.stringify(document), 'utf8').toString('base64');
  const signature = policySignature(
    signingKey(signer.secretKey, date.slice(0, 8), signer.region, STORAGE_SERVICE),
    policy,
  );
  return {
    formFields: [...described, ['policy', policy], ...signed, [`x-${v}-signature`, signature], ...input.extra],
    policy,
    document,
  };
}

/** Why received fields do not satisfy the policy they carry. */
export type PolicyProblem =
  | { readonly kind: 'field-missing'; readonly field: string }
  | { readonly kind: 'field-changed'; readonly field: string }
  | { readonly kind: 'field-added'; readonly field: string }
  | { readonly kind: 'expired' };

/** The outcome of {@link checkPostPolicy}. */
export type PolicyOutcome =
  | {
      readonly ok: true;
      readonly document: PolicyDocument;
      /** The key condition's value (the object key). */
      readonly key: string | undefined;
      /** content-length-range, when the policy has one. */
      readonly sizeRange: readonly [number, number] | undefined;
    }
  | {
      readonly ok: false;
      readonly problem: PolicyProblem;
      /** The S3 error code the refusal carries. */
      readonly s3Code: string;
      /** S3's own words for it. */
      readonly detail: string;
    };

/**
 * Checks the fields an upload carries (those before the file part, as S3 reads them)
 * against the policy among them, in S3's order: the policy is present and a policy
 * document; the signature is present and is the one the credential's date and region
 * give for this policy; the policy has not expired; every condition holds; no field is
 * outside the conditions (except policy, the signature and `x-ignore-*`) or repeated.
 * @param signer - the storage credentials
 * @param fields - the received text parts before the file part, [name, value], in order
 * @param now - the gateway clock, milliseconds
 * @param issued - whether a policy was issued by this gateway (to tell a changed policy from a changed signature)
 * @returns ok with the document, or the first problem
 */
export function checkPostPolicy(
  signer: StorageSigner,
  fields: ReadonlyArray<readonly [string, string]>,
  now: number,
  issued: (policy: string) => boolean = () => true,
): PolicyOutcome {
  const first = (name: string): string | undefined => fields.find(([n]) => n === name)?.[1];
  const policy = first('policy');
  if (policy === undefined)
    return refuse(
      { kind: 'field-missing', field: 'policy' },
      'InvalidArgument',
      "Bucket POST must contain a field named 'policy'.",
    );
  const document = decodePolicy(policy);
  if (!document)
    return refuse(
      { kind: 'field-changed', field: 'policy' },
      'InvalidPolicyDocument',
      'Invalid Policy: the policy is not a Base64 policy document.',
    );
  const names = document.conditions.map(conditionName).filter((n): n is string => n !== undefined);
  const vendor = names.map((n) => /^x-([a-z0-9]+)-algorithm$/.exec(n)?.[1]).find((x) => x !== undefined) ?? 'amz';
  const signatureField = `x-${vendor}-signature`;
  const credentialField = `x-${vendor}-credential`;

  const signature = first(signatureField);
  if (signature === undefined)
    return refuse(
      { kind: 'field-missing', field: signatureField },
      'InvalidArgument',
      `Bucket POST must contain a field named '${signatureField}'.`,
    );
  const credential = first(credentialField);
  if (credential === undefined)
    return refuse(
      { kind: 'field-missing', field: credentialField },
      'InvalidArgument',
      `Bucket POST must contain a field named '${credentialField}'.`,
    );
  const scope = credential.split('/');
  const [accessKeyId, date = '', region = '', service = ''] = scope;
  if (scope.length !== 5 || accessKeyId !== signer.accessKeyId || scope[4] !== 'aws4_request') {
    return refuse(
      { kind: 'field-changed', field: credentialField },
      'InvalidAccessKeyId',
      'The credential does not name an access key of this storage.',
    );
  }
  const expected = policySignature(signingKey(signer.secretKey, date, region, service), policy);
  if (!signEquals(expected, signature)) {
    const detail = 'The request signature we calculated does not match the signature you provided.';
    if (!issued(policy)) return refuse({ kind: 'field-changed', field: 'policy' }, 'SignatureDoesNotMatch', detail);
    const issuedCredential = conditionValue(document, credentialField);
    const changed =
      issuedCredential !== undefined && issuedCredential !== credential ? credentialField : signatureField;
    return refuse({ kind: 'field-changed', field: changed }, 'SignatureDoesNotMatch', detail);
  }

  if (!(Date.parse(document.expiration) > now))
    return refuse({ kind: 'expired' }, 'AccessDenied', 'Invalid according to Policy: Policy expired.');

  let sizeRange: readonly [number, number] | undefined;
  for (const c of document.conditions) {
    if (Array.isArray(c) && c[0] === 'content-length-range') {
      sizeRange = [c[1] as number, c[2] as number];
      continue;
    }
    const name = conditionName(c) as string;
    const [op, want] = Array.isArray(c) ? [c[0] as string, c[2] as string] : ['eq', Object.values(c)[0] as string];
    const got = first(name);
    const failed = `Invalid according to Policy: Policy Condition failed: ${JSON.stringify([op, `$${name}`, want])}`;
    if (got === undefined) return refuse({ kind: 'field-missing', field: name }, 'AccessDenied', failed);
    if (op === 'starts-with' ? !got.startsWith(want) : got !== want)
      return refuse({ kind: 'field-changed', field: name }, 'AccessDenied', failed);
  }

  const allowed = new Set([...names, 'policy', signatureField]);
  const seen = new Set<string>();
  for (const [name] of fields) {
    if (name.toLowerCase().startsWith('x-ignore-')) continue;
    if (!allowed.has(name) || seen.has(name))
      return refuse(
        { kind: 'field-added', field: name },
        'AccessDenied',
        `Invalid according to Policy: Extra input fields: ${name}`,
      );
    seen.add(name);
  }
  return { ok: true, document, key: conditionValue(document, 'key'), sizeRange };
}

/**
 * Reads a `policy` field: strict Base64 of a JSON policy document whose conditions
 * have the three shapes of {@link PolicyCondition}.
 * @param policy - the field's value
 * @returns the document, or undefined when the value is not one
 * @example decodePolicy('e30=') // undefined — no expiration, no conditions
 */
export function decodePolicy(policy: string): PolicyDocument | undefined {
  const bytes = Buffer.from(policy, 'base64');
  if (bytes.toString('base64') !== policy) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null) return undefined;
  const { expiration, conditions } = doc as { expiration?: unknown; conditions?: unknown };
  if (typeof expiration !== 'string' || !Array.isArray(conditions) || !conditions.every(isCondition)) return undefined;
  return { expiration, conditions };
}

// --- internal ---

function refuse(problem: PolicyProblem, s3Code: string, detail: string): PolicyOutcome {
  return { ok: false, problem, s3Code, detail };
}

function isCondition(c: unknown): c is PolicyCondition {
  if (Array.isArray(c)) {
    if (c.length !== 3) return false;
    if (c[0] === 'content-length-range') return Number.isSafeInteger(c[1]) && Number.isSafeInteger(c[2]);
    return (
      (c[0] === 'eq' || c[0] === 'starts-with') &&
      typeof c[1] === 'string' &&
      c[1].startsWith('$') &&
      typeof c[2] === 'string'
    );
  }
  if (typeof c !== 'object' || c === null) return false;
  const values = Object.values(c);
  return values.length === 1 && typeof values[0] === 'string';
}

function conditionName(c: PolicyCondition): string | undefined {
  if (Array.isArray(c)) return c[0] === 'content-length-range' ? undefined : (c[1] as string).slice(1);
  return Object.keys(c)[0];
}

function conditionValue(document: PolicyDocument, name: string): string | undefined {
  for (const c of document.conditions) {
    if (!Array.isArray(c) && Object.keys(c)[0] === name) return Object.values(c)[0] as string;
  }
  return undefined;
}
