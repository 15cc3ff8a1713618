/**
 * The shapes of vector files, as their JSON Schemas (vectors/schema/) define them.
 * A loaded file has passed its schema, so these types describe what the loader returns.
 * @module
 */
import type { ItemName } from '../scheme/authorization.js';
import type { Scenario } from './scenario.js';

/**
 * The kit's vector kinds: each is a folder of vectors/ with a schema `vectors/schema/<kind>.schema.json`
 * ({@link ./kinds.js | VECTOR_KINDS} lists them, as the kit's vectors folder holds them), the type of its
 * cases here and its role in src/roles/ (which owns the kind: src/roles/registry.ts).
 *
 * A role that brings a kind of its own declares its case type in its folder, in the role's `kind.ts`,
 * by adding a member here (TypeScript's module augmentation), so the kind is a {@link VectorKind} and
 * the registry's `KIND_INFO` does not compile until the role is in it:
 *
 * ```ts
 * declare module '../../vectors/types.js' {
 *   interface VectorCases { readonly echo: EchoCase }
 * }
 * ```
 */
export interface VectorCases {
  readonly signature: SignatureCase;
  readonly authorization: AuthorizationCase;
  readonly request: RequestCase;
  readonly response: ResponseCase;
  readonly webhook: WebhookCase;
  readonly redirect: RedirectCase;
  readonly upload: UploadCase;
  readonly client: ClientCase;
  readonly gateway: GatewayCase;
  readonly merchant: MerchantCase;
}

/** A vector kind: one of {@link VectorCases}' keys. */
export type VectorKind = keyof VectorCases;

/** valid: must be accepted (or produced); invalid: must be refused; acceptable: either (the report says which). */
export type ExpectedResult = 'valid' | 'invalid' | 'acceptable';

/** Bytes given as UTF-8 text or as base64. */
export interface BodyField {
  readonly body?: string;
  readonly bodyB64?: string;
}

/** Signature content given as text (every LF visible in the file) or as base64. */
export interface ContentField {
  readonly content?: string;
  readonly contentB64?: string;
}

/** Where a generated case came from (`pgv2kit generate`, `pgv2kit fuzz --save`). */
export interface Provenance {
  readonly generator?: string;
  readonly seed?: number | string;
  readonly kitVersion?: string;
  readonly date?: string;
}

/** Fields every case has. */
export interface CaseBase {
  /** Stable id, `<kind>.<slug>`: never changed or reused once published. */
  readonly id: string;
  readonly comment: string;
  /** Sections of gateway-spec.md the case tests. */
  readonly spec: readonly string[];
  /** Readings (R1–R16) the case depends on. */
  readonly readings: readonly string[];
  /** Why the case exists; each flag explained once in vectors/notes.yaml. */
  readonly flags: readonly string[];
  readonly result: ExpectedResult;
  /** Set when a newer case replaces this one: the case is kept and never run. */
  readonly supersededBy?: string;
  readonly provenance?: Provenance;
}

/** The four Authorization items. */
export interface ItemsField {
  readonly appId: string;
  readonly sign: string;
  readonly timestamp: string;
  readonly nonce: string;
}

/** A signature case (spec 5.1, 5.2). */
export interface SignatureCase extends CaseBase {
  readonly kind: 'signature';
  readonly inputs: BodyField & {
    readonly appId: string;
    readonly appSecret: string;
    readonly method: string;
    readonly url: string;
    readonly timestamp: string;
    readonly nonce: string;
  };
  /** What a correct signer builds. */
  readonly expected: ContentField & { readonly sign: string };
  /** For invalid and acceptable cases: what a mistaken signer builds. */
  readonly candidate?: ContentField & { readonly sign: string };
}

/** An Authorization case (spec 5.3, R8). */
export type AuthorizationCase = CaseBase & { readonly kind: 'authorization' } & (
    | {
        readonly op: 'authorization.parse';
        readonly inputs: { readonly header: string };
        /**
         * valid: `items`, the one answer; invalid: `problem`, the strict parser's reason;
         * acceptable: `answers`, every accepted answer R8 allows (or, in older cases, `items`
         * when it is the only one) — refusing passes too.
         */
        readonly expected: {
          readonly items?: ItemsField;
          readonly answers?: readonly ItemsField[];
          readonly problem?: { readonly kind: string; readonly item?: string; readonly scheme?: string };
        };
      }
    | {
        readonly op: 'authorization.format';
        readonly inputs: { readonly items: ItemsField };
        readonly expected: { readonly header: string };
      }
  );

