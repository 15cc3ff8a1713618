/**
 * What a live session (./session.ts) writes of one judged exchange, each from data masked first and escaped last
 * (issue 25's rule): its entry in results.json ({@link exchangeJson}: the request and response as sent, secrets
 * masked as data), its terminal line ({@link exchangeLine}: masked, then made inert), and its parts of report.html
 * ({@link exchangeRowHtml}, {@link exchangeArticleHtml}: escaped, each known mistake cited as the run report cites
 * one, src/docs/cite.ts).
 * @module
 */
import { isValidUtf8 } from '../scheme/utf8.js';
import { toBase64 } from '../scheme/bytes.js';
import type { Masker } from '../scheme/mask.js';
import { inertText } from '../scheme/terminal-text.js';
import { citePageHtml, citeRefsHtml, docDisplayPath } from '../docs/cite.js';
import { mistakeRef, mistakeTitle } from '../docs/refs.js';
import { paint } from '../runner/progress.js';
import { escapeHtml as h } from '../reports/escape.js';
import { explanationHtml } from '../reports/explanation-html.js';
import type { LiveAnswer, LiveExchange, LiveMessage } from './exchange.js';
import type { LiveFinding, LiveJudgement } from './judge.js';

/** A body in results.json: UTF-8 text as itself, other bytes as base64; a body holding a secret masked. */
export type BodyJson =
  { readonly text: string } | { readonly base64: string } | { readonly text: string; readonly masked: true };

/** A request in results.json, as its sender sent it: a {@link LiveMessage} whose body is text or base64. */
export type MessageJson = Omit<LiveMessage, 'body'> & { readonly body: BodyJson };

/** An answer in results.json, as its sender answered: a {@link LiveAnswer} whose body is text or base64. */
export type AnswerJson = Omit<LiveAnswer, 'body'> & { readonly body: BodyJson };

/** One exchange in results.json (`exchanges`, in arrival order). Every string in it is masked. */
export interface ExchangeJson {
  readonly seq: number;
  readonly startedAt: string;
  readonly kind: LiveExchange['kind'];
  readonly method: string;
  readonly url: string;
  /** The answer's status, or null when there was none. */
  readonly status: number | null;
  /** The proxy only: why there is no answer (the receiver down or too slow, or the proxy refused the request). */
  readonly unanswered?: string;
  readonly verdict: LiveJudgement['verdict'];
  /** Each with `mistake` and `page` when a known mistake explains it. */
  readonly findings: readonly LiveFinding[];
  readonly notes: readonly string[];
  /** Why it was not judged. */
  readonly reason?: string;
  /** A secret appeared in it: what is shown here and in traffic.har is masked, not the bytes sent. */
  readonly masked?: true;
  readonly request: MessageJson;
  /** The proxy only: as forwarded upstream. */
  readonly forwarded?: MessageJson;
  readonly response?: AnswerJson;
  readonly registeredUrl?: string;
  readonly issued?: {
    readonly uploadUrl: string;
    readonly formFields: ReadonlyArray<readonly [string, string]>;
    readonly filename: string;
    readonly contentType?: string;
    readonly httpMethod?: string;
  };
}

/**
 * Whether an exchange holds secret material anywhere: a URL, a header, a body.
 * @param ex - the exchange
 * @param masker - the session's masker
 * @returns true when any part of it would be masked
 * @example
 * import { Masker } from '../scheme/mask.js';
 * const request = { method: 'POST', url, headers: [], body: Buffer.from('{"note":"s3cret-value-1"}') };
 * const ex = { seq: 1, startedAt: '2026-11-26T00:00:00Z', kind: 'api', request } as const;
 * exchangeHoldsSecret(ex, new Masker(['s3cret-value-1'])) // true
 */
