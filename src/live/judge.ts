/**
 * The judge of live traffic (issue 26): one {@link LiveExchange} judged with the functions the rest of the kit
 * judges with — no second judge. An API request as the reference gateway judges it ({@link authenticateRequest},
 * {@link judgeApiRequest}: the signature over the URL the client addressed and the exact bytes, 4.1's headers, the
 * body of 2.1/2.5), the known mistake named as the gateway names it; the gateway's answer as the gateway role judges
 * it ({@link readGatewayAnswer}, {@link genuineAnswerProblem}: status, signature over the method and URL of the
 * request it answered and the raw bytes (R9), envelope, data); an upload as the reference upload address reads and
 * checks it ({@link parseMultipart}, {@link checkUploadForm}, R14); a webhook and a return redirect with the scheme's
 * verifiers ({@link verifyWebhook}, {@link verifyRedirect}) and the diagnosis's {@link findMistakes}. What the
 * readings allow either way (R8's tolerated header forms, R14's order, R12, a 5xx refusal, R16) is a note, never a
 * finding.
 * @module
 */
import { parseAuthorization } from '../scheme/authorization.js';
import { utf8 } from '../scheme/bytes.js';
import { sign } from '../scheme/sign.js';
import { redirectValues, verifyRedirect } from '../scheme/redirect.js';
import { verifyWebhook, type VerifyOutcome } from '../scheme/verify.js';
import { findMistakes, type ByteParts } from '../diagnosis/mistakes.js';
import { mistakeRef, docPath } from '../docs/refs.js';
import { judgeAnswer } from '../refusal.js';
import { FORM_PROBLEMS, MultipartError, checkUploadForm, parseMultipart, type MultipartPart } from '../upload/index.js';
import { API_PATHS, judgeApiRequest } from '../gateway/api-judge.js';
import { API_FAILURES } from '../gateway/failures.js';
import type { MerchantBook } from '../gateway/merchants.js';
import { authenticateRequest, type HeaderChoices } from '../gateway/request-auth.js';
import { genuineAnswerProblem, readGatewayAnswer, requestedContentType } from '../roles/gateway/answer.js';
import { isAccepting, type AcceptanceRule } from '../roles/merchant/as-gateway/acceptance.js';
import { headerValue, type LiveExchange, type LiveKind, type LiveMessage } from './exchange.js';

/** One thing an exchange did against the spec. */
export interface LiveFinding {
  /** Which message: the request, the answer to it, or the upload, webhook or redirect itself. */
  readonly about: 'request' | 'response' | 'upload' | 'webhook' | 'redirect';
  /** The spec sections and readings the rule comes from, e.g. `5.1, 5.2, R1`. */
  readonly rule: string;
  /** What was wrong, in words (never a secret). */
  readonly message: string;
  /** The known mistake that explains it (its page is `docs/mistakes/<id>.md`). */
  readonly mistake?: string;
  /** The mistake's docs page, relative to the package (`docs/mistakes/no-final-lf.md`). */
  readonly page?: string;
}

/** The judgement of one exchange. */
export interface LiveJudgement {
  /** `not judged` when the exchange could not be judged (its `notJudged`, or what the judge lacks). */
  readonly verdict: 'conformant' | 'not conformant' | 'not judged';
  /** The findings; empty unless the verdict is `not conformant`. */
  readonly findings: readonly LiveFinding[];
  /** What the readings allow and the report notes (a tolerated header form, R14's order, a 5xx refusal, R16). */
  readonly notes: readonly string[];
  /** Why the exchange was not judged. */
  readonly reason?: string;
}

/** What the judge knows. */
export interface LiveContext {
  /** The merchants whose messages can be verified: appId → secret. */
  readonly merchants: MerchantBook;
  /** The header parser's further R8 choices, as the reference gateway takes them (default neither). */
  readonly header?: HeaderChoices;
  /**
   * What a merchant's answer to a webhook or return redirect means (certify's --accept-body, --return-refusal-body,
   * --return-refusal-location; default: a webhook is taken with any 2xx, a return page refused with a 4xx only).
   */
  readonly acceptance?: AcceptanceRule;
}

/**
 * Judges one exchange.
 * @param ex - the exchange
 * @param ctx - the merchants and the header choices
 * @returns the verdict, the findings (each naming the known mistake where one explains it) and the notes
 * @example
 * const request = { method: 'POST', url, headers: [], body: new Uint8Array() };
 * const ex = { seq: 1, startedAt: '2026-11-26T00:00:00Z', kind: 'api', request, notJudged: 'no postData' } as const;
 * (await judgeExchange(ex, { merchants: new MerchantBook([{ appId, appSecret }]) })).verdict // 'not judged'
 */