/** What a verifier computes, for verify kinds. */
export interface VerifyExpected extends ContentField {
  readonly problem?: { readonly kind: string; readonly header?: string; readonly parameter?: string };
}

/** A request verification case. */
export interface RequestCase extends CaseBase {
  readonly kind: 'request';
  readonly inputs: BodyField & {
    readonly appId: string;
    readonly appSecret: string;
    readonly method: string;
    readonly url: string;
    readonly authorization: string | null;
  };
  readonly expected: VerifyExpected;
}

/** A response verification case (5.4, R9). */
export interface ResponseCase extends CaseBase {
  readonly kind: 'response';
  readonly inputs: RequestCase['inputs'] & { readonly status: number };
  readonly expected: VerifyExpected;
}

/** A webhook verification case (5.5, R10). */
export interface WebhookCase extends CaseBase {
  readonly kind: 'webhook';
  readonly inputs: BodyField & {
    readonly appId: string;
    readonly appSecret: string;
    readonly notifyUrl: string;
    readonly deliveryUrl?: string;
    readonly method: string;
    readonly authorization: string | null;
  };
  readonly expected: VerifyExpected;
}

/** A return-redirect verification case (5.6, R11). */
export interface RedirectCase extends CaseBase {
  readonly kind: 'redirect';
  readonly inputs: {
    readonly appId: string;
    readonly appSecret: string;
    readonly returnUrl: string;
    readonly redirectUrl: string;
  };
  readonly expected: VerifyExpected & { readonly payment?: string };
}

/** formFields as [name, value] pairs in the order received. */
export type FormFieldPairs = ReadonlyArray<readonly [string, string]>;

/** One part of a multipart body: a text part, or the file part. */
export type ExpectedPart =
  | { readonly name: string; readonly value: string }
  | {
      readonly name: 'file';
      readonly filename: string;
      readonly contentType: string;
      readonly data?: string;
      readonly dataB64?: string;
    };

/** The file of an upload case: text or base64. */
export interface FileField {
  readonly file?: string;
  readonly fileB64?: string;
}

/** An upload case (2.1, 2.2, 4.2, 8, R13, R14). */
export type UploadCase = CaseBase & { readonly kind: 'upload' } & (
    | {
        readonly op: 'upload.validate';
        readonly inputs: {
          readonly filename: string | null;
          readonly contentType: string | null;
          readonly scene: string | null;
          readonly fileSize: number | null;
        };
        readonly expected: {
          readonly problem?: { readonly field: string; readonly rule: string; readonly limit?: number | string };
        };
      }
    | {
        readonly op: 'upload.form';
        readonly inputs: FileField & {
          readonly formFields: FormFieldPairs;
          readonly filename: string;
          readonly contentType: string;
        };
        readonly expected: { readonly parts: readonly ExpectedPart[] };
      }
    | {
        readonly op: 'upload.formCheck';
        readonly inputs: FileField & {
          readonly formFields: FormFieldPairs;
          readonly filename: string;
          readonly contentType: string;
          readonly multipart: BodyField & { readonly contentType: string };
        };
        readonly expected: { readonly problem?: { readonly kind: string; readonly field?: string } };
      }
  );

/** A client-role case: a client.* operation end to end against the reference gateway playing `scenario`. */
export type ClientCase = CaseBase & {
  readonly kind: 'client';
  readonly scenario: Scenario;
} & (
    | {
        readonly op: 'client.upload';
        readonly inputs: FileField & {
          readonly appId: string;
          readonly appSecret: string;
          readonly filename: string;
          readonly contentType: string | null;
          readonly scene: string;
          /** Instead of file / fileB64: a generated file of this many bytes. */
          readonly fileSize?: number;
        };
        readonly expected: { readonly stored: boolean; readonly uploaded?: boolean };
      }
    | {
        readonly op: 'client.createPayment';
        readonly inputs: {
          readonly appId: string;
          readonly appSecret: string;
          readonly payment: { readonly [key: string]: unknown };
        };
        readonly expected: { readonly code?: string };
      }
  );