export function exchangeHoldsSecret(ex: LiveExchange, masker: Masker): boolean {
  if (masker.empty) return false;
  const messages: Array<LiveMessage | LiveAnswer> = [ex.request];
  if (ex.forwarded) messages.push(ex.forwarded);
  if (ex.response) messages.push(ex.response);
  const texts = [ex.registeredUrl ?? '', ...(ex.issued ? [JSON.stringify(ex.issued)] : [])];
  const looked: Uint8Array[] = [];
  for (const m of messages) {
    if ('url' in m) texts.push(m.method, m.url);
    for (const [n, v] of m.headers) texts.push(n, v);
    // a body forwarded as it came (the proxy's) is looked at once
    if (looked.some((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(m.body))) continue;
    looked.push(m.body);
    if (masker.holdsSecret(m.body)) return true;
  }
  return texts.some((t) => masker.text(t) !== t);
}

/**
 * The exchange with every secret masked, for traffic.har: its URLs and headers masked as text, each body holding a
 * secret as the masked text's UTF-8 bytes (so no longer the bytes sent) — and `notJudged` saying so, so that
 * `pgv2kit check` never judges the masked bytes as if they were sent.
 * @param ex - an exchange that holds a secret ({@link exchangeHoldsSecret})
 * @param masker - the session's masker
 * @returns the masked exchange
 */
export function maskedExchange(ex: LiveExchange, masker: Masker): LiveExchange {
  const body = (b: Uint8Array): Uint8Array => (masker.holdsSecret(b) ? Buffer.from(masker.plain(b), 'utf8') : b);
  const msg = (m: LiveMessage): LiveMessage => ({
    method: masker.text(m.method),
    url: masker.text(m.url),
    headers: m.headers.map(([n, v]) => [masker.text(n), masker.text(v)] as const),
    body: body(m.body),
  });
  const why = 'a secret appeared in this exchange and is masked here: these are not the bytes sent';
  return {
    ...masker.data({ seq: ex.seq, startedAt: ex.startedAt, kind: ex.kind }),
    request: msg(ex.request),
    ...(ex.forwarded ? { forwarded: msg(ex.forwarded) } : {}),
    ...(ex.response
      ? {
          response: {
            status: ex.response.status,
            headers: masker.data(ex.response.headers),
            body: body(ex.response.body),
          },
        }
      : {}),
    ...(ex.issued ? { issued: masker.data(ex.issued) } : {}),
    ...(ex.registeredUrl !== undefined ? { registeredUrl: masker.text(ex.registeredUrl) } : {}),
    ...(ex.unanswered !== undefined ? { unanswered: masker.text(ex.unanswered) } : {}),
    notJudged: ex.notJudged === undefined ? why : `${masker.text(ex.notJudged)}; ${why}`,
  };
}

/**
 * An exchange and its judgement as results.json holds it: every string masked as data, bodies as text (UTF-8),
 * base64 (other bytes) or masked text (a body holding a secret).
 * @param ex - the exchange as it was sent
 * @param j - its judgement
 * @param masker - the session's masker
 * @returns the entry
 */
export function exchangeJson(ex: LiveExchange, j: LiveJudgement, masker: Masker): ExchangeJson {
  const holds = exchangeHoldsSecret(ex, masker);
  const body = (b: Uint8Array): BodyJson =>
    holds && masker.holdsSecret(b)
      ? { text: masker.plain(b), masked: true }
      : isValidUtf8(b)
        ? { text: Buffer.from(b).toString('utf8') }
        : { base64: toBase64(b) };
  const msg = (m: LiveMessage): MessageJson => ({
    method: m.method,
    url: m.url,
    headers: m.headers.map(([n, v]) => [n, v] as const),
    body: body(m.body),
  });
  const plain = {
    seq: ex.seq,
    startedAt: ex.startedAt,
    kind: ex.kind,
    method: ex.request.method,
    url: ex.request.url,
    status: ex.response?.status ?? null,
    ...(ex.unanswered !== undefined ? { unanswered: ex.unanswered } : {}),
    verdict: j.verdict,
    findings: j.findings,
    notes: j.notes,
    ...(j.reason !== undefined ? { reason: j.reason } : {}),
    ...(holds ? { masked: true as const } : {}),
    request: msg(ex.request),
    ...(ex.forwarded ? { forwarded: msg(ex.forwarded) } : {}),
    ...(ex.response
      ? { response: { status: ex.response.status, headers: ex.response.headers, body: body(ex.response.body) } }
      : {}),
    ...(ex.registeredUrl !== undefined ? { registeredUrl: ex.registeredUrl } : {}),
    ...(ex.issued ? { issued: ex.issued } : {}),
  };
  // masked as data before it is encoded; a body masked above is masked text already (masking it again is a no-op)
  if (holds) return masker.data(plain) as ExchangeJson;
  // traffic that holds no secret (every URL, header and body looked at once, above: masking them again finds
  // nothing, and was two thirds of the session's masking, bench/proxy-throughput.ts): the kit's own words about it
  // masked (a finding may quote a signature content, which holds the secret), and a body as base64 (its text was
  // never looked at as text)
  const { request, forwarded, response, registeredUrl, issued, ...own } = plain;
  const base64 = <M extends { readonly body: BodyJson }>(m: M): M =>
    'base64' in m.body ? { ...m, body: { base64: masker.text(m.body.base64) } } : m;
  return {
    ...plain,
    ...masker.data(own),
    request: base64(request),
    ...(forwarded ? { forwarded: base64(forwarded) } : {}),
    ...(response ? { response: base64(response) } : {}),
  };
}

/** The verdicts as the terminal and report.html name them. */
const VERDICT_WORDS: Record<LiveJudgement['verdict'], { title: string; colour: 'red' | 'green' | 'yellow' }> = {
  conformant: { title: 'CONFORMANT', colour: 'green' },
  'not conformant': { title: 'NOT CONFORMANT', colour: 'red' },
  'not judged': { title: 'NOT JUDGED', colour: 'yellow' },
};

/**
 * One exchange's terminal line: `#3 POST /pg/v2/payment/create → 200  NOT CONFORMANT  no-final-lf: … (docs/…)`.
 * Every text from the traffic masked, then made inert; only the kit's own colour is a control sequence.
 * @param e - the exchange as results.json holds it (masked)
 * @param colour - colour the verdict
 * @param cwd - the working folder, to name a mistake's page from
 * @returns the line, without its LF
 */
export function exchangeLine(e: ExchangeJson, colour: boolean, cwd: string): string {
  const word = VERDICT_WORDS[e.verdict];
  const answer = e.status ?? `no answer${e.unanswered !== undefined ? ` (${e.unanswered})` : ''}`;
  const head = inertText(`#${e.seq} ${e.method} ${shortUrl(e.url)} → ${answer}`);
  let tail = '';
  if (e.verdict === 'not judged') tail = `: ${inertText(e.reason ?? '')}`;
  else if (e.verdict === 'not conformant') {
    const first = e.findings[0];
    const ref = first?.mistake === undefined ? undefined : mistakeRef(first.mistake);
    const more = e.findings.length > 1 ? ` (+${e.findings.length - 1} more)` : '';
    const what = first === undefined ? '' : `${first.mistake ? `${first.mistake}: ` : ''}${first.message}`;
    tail = `  ${inertText(what)}${ref ? ` (${docDisplayPath(ref, cwd)})` : ''}${more}`;
  }
  return `${head}  ${paint(word.title, word.colour, colour)}${tail}`;
}

/**
 * The URL as a line shows it: its path and query when it parses (the host is the session's target), else whole; a
 * query value longer than 32 characters (a redirect's `authorization` and `payment`, hundreds long) as `…`, so the
 * verdict after it stays on screen — report.html and results.json hold the URL whole.
 * @param url - the URL as sent
 * @returns the text
 * @example shortUrl('https://gw.example/pg/v2/payment/create?a=1') // '/pg/v2/payment/create?a=1'
 * @example shortUrl(`https://shop.example/return?paymentNo=P1&authorization=${'x'.repeat(40)}`)
 *   // '/return?paymentNo=P1&authorization=…'
 */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    const query = u.search
      .slice(1)
      .split('&')
      .map((p) => (p.length - p.indexOf('=') - 1 > 32 && p.includes('=') ? `${p.slice(0, p.indexOf('='))}=…` : p))
      .join('&');
    return `${u.pathname}${u.search === '' ? '' : `?${query}`}`;
  } catch {
    return url;
  }
}