export async function judgeExchange(ex: LiveExchange, ctx: LiveContext): Promise<LiveJudgement> {
  if (ex.notJudged !== undefined) return notJudged(ex.notJudged);
  // no answer (the receiver down, too slow, a request that failed in a HAR), or one not held byte-exact
  const why =
    ex.answerNotJudged ??
    (ex.response === undefined
      ? `there is no answer${ex.unanswered !== undefined ? ` (${ex.unanswered})` : ''}`
      : undefined);
  if (why === undefined) return JUDGES[ex.kind](ex, ctx);
  // the request alone: what it did wrong is a finding; that it did nothing wrong passes only half the exchange
  const { response: _, answerNotJudged: __, ...request } = ex;
  const alone = await JUDGES[ex.kind](request, ctx);
  if (alone.verdict === 'not conformant')
    return { ...alone, notes: [...alone.notes, `the answer is not judged: ${why}`] };
  if (alone.verdict === 'not judged') return alone;
  return notJudged(`${why}: the request alone was judged, and is conformant`);
}

// --- internal ---

/** Who judges each kind of live exchange (a live kind, not a vector kind: what crossed the wire). */
const JUDGES: Readonly<
  Record<LiveKind, (ex: LiveExchange, ctx: LiveContext) => LiveJudgement | Promise<LiveJudgement>>
> = {
  api: (ex, ctx) => judgeApi(ex, ctx),
  upload: (ex) => judgeUpload(ex),
  webhook: (ex, ctx) => judgeMerchantBound(ex, ctx),
  redirect: (ex, ctx) => judgeMerchantBound(ex, ctx),
};

class Findings {
  readonly findings: LiveFinding[] = [];
  readonly notes: string[] = [];

  add(about: LiveFinding['about'], rule: string, message: string, mistake?: string): void {
    const ref = mistake === undefined ? undefined : mistakeRef(mistake);
    this.findings.push({
      about,
      rule,
      message,
      ...(mistake !== undefined ? { mistake } : {}),
      ...(ref ? { page: docPath(ref) } : {}),
    });
  }

  judgement(): LiveJudgement {
    return {
      verdict: this.findings.length === 0 ? 'conformant' : 'not conformant',
      findings: this.findings,
      notes: this.notes,
    };
  }
}

function notJudged(reason: string): LiveJudgement {
  return { verdict: 'not judged', findings: [], notes: [], reason };
}

/** The API path a URL addresses: the operation path its path ends in (after a base path), else its path. */
function apiPath(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    // not a URL (a hostile HAR): no operation is at it
    return url;
  }
  return Object.values(API_PATHS).find((p) => path.endsWith(p)) ?? path;
}

const TOLERATED: Record<string, string> = {
  whitespace: 'white space in the Authorization header, tolerated (R8 a; RFC 9110 §5.5)',
  'extra-item': 'an item other than the four in the Authorization header, ignored (R8 b)',
  'scheme-case': 'the scheme word in another letter case, tolerated (R8 c)',
  'empty-element': 'an empty list element in the Authorization header, ignored (R8 d)',
  'name-case': 'an item name in another letter case, tolerated (R8 e)',
};