/** One change made to a request after signing (gateway role). */
export type GatewayMutation =
  | 'body'
  | 'url'
  | 'method'
  | 'timestamp'
  | 'nonce'
  | 'app-id'
  | 'secret'
  | 'unsigned'
  | 'missing-item'
  | 'other-scheme'
  | 'content-type'
  | 'accept'
  | 'header-ows'
  // request-side cases (vectors/gateway/requests.yaml): the Authorization written otherwise after signing (R7, R8)
  | 'missing-app-id'
  | 'missing-sign'
  | 'missing-timestamp'
  | 'empty-app-id'
  | 'empty-sign'
  | 'empty-timestamp'
  | 'empty-nonce'
  | 'duplicate-app-id'
  | 'duplicate-sign'
  | 'duplicate-timestamp'
  | 'duplicate-nonce'
  | 'duplicate-app-id-differing'
  | 'duplicate-sign-differing'
  | 'duplicate-timestamp-differing'
  | 'duplicate-nonce-differing'
  | 'no-items'
  | 'item-without-equals'
  | 'sign-63-hex'
  | 'sign-65-hex'
  | 'sign-non-hex'
  | 'sign-upper-case'
  | 'scheme-lower-case'
  | 'items-reordered'
  | 'extra-item'
  | 'space-after-comma'
  // request headers left out or with a parameter (4.1)
  | 'no-content-type'
  | 'no-accept'
  | 'content-type-charset'
  // sent again with the same timestamp and nonce, or signed with a day-old timestamp (R12)
  | 'replay'
  | 'stale-timestamp';

/** One rule of 4.2 broken in an upload (gateway role). */
export type UploadBreak =
  | 'file-not-last'
  | 'field-removed'
  | 'field-changed'
  | 'field-added'
  | 'over-size'
  | 'type-not-accepted'
  | 'fields-reordered'
  | 'authorization-header'
  // the file part: missing, misnamed, doubled, not last, its filename another
  | 'no-file-part'
  | 'file-named-upload'
  | 'file-named-File'
  | 'two-file-parts'
  | 'text-after-file'
  | 'entry-after-file'
  | 'filename-differs'
  // the form: an entry twice, not multipart
  | 'field-repeated'
  | 'key-repeated-changed'
  | 'urlencoded-body'
  | 'raw-file-body'
  // the request: another method, an address never issued, credentials used again after a 204
  | 'method-put'
  | 'address-not-issued'
  | 'reuse-after-success'
  // one formFields entry removed
  | 'key-removed'
  | 'signature-removed'
  | 'bucket-removed'
  | 'content-type-field-removed'
  | 'tagging-removed'
  | 'credential-removed'
  | 'algorithm-removed'
  | 'date-removed'
  // one formFields entry changed
  | 'key-changed'
  | 'policy-changed'
  | 'content-type-field-changed'
  | 'signature-changed'
  | 'bucket-changed'
  | 'tagging-changed'
  | 'credential-changed'
  | 'algorithm-changed';

/** A gateway-role case: a request to the gateway under test, the kit playing the merchant. */
export interface GatewayCase extends CaseBase {
  readonly kind: 'gateway';
  readonly op: 'gateway.generateUploadUrl' | 'gateway.createPayment' | 'gateway.upload';
  readonly inputs: {
    /** The JSON body (absent when rawBody is given). */
    readonly body?: { readonly [key: string]: unknown };
    /** An API request's body text, sent and signed byte for byte instead of JSON.stringify(body) (5.1, R1, R3). */
    readonly rawBody?: string;
    readonly mutate?: GatewayMutation;
    readonly break?: UploadBreak;
    readonly fileSize?: number;
    /** gateway.upload: seconds to wait between the credentials and the upload; a slow case, run with --slow only. */
    readonly waitBeforeUpload?: number;
  };
  readonly expected: { readonly status?: number };
}

/** The operations of the merchant role: a webhook POSTed to the notify endpoint, a return redirect GET. */
export type MerchantOperation = 'merchant.webhook' | 'merchant.redirect';

/**
 * How a merchant-role call is built: a correct call, changed in the ways stated
 * (vectors/schema/merchant.schema.json says what each field means).
 */
