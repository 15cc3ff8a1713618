/**
 * The reference gateway: two node:http listeners on loopback — the API (base URL) and
 * the upload address (uploadUrl values point there, outside base_url) — with the
 * merchants, scenarios, recorder and storage they share. `pgv2kit serve` runs one;
 * runs start one in process for client-role cases.
 *
 * Connections: keep-alive with bounded timeouts (5 s idle, 10 s for headers, 60 s for a
 * whole request), headers up to 16 KiB, a body that stalls for `bodyTimeoutMs` is
 * answered and closed. A request the HTTP parser refuses is answered 400 (431 for
 * headers too large). An exception no input should cause is answered 500 and logged.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clientErrorAnswer } from './http-io.js';
import { s3ErrorXml } from './_xml.js';
import { handleApiRequest, type ApiContext } from './api-listener.js';
import type { HeaderChoices } from './request-auth.js';
import { envelopeBytes } from './envelope.js';
import { API_FAILURES } from './failures.js';
import { DEMO_MERCHANT, MerchantBook, type Merchant } from './merchants.js';
import type { StorageSigner } from './policy.js';
import { Recorder, type RecorderLimits } from './recorder.js';
import { checkExtraFields, checkVendor, scenarioPrefix, type ScenarioSource } from './scenario-routing.js';
import { GatewayStorage } from './storage.js';
import { IssuedUploads } from './upload-credentials.js';
import { handleUpload, type UploadContext } from './upload-listener.js';
import type { Clock } from './clock.js';

export type { Clock } from './clock.js';

/** Options of {@link startGateway}. */
export interface GatewayOptions {
  /**
   * The merchants (appId, appSecret). Default: the demo merchant. More can be added later through
   * `gateway.merchants`.
   */
  readonly merchants?: ReadonlyArray<Merchant>;
  /** The host both listeners bind to. Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** The API port. Default 0 (any free port). */
  readonly port?: number;
  /** The upload port. Default 0 (any free port). */
  readonly uploadPort?: number;
  /** Default Date.now. */
  readonly clock?: Clock;
  /** Scenario id → scenario, for paths under `/s/<id>`. */
  readonly scenarios?: ScenarioSource;
  /** The vendor of the x-<vendor>-* formFields. Default `amz`. */
  readonly vendor?: string;
  /** formFields entries added to every issue after the usual ones (a scenario's extra replaces them). */
  readonly extraFormFields?: ReadonlyArray<readonly [string, string]>;
  /** Where uploaded files are stored (kept on close). Default: a temporary folder, removed on close. */
  readonly storageDir?: string;
  /** One line per exchange and per internal error. Default: none. */
  readonly log?: (line: string) => void;
  /** How long a body may stall before it is answered and closed, ms. Default 10,000. */
  readonly bodyTimeoutMs?: number;
  /** The most requests and uploads the recorder keeps per scenario (the oldest dropped). Default: all. */
  readonly recordLimit?: number;
  /** The recorder's byte budget and scenario count (defaults 32 MiB, 2,000; see {@link RecorderLimits}). */
  readonly recordBounds?: Pick<RecorderLimits, 'maxBytes' | 'maxScenarios'>;
  /** The bucket name (the last segment of uploadUrl). Default `pgv2kit-evidence`. */
  readonly bucket?: string;
  /**
   * The Authorization parser's choices where R8 (d), (e) leave it free: empty list elements ignored, item names
   * folded. Default: both refused.
   */
  readonly header?: HeaderChoices;
}

/** A running gateway. */
export interface Gateway {
  /** The API's base URL, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly baseUrl: string;
  /** The upload listener's origin, e.g. `http://127.0.0.1:40124`; every uploadUrl starts with it. */
  readonly uploadUrl: string;
  /**
   * The base URL of a scenario: `<baseUrl>/s/<id>`.
   * @param scenarioId - the scenario id
   */
  url(scenarioId: string): string;
  /** What each client sent, per scenario id. */
  readonly recorder: Recorder;
  /** The stored files. */
  readonly storage: GatewayStorage;
  /** The merchants; add more while running. */
  readonly merchants: MerchantBook;
  readonly clock: Clock;
  /** Stops both listeners, cuts open connections, removes a temporary storage folder. */
  close(): Promise<void>;
}

/**
 * Starts the reference gateway.
 * @param options - {@link GatewayOptions}
 * @returns the running gateway
 * @throws {TypeError | RangeError} (rejects) for a bad merchant, vendor or extra entry
 * @example
 * const gateway = await startGateway({ merchants: [{ appId: 'app_1', appSecret: 's3cr3t' }] });
 * // POST `${gateway.url('client.happy-pdf')}/pg/v2/file/generateUploadUrl` …
 * await gateway.close();
 */