function judgeApi(ex: LiveExchange, ctx: LiveContext): LiveJudgement {
  const out = new Findings();
  const req = ex.request;
  const auth = authenticateRequest(
    ctx.merchants,
    { method: req.method, url: req.url, authorization: headerValue(req.headers, 'authorization'), body: req.body },
    ctx.header,
  );
  const judged = judgeApiRequest({
    method: req.method,
    path: apiPath(req.url),
    contentType: headerValue(req.headers, 'content-type'),
    accept: headerValue(req.headers, 'accept'),
    body: req.body,
    auth,
  });
  if (auth.valid) out.notes.push(...auth.tolerated.map((t) => TOLERATED[t] ?? `tolerated: ${t} (R8)`));
  if (!judged.ok) {
    const { code, message } = judged.failure;
    const mistake = auth.valid
      ? undefined
      : auth.problem.kind === 'uppercase-sign'
        ? 'uppercase-hex'
        : auth.mistakes[0]?.id;
    out.add('request', API_FAILURES[code].sources.join(', '), `${code}: ${message}`, mistake);
  }
  const answer = ex.response;
  if (answer === undefined) return out.judgement();
  const answered: LiveMessage = ex.forwarded ?? req;
  if (!judged.ok) {
    if (!auth.valid && auth.problem.kind === 'unknown-app-id') {
      out.notes.push('the answer is not judged: the judge does not hold the secret of the appId the request names');
      return out.judgement();
    }
    // a request the reference gateway refuses must be refused (R16: any non-2xx, or a code other than OK)
    const code = envelopeCode(answer.body);
    const accepting = answer.status >= 200 && answer.status < 300 && (code === null || code === 'OK');
    const j = judgeAnswer('refuse', answer.status, accepting);
    if (!j.ok)
      out.add('response', '5, 7, R16', `the gateway accepted a request it must refuse (HTTP ${answer.status})`);
    else if (j.advisory) out.notes.push(`the gateway ${j.advisory}`);
    return out.judgement();
  }
  const op = judged.operation === 'generateUploadUrl' ? 'gateway.generateUploadUrl' : 'gateway.createPayment';
  const read = readGatewayAnswer({
    op,
    appId: judged.merchant.appId,
    appSecret: judged.merchant.appSecret,
    method: answered.method,
    url: answered.url,
    status: answer.status,
    authorization: headerValue(answer.headers, 'authorization') ?? null,
    contentType: headerValue(answer.headers, 'content-type') ?? null,
    body: answer.body,
    requestedContentType: requestedContentType(Buffer.from(answered.body).toString('utf8')),
  });
  const problem = genuineAnswerProblem(op, read, 200);
  if (problem !== undefined) out.add('response', '2.3, 2.4, 4.1, 5.4, 7, R9, R16', problem);
  return out.judgement();
}

function envelopeCode(body: Uint8Array): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(body).toString('utf8')) as { code?: unknown } | null;
    return typeof parsed?.code === 'string' ? parsed.code : null;
  } catch {
    return null;
  }
}

async function judgeUpload(ex: LiveExchange): Promise<LiveJudgement> {
  const issued = ex.issued;
  if (issued === undefined) return notJudged('no upload credentials are known for this uploadUrl (4.2)');
  const out = new Findings();
  const req = ex.request;
  let valid = false;
  if (issued.httpMethod !== undefined && req.method !== issued.httpMethod) {
    out.add(
      'upload',
      '4.2',
      `the upload was sent with ${req.method}, not the httpMethod issued (${issued.httpMethod})`,
    );
  } else {
    let parts: MultipartPart[] | undefined;
    try {
      parts = await parseMultipart(req.body, headerValue(req.headers, 'content-type') ?? '');
    } catch (e) {
      if (!(e instanceof MultipartError)) throw e;
      out.add(
        'upload',
        FORM_PROBLEMS['malformed-multipart'].sources.join(', '),
        `${e.message} (4.2)`,
        'malformed-multipart',
      );
    }
    if (parts !== undefined) {
      // the file's bytes are the client's to choose: the live judge compares the form, not the content
      const file = parts.find((p) => p.kind === 'file' && p.name === 'file');
      const checked = checkUploadForm(
        {
          formFields: issued.formFields,
          filename: issued.filename,
          contentType: issued.contentType ?? '',
          file: file?.kind === 'file' ? file.data : new Uint8Array(),
        },
        parts,
      );
      if (checked.valid) {
        valid = true;
        if (checked.reordered)
          out.notes.push('the formFields entries came in another order than issued (R14: acceptable)');
      } else
        out.add(
          'upload',
          FORM_PROBLEMS[checked.problem.kind].sources.join(', '),
          checked.message,
          checked.problem.kind,
        );
    }
  }
  const answer = ex.response;
  if (answer === undefined) return out.judgement();
  if (valid) {
    const problem = genuineAnswerProblem('gateway.upload', { status: answer.status }, 204);
    if (problem !== undefined) out.add('response', '3, 4.2, R16', `the upload address: ${problem}`);
  } else {
    const j = judgeAnswer('refuse', answer.status, answer.status >= 200 && answer.status < 300);
    if (!j.ok)
      out.add('response', '4.2, 7', `the upload address accepted an upload 4.2 says fails (HTTP ${answer.status})`);
    else if (j.advisory) out.notes.push(`the upload address ${j.advisory}`);
  }
  return out.judgement();
}