/**
 * The exchange's row in report.html's table (escaped; the exchange masked already).
 * @param e - the exchange as results.json holds it
 * @param linked - its number links to its article (report.html shows it in full)
 * @returns the `<tr>`
 */
export function exchangeRowHtml(e: ExchangeJson, linked = true): string {
  const mistakes = [...new Set(e.findings.flatMap((f) => (f.mistake === undefined ? [] : [f.mistake])))];
  const why =
    e.verdict === 'not judged'
      ? h(e.reason ?? '')
      : mistakes.length > 0
        ? mistakes.map((m) => `<code>${citePageHtml(mistakeRef(m), h(m))}</code>${title(m)}`).join(', ')
        : e.findings.length > 0
          ? h(e.findings[0]?.message ?? '')
          : '';
  const none = e.unanswered === undefined ? '' : `${why === '' ? '' : '; '}no answer: ${h(e.unanswered)}`;
  return (
    `<tr><td class="num">${linked ? `<a href="#ex-${e.seq}">${e.seq}</a>` : e.seq}</td>` +
    `<td>${h(e.kind)}</td><td>${h(e.method)}</td>` +
    `<td class="long"><code>${h(e.url)}</code></td><td class="num">${e.status ?? '—'}</td>` +
    `<td>${verdictBadge(e.verdict)}</td><td class="long">${why}${none}</td></tr>`
  );
}

