/**
 * What the certificate's two pages (certification.html, certification.md) say alike, as data:
 * who and what was certified, the requirements in the order the table lists them, what the
 * certification does not cover, and a merchant's answer body as text to show (clipped, never a
 * page). The pages only lay it out.
 * @module
 */
import { acceptanceWords } from '../as-gateway/acceptance.js';
import type { SendOutcome } from '../as-gateway/send.js';
import { describeImplementation } from '../../../subjects/subject.js';
import type { CertificationResult, CheckResult, RequirementResult } from './certify.js';

/** One fact of the certificate: a label and its value; `code` for an identifier or a URL. */
export interface Fact {
  readonly label: string;
  readonly value: string;
  readonly code?: boolean;
}

/**
 * Who and what was certified, as the first screen says it: the merchant, its URLs as registered,
 * its appId, the seed, the plan hash, the kit and the date.
 * @param r - the certification
 * @returns the facts, in that order
 */
export function subjectFacts(r: CertificationResult): Fact[] {
  const m = r.merchant;
  return [
    // who the merchant is, as --name and --version say (default: its host); a merchant not reached said nothing
    { label: 'Merchant', value: r.run.aborted ? '(not reached)' : describeImplementation(r.run.implementation) },
    { label: 'appId', value: m.appId, code: true },
    { label: 'notifyUrl (as registered)', value: m.notifyUrl, code: true },
    { label: 'returnUrl (as registered)', value: m.returnUrl, code: true },
    { label: 'Date', value: r.date },
    { label: 'Kit', value: `${r.kit.name} ${r.kit.version}` },
    { label: 'Seed', value: String(r.seed), code: true },
    { label: 'Plan hash', value: r.planHash, code: true },
  ];
}

/**
 * How the run went, below the first screen: where the calls went, what counted as acceptance,
 * the timeout, the vector set, the checks' totals and how the merchant answered.
 * @param r - the certification
 * @returns the facts
 */
export function runFacts(r: CertificationResult): Fact[] {
  const m = r.merchant;
  const robustness = Object.entries(r.robustness)
    .map(([k, n]) => `${k} ×${n}`)
    .join(', ');
  const t = r.totals;
  return [
    { label: 'Webhooks delivered to', value: m.deliverTo, code: true },
    { label: 'Redirects delivered to', value: m.returnDeliverTo, code: true },
    { label: 'Accepted means (notify)', value: acceptanceWords('notify', r) },
    { label: 'Accepted means (return)', value: acceptanceWords('return', r) },
    { label: 'Timeout per call', value: `${r.timeoutMs} ms` },
    {
      label: 'Checks',
      value: `${t.pass} passed, ${t.fail} failed, ${t.advisory} advisory, ${t['not-applicable']} not applicable`,
    },
    { label: 'Answers', value: robustness || 'every call answered (no 5xx, timeout or reset)' },
    { label: 'Vector set hash', value: r.vectorSetHash, code: true },
  ];
}

/** A requirement as a row of the table: its result and how many of its checks passed. */
export interface RequirementRow {
  readonly requirement: RequirementResult;
  /** Checks passed. */
  readonly passed: number;
  /** Checks judged pass or fail (advisory and not-applicable ones left out). */
  readonly total: number;
  /** Checks whose result is only noted (R12's replays, R16's 5xx to a forgery). */
  readonly advisory: number;
  /** The three in words: `3 of 4`, `2 of 2, 1 advisory`, `2 advisory`. */
  readonly text: string;
}

/**
 * The requirements as the table lists them: failed first, then advisory, passed and not
 * applicable, each group in the vectors' order.
 * @param r - the certification
 * @returns the rows
 */
export function requirementRows(r: CertificationResult): RequirementRow[] {
  return [...r.requirements]
    .map((q, i) => ({ q, i }))
    .sort((a, b) => ORDER[a.q.result] - ORDER[b.q.result] || a.i - b.i)
    .map(({ q }) => requirementRow(q));
}

/**
 * One requirement's row: how many of its checks passed, of those judged, and how many are advisory.
 * @param q - the requirement
 * @returns the row
 */