function judgeMerchantBound(ex: LiveExchange, ctx: LiveContext): LiveJudgement {
  const about = ex.kind === 'webhook' ? 'webhook' : 'redirect';
  const rule = ex.kind === 'webhook' ? '5.5, R10' : '5.6, R11';
  const registered = ex.registeredUrl;
  if (registered === undefined)
    return notJudged(
      `the ${ex.kind === 'webhook' ? 'notifyUrl' : 'returnUrl'} as the merchant submitted it is not known`,
    );
  const out = new Findings();
  const req = ex.request;
  const redirect = ex.kind === 'redirect' ? redirectValues(req.url) : undefined;
  const header =
    redirect === undefined
      ? headerValue(req.headers, 'authorization')
      : 'authorization' in redirect
        ? redirect.authorization
        : undefined;
  const parsed = header === undefined ? undefined : parseAuthorization(header, ctx.header);
  const merchant = parsed?.ok ? ctx.merchants.get(parsed.items.appId) : undefined;
  let outcome: VerifyOutcome;
  if (parsed?.ok && merchant === undefined) {
    out.add(about, rule, `unknown appId ${JSON.stringify(parsed.items.appId)}: the judge holds no secret for it`);
    const expected = ctx.merchants
      .list()
      .map((m) => m.appId)
      .join(' or ');
    outcome = {
      valid: false,
      problem: { kind: 'app-id-mismatch', expected, got: parsed.items.appId },
      message: 'unknown appId',
    };
  } else {
    // without a known appId the header is refused before any sign is computed: any merchant's secret will do
    const who = merchant ?? ctx.merchants.list()[0] ?? { appId: '', appSecret: '' };
    outcome =
      ex.kind === 'webhook'
        ? verifyWebhook({
            ...who,
            notifyUrl: registered,
            method: req.method,
            authorization: header ?? null,
            body: req.body,
          })
        : verifyRedirect({ ...who, returnUrl: registered, redirectUrl: req.url });
    if (!outcome.valid) {
      let mistake: string | undefined;
      if (outcome.problem.kind === 'uppercase-sign') mistake = 'uppercase-hex';
      else if (outcome.problem.kind === 'sign-mismatch' && parsed?.ok && merchant) {
        const body = redirect && 'payment' in redirect ? utf8(`payment=${redirect.payment}`) : req.body;
        const parts: ByteParts = {
          ...merchant,
          method: ex.kind === 'webhook' ? req.method : 'GET',
          url: registered,
          timestamp: parsed.items.timestamp,
          nonce: parsed.items.nonce,
          body,
        };
        mistake = findMistakes(parts, parsed.items.sign)[0]?.id;
        // a webhook signed over the URL it was sent to (the merchant's tunnel, a port the gateway rewrote), not the
        // notifyUrl as submitted (R10): the known mistake of that name, the sender's side of it
        if (mistake === undefined && ex.kind === 'webhook' && req.url !== registered)
          if (sign({ ...parts, url: req.url }) === parsed.items.sign.toLowerCase()) mistake = 'delivery-url';
      }
      out.add(about, rule, `the ${ex.kind} does not verify: ${outcome.message}`, mistake);
    } else out.notes.push(...outcome.tolerated.map((t) => TOLERATED[t] ?? `tolerated: ${t} (R8)`));
  }
  const answer = ex.response;
  if (answer !== undefined) {
    // the merchant's answer, read as the merchant role reads it (acceptance.ts, with the acceptance options given:
    // by default a webhook is taken with any 2xx, a return page with a 2xx or 3xx, a 4xx refuses)
    const read = {
      status: answer.status,
      body: Buffer.from(answer.body).toString('utf8'),
      location: headerValue(answer.headers, 'location'),
    };
    const accepting = isAccepting(read, ex.kind === 'webhook' ? 'notify' : 'return', ctx.acceptance ?? {}, registered);
    // R7: the right digest in upper-case hex may be accepted or refused (its sender is at fault, found above)
    const expect = outcome.valid ? 'accept' : outcome.problem.kind === 'uppercase-sign' ? 'either' : 'refuse';
    const j = judgeAnswer(expect, answer.status, accepting);
    if (!j.ok)
      out.add(
        'response',
        rule,
        outcome.valid
          ? `the merchant refused a genuine ${ex.kind} (HTTP ${answer.status})`
          : `the merchant accepted a ${ex.kind} that does not verify (HTTP ${answer.status})`,
        // the verifier's known mistake, by what was wrong with what it accepted (accepts-sign-mismatch, …)
        outcome.valid || mistakeRef(`accepts-${outcome.problem.kind}`) === undefined
          ? undefined
          : `accepts-${outcome.problem.kind}`,
      );
    else if (j.advisory) out.notes.push(`the merchant ${j.advisory}`);
  }
  return out.judgement();
}
