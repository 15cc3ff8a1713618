/**
 * The gateway's API (spec §4.1, §4.3, §5): POST /pg/v2/file/generateUploadUrl and
 * POST /pg/v2/payment/create, on plain paths or under a `/s/<scenario id>` prefix.
 *
 * Every request is read (at most 64 KiB), verified and recorded, then answered. The
 * checks, in order, each with its refusal (failures.ts; R16): the body over 64 KiB
 * (413) or stalled (408); the path (404) and method (405); Content-Type application/json
 * (415) and Accept naming application/json (406), §4.1; the signature, §5 (401); the
 * body UTF-8 JSON (400) and valid for the operation, §2.1/§2.2 or §2.5 (400). A refusal
 * is the 2.3 envelope with a code other than OK and an errorMessage saying why, signed
 * when the header named a known merchant (§1: every response is signed). Success is
 * HTTP 200 with the envelope's bytes and signature as the scenario asks (§5.4).
 * @module
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drainRest, fullUrl, rawHeaderPairs, readBody, targetPath, type ReadBody } from './http-io.js';
import { envelopeBytes, responseAuthorization, type JsonOut } from './envelope.js';
import { API_FAILURES, failure, type ApiFailure } from './failures.js';
import type { Clock } from './clock.js';
import type { Merchant, MerchantBook } from './merchants.js';
import { createdPayment } from './payment.js';
import { judgeApiRequest } from './api-judge.js';
import type { StorageSigner } from './policy.js';
import type { RecordedRequest, Recorder, RequestVerification } from './recorder.js';
import { authenticateRequest, type AuthOutcome, type HeaderChoices } from './request-auth.js';
import type { Scenario } from '../vectors/scenario.js';
import { lookupScenario, splitScenarioPath, type ScenarioSource } from './scenario-routing.js';
import { credentialsData, issueUpload, type IssuedUpload, type IssuedUploads } from './upload-credentials.js';
import { clip } from '../scheme/text.js';

export { API_PATHS } from './api-judge.js';

/**
 * The largest API request body read, bytes.
 * @example API_BODY_LIMIT // 65536 — a longer request body is answered 413
 */
export const API_BODY_LIMIT = 64 * 1024;

/** What the API needs of the gateway. */
export interface ApiContext {
  readonly merchants: MerchantBook;
  readonly scenarios: ScenarioSource | undefined;
  readonly clock: Clock;
  readonly recorder: Recorder;
  readonly issued: IssuedUploads;
  readonly signer: StorageSigner;
  readonly bucket: string;
  /** The upload listener's origin. */
  readonly uploadOrigin: string;
  readonly vendor: string;
  readonly extra: ReadonlyArray<readonly [string, string]>;
  readonly bodyTimeoutMs: number;
  readonly log: (line: string) => void;
  /** The header parser's R8 (d), (e) choices. */
  readonly header?: HeaderChoices;
}

/**
 * Handles one API request: reads, verifies, records and answers it. Never rejects for
 * any input; an unexpected exception propagates to the server wiring (500, logged).
 * @param ctx - the gateway
 * @param req - the request
 * @param res - the answer
 */
export async function handleApiRequest(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const seq = ctx.recorder.nextSeq();
  const at = ctx.clock.now();
  // A server request always has a method and a target.
  const method = req.method as string;
  const target = req.url as string;
  const url = fullUrl(req);
  const route = splitScenarioPath(targetPath(target));
  const body = await readBody(req, API_BODY_LIMIT, ctx.bodyTimeoutMs);
  const auth = authenticateRequest(
    ctx.merchants,
    {
      method,
      url,
      authorization: req.headers.authorization,
      body: body.bytes,
      ...(route.prefix ? { scenarioPrefix: route.prefix } : {}),
    },
    ctx.header,
  );
  const base = {
    seq,
    at,
    method,
    url,
    path: route.rest,
    headers: rawHeaderPairs(req),
    body: body.bytes,
    bodyComplete: body.stopped === undefined,
    verification: verificationOf(auth),
    verified: auth.valid,
  };

  if (body.stopped === 'aborted') {
    ctx.recorder.addRequest(route.id, {
      ...base,
      problem: 'the client closed the connection before the body ended',
      response: { status: 0, code: '', errorMessage: null, body: new Uint8Array() },
    });
    return;
  }

  const outcome = decide(ctx, req, route.rest, route.id, body, auth);
  if ('code' in outcome) {
    const merchant = auth.merchant;
    const { bytes, authorization } = answer(
      ctx,
      { code: outcome.code, errorMessage: outcome.message },
      merchant,
      method,
      url,
    );
    const status = API_FAILURES[outcome.code].status;
    // A body not read to its end (stalled, or over the limit): the answer says the connection closes
    // (Connection: close), and what still comes of a body over the limit is drained (bounded) so the
    // client reads the answer before the socket closes.
    if (body.stopped === 'too-large') drainRest(req);
    send(res, status, bytes, authorization, body.stopped === 'timeout' || body.stopped === 'too-large');
    ctx.recorder.addRequest(route.id, {
      ...base,
      problem: outcome.message,
      response: {
        status,
        code: outcome.code,
        errorMessage: outcome.message,
        body: bytes,
        ...(authorization ? { authorization } : {}),
      },
    });
    ctx.log(`api ${method} ${clip(target, 120)} -> ${status} ${outcome.code}: ${outcome.message}`);
    return;
  }

  const scenario = lookupScenario(ctx.scenarios, route.id);
  const merchant = (auth as Extract<AuthOutcome, { valid: true }>).merchant;
  const { bytes, authorization } = answer(
    ctx,
    { code: 'OK', errorMessage: null, data: outcome.data },
    merchant,
    method,
    url,
    scenario.response,
  );
  send(res, 200, bytes, authorization, false);
  ctx.recorder.addRequest(route.id, {
    ...base,
    response: { status: 200, code: 'OK', errorMessage: null, body: bytes, ...(authorization ? { authorization } : {}) },
    ...(outcome.issued ? { issued: issuedRecord(outcome.issued) } : {}),
    ...(outcome.paymentNo ? { paymentNo: outcome.paymentNo } : {}),
  });
  ctx.log(`api ${method} ${clip(target, 120)} -> 200 OK`);
}