/** The most characters of a body report.html shows (results.json and traffic.har hold it whole). */
const HTML_BODY_CHARS = 64 * 1024;

/**
 * The exchange's article in report.html: its verdict, the findings (each known mistake cited, what it means and how
 * to fix it folded under it), the notes, and the request, forwarded request and response as sent.
 * @param e - the exchange as results.json holds it (masked)
 * @returns the `<article>`
 */
export function exchangeArticleHtml(e: ExchangeJson): string {
  const out = [
    `<article class="case live-${e.verdict.replace(' ', '-')}" id="ex-${e.seq}">`,
    `<h3>${verdictBadge(e.verdict)} #${e.seq} <code>${h(e.method)} ${h(e.url)}</code></h3>`,
    `<p class="facts">${h(e.kind)} · ${h(e.startedAt)} · answer ` +
      `${e.status ?? (e.unanswered === undefined ? 'none' : `none: ${h(e.unanswered)}`)}` +
      `${e.masked ? ' · <span class="masked">a secret appeared in it: masked here and in traffic.har</span>' : ''}` +
      '</p>',
  ];
  if (e.reason !== undefined) out.push(`<p class="message">not judged: ${h(e.reason)}</p>`);
  if (e.findings.length > 0) {
    out.push('<div class="diagnosis"><h4>Findings</h4><ul>');
    for (const f of e.findings) {
      const ref = f.mistake === undefined ? undefined : mistakeRef(f.mistake);
      const fix = explanationHtml(ref);
      out.push(
        `<li>${h(f.about)}: ${f.mistake ? `<code>${citePageHtml(ref, h(f.mistake))}</code>: ` : ''}` +
          `${citeRefsHtml(h(f.message))} <span class="ref">(${citeRefsHtml(h(f.rule), true)})</span>` +
          `${fix ? `<details><summary>what it means, how to fix it</summary>${fix}</details>` : ''}</li>`,
      );
    }
    out.push('</ul></div>');
  }
  if (e.notes.length > 0)
    out.push(`<ul class="notes">${e.notes.map((n) => `<li>${citeRefsHtml(h(n))}</li>`).join('')}</ul>`);
  const parts: Array<[string, MessageJson | AnswerJson | undefined]> = [
    ['request, as sent', e.request],
    ['forwarded upstream', e.forwarded],
    ['response', e.response],
  ];
  out.push('<details><summary>the messages as sent</summary>');
  for (const [title, m] of parts) if (m) out.push(`<h5>${title}</h5><pre>${h(messageText(m))}</pre>`);
  out.push('</details></article>');
  return out.join('\n');
}

/**
 * A verdict as report.html's badge (the run report's colours: green, red, amber).
 * @param v - the verdict
 * @returns the HTML
 */
export function verdictBadge(v: LiveJudgement['verdict']): string {
  const cls = v === 'conformant' ? 'v-passed' : v === 'not conformant' ? 'v-failed' : 'v-skipped';
  return `<span class="verdict ${cls}">${h(v)}</span>`;
}

// --- internal ---

/** A known mistake's title after its id: `: the LF after the body was left out`. */
function title(id: string): string {
  const t = mistakeTitle(id);
  return t === undefined ? '' : `: ${h(t)}`;
}

function messageText(m: MessageJson | AnswerJson): string {
  const start = 'url' in m ? `${m.method} ${m.url}` : `HTTP ${m.status}`;
  const body =
    'base64' in m.body
      ? `(not UTF-8: ${m.body.base64.length} characters of base64 in results.json)`
      : m.body.text.length > HTML_BODY_CHARS
        ? `${m.body.text.slice(0, HTML_BODY_CHARS)}\n… (${m.body.text.length} characters: whole in results.json)`
        : m.body.text;
  return `${start}\n${m.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${body}`;
}
