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

/**
 * A gateway the kit does not control (`run --testee X --gateway URL`): the client cases that need nothing staged
 * run against it, with the merchant credentials it knows. The kit sees nothing of the exchange there: only what
 * the client reports.
 */
export interface GivenGateway {
  readonly baseUrl: string;
  readonly appId: string;
  readonly appSecret: string;
}

/** The context of a check. */
export interface CheckContext {
  /** The kit's own gateway, for the client cases that run against it. */
  readonly gateway?: GatewayView;
  /** The gateway given to run the plain client cases against ({@link GivenGateway}). */
  readonly givenGateway?: GivenGateway;
}