export interface MerchantInputs {
  readonly payment?: { readonly attach?: string; readonly unknownFields?: true };
  readonly json?: 'compact' | 'non-canonical';
  readonly encoding?: 'form' | 'percent';
  readonly signed?: {
    readonly appId?: 'other';
    readonly secret?: 'other';
    readonly url?: 'delivery' | 'with-added-params' | 'with-ids';
    readonly body?: 'compact-re-serialization' | 'php-json-encode' | 'python-json-dumps';
    readonly payment?: 'still-encoded' | 're-encoded' | 'decoded-once-more';
    readonly timestamp?: 'week-old';
  };
  readonly sent?: {
    readonly body?: 'one-digit' | 'trailing-lf' | 'white-space' | 'padded' | 'bom';
    readonly payment?: 'one-digit';
    /** The payment parameter twice: the genuine value and a forged one, in this order. */
    readonly paymentTwice?: 'forged-first' | 'genuine-first';
    /** The authorization parameter twice: the genuine value and a forged one, in this order. */
    readonly authorizationTwice?: 'forged-first' | 'genuine-first';
  };
  readonly authorization?: {
    readonly order?: readonly ItemName[];
    readonly appId?: 'other';
    readonly sign?:
      | 'one-digit'
      | 'zeros'
      | 'short'
      | 'upper-case'
      | 'prefix-1'
      | 'prefix-2'
      | 'prefix-8'
      | 'prefix-32'
      | 'prefix-63'
      | 'extra-digit'
      | 'first-digit'
      | 'last-digit'
      | 'non-hex'
      | 'other-content';
    /** This item written with an empty value. */
    readonly empty?: ItemName;
    /** This item written twice, its genuine value and another, the genuine one `first` or `last`. */
    readonly twice?: { readonly item: ItemName; readonly genuine: 'first' | 'last' };
    /** This item given a new value after signing. */
    readonly refreshed?: 'timestamp' | 'nonce';
    readonly missing?: ItemName;
    readonly duplicate?: 'sign' | 'nonce';
    readonly scheme?: 'V1_SHA256';
    readonly form?: 'bearer';
    readonly absent?: true;
    /** SP before and HTAB after the value (RFC 9110 §5.5: not part of a header's field value). */
    readonly padded?: true;
  };
  /** Send again, byte for byte, the call of this earlier case. */
  readonly replayOf?: string;
}

/** A merchant-role case: one call to the merchant under test, the kit playing the gateway. */
export interface MerchantCase extends CaseBase {
  readonly kind: 'merchant';
  readonly op: MerchantOperation;
  /** The requirement (of the file's table) the case serves. */
  readonly requirement: string;
  /** Reported, never failed (R12); the result is then `acceptable`. */
  readonly advisory?: true;
  readonly inputs: MerchantInputs;
  readonly expected: Record<string, never>;
}

/** A requirement a role's cases serve (merchant certification reports one result per requirement). */
export interface RequirementEntry {
  readonly title: string;
  /** Sections of gateway-spec.md. */
  readonly spec: readonly string[];
  readonly readings: readonly string[];
  /** The known mistake (docs/mistakes/<id>.md) a failure of the requirement reveals. */
  readonly mistake?: string;
}

/** Any case, discriminated on `kind` (the folder it was loaded from). */
export type VectorCase = VectorCases[VectorKind];

/** A flag's entry in the notes table. */
export interface FlagNote {
  readonly bugType: string;
  readonly description: string;
  readonly effect?: string;
  readonly readings?: readonly string[];
  /**
   * The command that writes cases with this flag (`pgv2kit fuzz --save`): explained for the cases
   * it will write, so a folder need not hold one yet (no "no case uses it" warning).
   */
  readonly writtenBy?: string;
}

/** A loaded case with where it came from. */
export interface LoadedCase<C extends VectorCase = VectorCase> {
  readonly case: C;
  /** Path relative to the vectors folder, e.g. `signature/basics.yaml`. */
  readonly file: string;
}

/** Everything loaded from a vectors folder. */
export interface VectorSet {
  readonly root: string;
  readonly files: ReadonlyArray<{
    readonly file: string;
    readonly kind: VectorKind;
    readonly title: string;
    readonly cases: number;
  }>;
  /** Every case, superseded ones included, in file order. */
  readonly cases: readonly LoadedCase[];
  readonly notes: Readonly<Record<string, FlagNote>>;
  /** The requirements of role files (merchant), by id, in file order. */
  readonly requirements: Readonly<Record<string, RequirementEntry>>;
  /** Things worth fixing that do not stop the set from loading (a flag no case uses). */
  readonly warnings: readonly string[];
  /** SHA-256 over the files' paths and bytes: names the exact vector set in reports. */
  readonly hash: string;
}
