/**
 * What a check may need beyond the subject: for client-role cases, the reference
 * gateway the client talks to. The runner provides it; checks see only this view.
 * @module
 */

/** What the gateway saw a client do under one scenario (one case). */
export interface ClientRecord {
  /** API requests (credentials, payment), in order. */
  readonly requests: ReadonlyArray<{
    readonly path: string;
    /** Whether the request's signature verified. */
    readonly verified: boolean;
    /** Why it was refused, in words ("sign does not match: body signed differs from body sent"). */
    readonly problem?: string;
  }>;
  /** Upload requests, in order. */
  readonly uploads: ReadonlyArray<{
    readonly stored: boolean;
    /** The rule of 4.2 the upload broke ("formFields entry x-amz-date changed", "file part not last"). */
    readonly problem?: string;
    readonly storageUri?: string;
    /** Stored with the formFields entries in another order than issued (acceptable, R14). */
    readonly reordered?: boolean;
  }>;
}

/** The reference gateway, as checks see it. */
export interface GatewayView {
  /** The base URL of a scenario: the client of that case talks to it. */
  url(scenarioId: string): string;
  /** What the client did under that scenario. */
  record(scenarioId: string): ClientRecord;
  /** The bytes stored under a storageUri, or undefined. */
  stored(storageUri: string): Promise<Uint8Array | undefined>;
}

/** The context of a check. */
export interface CheckContext {
  readonly gateway?: GatewayView;
}