export async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const merchants = new MerchantBook(options.merchants ?? [DEMO_MERCHANT]);
  const vendor = options.vendor ?? 'amz';
  checkVendor(vendor, 'startGateway options');
  const extra = options.extraFormFields ?? [];
  checkExtraFields(extra, 'startGateway options');
  const clock: Clock = options.clock ?? { now: () => Date.now() };
  const log = options.log ?? (() => undefined);
  const host = options.host ?? '127.0.0.1';
  const bucket = options.bucket ?? 'pgv2kit-evidence';
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  const signer: StorageSigner = {
    accessKeyId: `PGV2${randomBytes(8).toString('hex').toUpperCase()}`,
    secretKey: randomBytes(30).toString('base64'),
    region: 'pgv2-local-1',
  };
  const recorder = new Recorder({
    ...(options.recordLimit !== undefined ? { perScenario: options.recordLimit } : {}),
    ...options.recordBounds,
  });
  const issued = new IssuedUploads();
  const storage = await GatewayStorage.open(options.storageDir);

  const upload = createServer(serverOptions());
  const uploadCtx: UploadContext = { signer, bucket, clock, storage, recorder, issued, bodyTimeoutMs, log };
  upload.on(
    'request',
    guarded(
      log,
      'upload',
      (req, res) => handleUpload(uploadCtx, req, res),
      () => ({
        type: 'application/xml',
        text: s3ErrorXml('InternalError', 'We encountered an internal error. Please try again.'),
      }),
    ),
  );
  upload.on(
    'clientError',
    clientErrorAnswer((status, message) => ({
      type: 'application/xml',
      text: s3ErrorXml(status === 431 ? 'RequestHeaderSectionTooLarge' : 'BadRequest', message),
    })),
  );

  const api = createServer(serverOptions());
  const servers = [api, upload];
  try {
    const uploadOrigin = origin(host, await listen(upload, host, options.uploadPort ?? 0));
    const apiCtx: ApiContext = {
      merchants,
      scenarios: options.scenarios,
      clock,
      recorder,
      issued,
      signer,
      bucket,
      uploadOrigin,
      vendor,
      extra,
      bodyTimeoutMs,
      log,
      ...(options.header ? { header: options.header } : {}),
    };
    api.on(
      'request',
      guarded(
        log,
        'api',
        (req, res) => handleApiRequest(apiCtx, req, res),
        () => ({
          type: 'application/json',
          text: envelopeText('INTERNAL', 'internal error of the reference gateway (logged)'),
        }),
      ),
    );
    api.on(
      'clientError',
      clientErrorAnswer((_status, message) => ({
        type: 'application/json',
        text: envelopeText('BAD_REQUEST', message),
      })),
    );
    const baseUrl = origin(host, await listen(api, host, options.port ?? 0));
    let closing: Promise<void> | undefined;
    return {
      baseUrl,
      uploadUrl: uploadOrigin,
      url: (scenarioId) => `${baseUrl}${scenarioPrefix(scenarioId)}`,
      recorder,
      storage,
      merchants,
      clock,
      close: () => (closing ??= Promise.all(servers.map(stop)).then(() => storage.close())),
    };
  } catch (e) {
    await Promise.all(servers.map(stop));
    await storage.close();
    throw e;
  }
}

// --- internal ---

function serverOptions(): {
  keepAliveTimeout: number;
  headersTimeout: number;
  requestTimeout: number;
  maxHeaderSize: number;
} {
  return { keepAliveTimeout: 5_000, headersTimeout: 10_000, requestTimeout: 60_000, maxHeaderSize: 16 * 1024 };
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function stop(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve();
      return;
    }
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The origin clients use: an unspecified address (0.0.0.0, ::) is reached on loopback. */
function origin(host: string, port: number): string {
  const reach = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}

function envelopeText(code: keyof typeof API_FAILURES, message: string): string {
  return new TextDecoder().decode(envelopeBytes({ code, errorMessage: message }));
}

/** A request listener that answers 500 (and logs) when the handler throws. */
function guarded(
  log: (line: string) => void,
  name: string,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  body: () => { type: string; text: string },
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(req, res).catch((e: unknown) => {
      log(
        `${name} ${req.method as string} ${req.url as string}: ` +
          `internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      );
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const { type, text } = body();
      res.writeHead(500, {
        'Content-Type': type,
        'Content-Length': String(Buffer.byteLength(text)),
        Connection: 'close',
      });
      res.end(text);
      req.resume();
    });
  };
}