export function requirementRow(q: RequirementResult): RequirementRow {
  const count = (x: CheckResult): number => q.checks.filter((c) => c.judgement.result === x).length;
  const passed = count('pass');
  const total = passed + count('fail');
  const advisory = count('advisory');
  const said = [...(total > 0 ? [`${passed} of ${total}`] : []), ...(advisory > 0 ? [`${advisory} advisory`] : [])];
  const text = said.join(', ') || 'none applied';
  return { requirement: q, passed, total, advisory, text };
}

/**
 * A result as the table writes it.
 * @param result - the requirement's or the check's result
 * @returns `PASS`, `FAIL`, `ADVISORY` or `N/A`
 */
export function resultWord(result: CheckResult): string {
  return result === 'not-applicable' ? 'N/A' : result.toUpperCase();
}

/**
 * The requirements that failed, in the table's order.
 * @param r - the certification
 * @returns them
 */
export function failedRequirements(r: CertificationResult): RequirementResult[] {
  return r.requirements.filter((q) => q.result === 'fail');
}

/**
 * The failed requirement a reason is about (a reason about one starts with its id), or none
 * (a merchant not reached, a run stopped, no call answered).
 * @param reason - one of the certification's reasons
 * @param r - the certification
 * @returns the requirement, or undefined
 */
export function reasonRequirement(reason: string, r: CertificationResult): RequirementResult | undefined {
  return failedRequirements(r).find((q) => reason.startsWith(`${q.id} `) || reason.startsWith(`${q.id}:`));
}

/** What the certification says it certifies, before what it does not cover. */
export const COVERS =
  "It certifies that the endpoints verify the gateway's signatures as the spec and the kit's readings say, " +
  'on the calls below.';

/** What the certificate says when no check ran. */
export const NO_CHECK = 'No check ran: no requirement was certified.';

/**
 * One thing the certification does not cover: what, in words, and the spec sections and readings that leave it
 * open.
 */
export interface NotCovered {
  readonly title: string;
  readonly text: string;
  /** E.g. `§5.7, R12`. */
  readonly refs: string;
}

/**
 * What the certification does not cover, said so that no reader takes the certificate for more
 * than it is: what the spec leaves open (clock skew and replay, retries, the webhook's answer),
 * and what no call of the kit can see (TLS and reachability of the registered URLs, the
 * merchant's order processing, its own calls to the gateway, the secret's keeping).
 * @param r - the certification (what was found of replay, and what counted as acceptance)
 * @returns the items
 */
export function notCovered(r: CertificationResult): NotCovered[] {
  const replay = r.requirements.flatMap((q) => q.checks).filter((c) => c.expect === 'advisory');
  const accepted = replay.filter((c) => c.judgement.handling === 'accepted').length;
  const found =
    replay.length === 0
      ? ''
      : ` This merchant accepted ${accepted} of the ${replay.length} replayed or old calls sent.`;
  const moved = r.merchant.deliverTo !== r.merchant.notifyUrl || r.merchant.returnDeliverTo !== r.merchant.returnUrl;
  const movedNote = moved ? ' (the delivery URLs, not the registered ones: those were only signed)' : '';
  const item = (title: string, refs: string, ...sentences: string[]): NotCovered => ({
    title,
    refs,
    text: sentences.join(' '),
  });
  return [
    item(
      'Clock skew and replay',
      '§5.7, R12',
      "The spec gives no allowed difference between a call's timestamp and the clock, and no rule for nonces,",
      'so checks of an old timestamp or of the same call sent twice are advisory only:',
      `a merchant that accepts them is still certified.${found}`,
      'Protect against replay on your side (a window for the timestamp, nonces remembered).',
    ),
    item(
      'Retries and duplicate webhooks',
      '§6',
      'The spec says nothing of retries or delivery guarantees. Each webhook was sent once (the replay checks aside):',
      'whether your endpoint processes a webhook delivered more than once only once (idempotency), and what a retry',
      'after a timeout does to your orders, was not checked.',
    ),
    item(
      'What the notify endpoint answers',
      '§5.5, §6, R16',
      'The spec shows no status or body a webhook must get back. This certification took acceptance to mean',
      `${acceptanceWords('notify', r)} at the notify endpoint and`,
      `${acceptanceWords('return', r)} at the return endpoint, as it was told;`,
      "the gateway's own rule may differ.",
    ),
    item(
      'TLS, certificates and reachability',
      '§5.5, §5.6, R10, R11',
      `The kit called the URLs it was given${movedNote}.`,
      'Whether the registered URLs resolve, serve a valid TLS certificate and are reachable from the gateway through',
      'your proxies and firewalls was not checked.',
    ),
    item(
      'Your order processing',
      '§2.5, §3, §6',
      'The payments sent were made up by the kit. Whether you match a payment to its order, check its amount and',
      'currency, and move the order to the right state (and only once) was not checked; the spec does not show the',
      "webhook's event kinds or every field of its payload.",
    ),
    item(
      'Everything else the spec leaves open',
      '§5.4, §5.7, §8, R9',
      'Your own calls to the gateway and your verification of its responses (pgv2kit run checks those: §5.4, R9),',
      'where the appSecret comes from and how it is kept and rotated, the length and characters of nonces, rate',
      'limits, and any change made to your endpoints after this date.',
    ),
  ];
}