// --- internal ---

type Success = {
  readonly data: { readonly [key: string]: JsonOut };
  readonly issued?: IssuedUpload;
  readonly paymentNo?: string;
};

function decide(
  ctx: ApiContext,
  req: IncomingMessage,
  path: string,
  scenarioId: string | undefined,
  body: ReadBody,
  auth: AuthOutcome,
): ApiFailure | Success {
  const stopped = body.stopped;
  if (stopped === 'too-large') return failure('PAYLOAD_TOO_LARGE', `the body is larger than ${API_BODY_LIMIT} bytes`);
  if (stopped === 'timeout') return failure('REQUEST_TIMEOUT', `the body stopped arriving for ${ctx.bodyTimeoutMs} ms`);
  const judged = judgeApiRequest({
    method: req.method as string,
    path,
    contentType: req.headers['content-type'],
    accept: req.headers.accept,
    body: body.bytes,
    auth,
  });
  if (!judged.ok) return judged.failure;
  const now = ctx.clock.now();
  if (judged.operation === 'generateUploadUrl') {
    const issued = issueUpload(
      {
        signer: ctx.signer,
        bucket: ctx.bucket,
        uploadOrigin: ctx.uploadOrigin,
        now,
        vendor: ctx.vendor,
        extra: ctx.extra,
        scenario: lookupScenario(ctx.scenarios, scenarioId),
        scenarioId,
        appId: judged.merchant.appId,
      },
      judged.credentials,
    );
    ctx.issued.add(issued);
    return { data: credentialsData(issued), issued };
  }
  const paymentNo = `P${now}${randomBytes(4).toString('hex')}`;
  return { data: createdPayment(judged.payment, paymentNo, now), paymentNo };
}

/** The envelope's bytes and signature: as the scenario asks on success, compact and correctly signed otherwise. */
function answer(
  ctx: ApiContext,
  envelope: Parameters<typeof envelopeBytes>[0],
  merchant: Merchant | undefined,
  method: string,
  url: string,
  style: Scenario['response'] = {},
): { bytes: Uint8Array; authorization: string | undefined } {
  const now = ctx.clock.now();
  const bytes = envelopeBytes(envelope, style?.bytes ?? 'compact', {
    requestId: randomBytes(8).toString('hex'),
    serverTime: now,
  });
  if (!merchant) return { bytes, authorization: undefined };
  const signed = {
    merchant,
    method,
    url,
    body: bytes,
    timestamp: String(Math.trunc(now)),
    nonce: randomBytes(16).toString('hex'),
  };
  return { bytes, authorization: responseAuthorization(signed, style?.signature ?? 'valid') };
}

function send(
  res: ServerResponse,
  status: number,
  bytes: Uint8Array,
  authorization: string | undefined,
  closing: boolean,
): void {
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': String(bytes.byteLength),
    'Cache-Control': 'no-store',
    ...(authorization !== undefined ? { Authorization: authorization } : {}),
    ...(status === 405 ? { Allow: 'POST' } : {}),
    ...(closing ? { Connection: 'close' } : {}),
  });
  res.end(bytes);
}

function verificationOf(auth: AuthOutcome): RequestVerification {
  if (auth.valid) return { valid: true, appId: auth.merchant.appId, tolerated: auth.tolerated };
  const appId = auth.problem.kind === 'unknown-app-id' ? auth.problem.appId : auth.merchant?.appId;
  return {
    valid: false,
    problem: auth.problem.kind,
    message: auth.message,
    mistakes: auth.mistakes,
    ...(appId !== undefined ? { appId } : {}),
  };
}

function issuedRecord(issued: IssuedUpload): NonNullable<RecordedRequest['issued']> {
  const { uploadNo, storageUri, uploadUrl, key, formFields, expiresAt } = issued;
  return { uploadNo, storageUri, uploadUrl, key, formFields, expiresAt };
}