/** A merchant's answer body as the certificate shows it: its first characters as text, and its length. */
export interface BodyShown {
  /** The first {@link BODY_CHARS} characters, as text (never rendered). */
  readonly text: string;
  /** The body's length in UTF-8 bytes, as kept (the kit keeps the first 4096 characters). */
  readonly bytes: number;
  readonly clipped: boolean;
}

/** The most characters of an answer body the certificate shows. */
export const BODY_CHARS = 200;

/** What the certificate says of the answer bodies it shows. */
export const BODY_NOTE = `An answer body is shown as text, cut at ${BODY_CHARS} characters.`;

/**
 * The answer body of a call, as the certificate shows it.
 * @param outcome - the call's outcome
 * @returns the body shown, or undefined when the merchant answered none (or an empty one)
 */
export function bodyShown(outcome: SendOutcome | undefined): BodyShown | undefined {
  if (outcome?.kind !== 'response' || outcome.body === '') return undefined;
  const bytes = Buffer.byteLength(outcome.body);
  const chars = [...outcome.body];
  if (chars.length <= BODY_CHARS) return { text: outcome.body, bytes, clipped: false };
  return { text: chars.slice(0, BODY_CHARS).join(''), bytes, clipped: true };
}

/**
 * A check's reason without the answer body it quotes (the page shows the body beside it, clipped).
 * @param reason - a judgement's reason, e.g. `accepted: status 200, body "<!doctype html>…"; must be refused`
 * @returns e.g. `accepted: status 200; must be refused`
 */
export function withoutBody(reason: string): string {
  return reason.replace(QUOTED_BODY, '');
}

/**
 * A text (a reason, a note) with every answer body it quotes cut to its first characters, so
 * that an HTML page a merchant answered does not fill the line.
 * @param text - the text
 * @param max - the most characters kept of each body
 * @returns the text, e.g. `accepted: status 200, body "<!doctype html><title>Payment received</title><h…"`
 */
export function shortBodies(text: string, max = 40): string {
  return text.replace(QUOTED_BODY, (whole: string, quoted: string) => {
    let body: string;
    try {
      body = JSON.parse(quoted) as string;
    } catch {
      return whole;
    }
    const chars = [...body];
    return chars.length <= max ? whole : `, body ${JSON.stringify(`${chars.slice(0, max).join('')}…`)}`;
  });
}

// --- internal ---

const ORDER: Readonly<Record<CheckResult, number>> = { fail: 0, advisory: 1, pass: 2, 'not-applicable': 3 };

/** `, body "<a JSON string>"` as src/roles/merchant/check.ts writes an answer's body into a reason. */
const QUOTED_BODY = /, body ("(?:[^"\\]|\\.)*")/g;
