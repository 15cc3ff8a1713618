/**
 * The merchant role's diagnosis (5.5, 5.6; R3, R10, R11). A merchant is a black box: what it
 * did is one bit per call. So a mistake is named by the pattern of its answers, never by one:
 *
 * - a forged call it accepted is diagnosed with the mistake that makes exactly that forgery
 *   verify ({@link diagnoseMerchant}: a body signed re-serialized, a URL with the added
 *   parameters signed as part 4, a payment value decoded once more, a parameter twice…);
 * - but only while the merchant verifies at that endpoint: one that also accepts a call
 *   changed after signing does not verify at all, which explains every forgery it accepted
 *   ({@link merchantPattern} names them all `accepts-sign-mismatch`);
 * - a genuine call it refused is one bit, never diagnosed: it joins (in the triage) a mistake
 *   diagnosed elsewhere in the run whose content for that call differs from the right one
 *   ({@link merchantRefusalCauses}), e.g. a value with `%` refused by a merchant diagnosed as
 *   decoding the payment twice.
 * @module
 */
import type { OpOutcome } from '../../checks/outcome.js';
import { decodeQueryComponent, redirectValues } from '../../scheme/redirect.js';
import type { Json } from '../../subjects/subject.js';
import { RESERIALIZE } from './as-gateway/reserialize.js';
import type { MerchantCase, MerchantInputs } from '../../vectors/types.js';
import { resultOf } from '../../diagnosis/common.js';
import type { Diagnosis } from '../../diagnosis/diagnosis.js';

/**
 * The known mistakes a merchant's acceptance of a forged call reveals: a change the case
 * makes (what is signed, or what is sent after signing) → the mistake under which the
 * forged call verifies, in words.
 */
const FORGERIES: ReadonlyArray<{
  readonly applies: (i: MerchantInputs) => boolean;
  readonly mistake: string;
  readonly said: string;
  readonly ref: string;
}> = [
  {
    applies: (i) => i.sent?.body === 'one-digit' || i.sent?.payment === 'one-digit',
    mistake: 'accepts-sign-mismatch',
    said: 'a call changed after signing: its sign is not compared with the content received',
    ref: '§5.5, §5.6',
  },
  {
    applies: (i) => i.signed?.body !== undefined || i.sent?.body === 'white-space',
    mistake: 'body-reserialized',
    said:
      'a body whose JSON was written otherwise than signed: the sign is computed over the body re-serialized ' +
      '(json_encode(json_decode($raw))), not the bytes received',
    ref: '§5.5, R3',
  },
  {
    applies: (i) => i.sent?.body === 'trailing-lf',
    mistake: 'body-trailing-lf-stripped',
    said: 'a body with an LF added after signing: the body is trimmed (its trailing LF stripped) before verifying',
    ref: '§5.5, R3',
  },
  {
    applies: (i) => i.sent?.body === 'padded',
    mistake: 'body-trimmed',
    said: 'a body with white space added around it after signing: the body is trimmed before verifying',
    ref: '§5.5, R3',
  },
  {
    applies: (i) => i.sent?.body === 'bom',
    mistake: 'body-bom-dropped',
    said: 'a body with a BOM added after signing: the body is decoded as text (the BOM dropped) before verifying',
    ref: '§5.5, R3',
  },
  {
    applies: (i) => i.signed?.url === 'delivery',
    mistake: 'delivery-url',
    said:
      'a webhook signed over the URL it was delivered to: part 4 is the URL the call arrived on, not the ' +
      'notifyUrl as registered',
    ref: '§5.5, R10',
  },
  {
    applies: (i) => i.signed?.url === 'with-added-params' || i.signed?.url === 'with-ids',
    mistake: 'landed-url',
    said:
      'a redirect signed over the URL with parameters the gateway added: part 4 is the URL landed on, not the ' +
      'returnUrl as registered',
    ref: '§5.6, R11',
  },
  {
    applies: (i) => i.signed?.payment === 'decoded-once-more',
    mistake: 'payment-decoded-twice',
    said:
      'a redirect signed over the payment value decoded once more than sent: the value is decoded twice before ' +
      'verifying',
    ref: '§5.6, R11',
  },
  {
    applies: (i) => i.signed?.payment === 'still-encoded' || i.signed?.payment === 're-encoded',
    mistake: 'payment-encoded',
    said: 'a redirect signed over the payment value still encoded: part 7 is not the decoded value',
    ref: '§5.6, R11',
  },
  {
    applies: (i) => i.authorization?.sign?.startsWith('prefix-') === true || i.authorization?.sign === 'extra-digit',
    mistake: 'sign-compared-as-prefix',
    said:
      'the right sign cut short or with a digit added: the sign is compared over the length of one of the two, ' +
      'not as 64 digits',
    ref: '§5.2, R7',
  },
  {
    applies: (i) => i.authorization?.appId === 'other',
    mistake: 'accepts-app-id-mismatch',
    said: "a header whose appId item is another merchant's: the header's appId is not compared with your own",
    ref: '§5.3, R9',
  },
  {
    applies: (i) => i.authorization?.empty !== undefined,
    mistake: 'accepts-empty-value',
    said: 'an Authorization item with an empty value: an empty value is not refused',
    ref: '§5.3, R8',
  },
  {
    applies: (i) => i.sent?.paymentTwice !== undefined || i.sent?.authorizationTwice !== undefined,
    mistake: 'accepts-redirect-parameter',
    said:
      'a redirect with a parameter twice, genuine and forged: a repeated parameter is read once (the first or ' +
      'the last) and not refused',
    ref: '§5.6, R11',
  },
  // the forgeries of the header itself: each names what the parser or the comparison let through
  {
    applies: (i) => i.signed?.appId === 'other',
    mistake: 'accepts-app-id-mismatch',
    said:
      "a call signed by another merchant (its appId and its signature): the header's appId is not compared " +
      'with your own',
    ref: '§5.3, R9',
  },
  {
    applies: (i) => i.authorization?.absent === true,
    mistake: 'accepts-no-authorization',
    said: 'a call without Authorization',
    ref: '§5.3, §5.5',
  },
  {
    applies: (i) => i.authorization?.scheme !== undefined || i.authorization?.form !== undefined,
    mistake: 'accepts-wrong-scheme',
    said: 'an Authorization header whose scheme is not V2_SHA256',
    ref: '§5.3, R8',
  },
  {
    applies: (i) => i.authorization?.missing !== undefined,
    mistake: 'accepts-missing-item',
    said: 'an Authorization header with an item missing',
    ref: '§5.3, R8',
  },
  {
    applies: (i) => i.authorization?.duplicate !== undefined || i.authorization?.twice !== undefined,
    mistake: 'accepts-duplicate-item',
    said:
      'an Authorization header with an item twice, genuine and forged: a repeated item is read once and not ' +
      'refused',
    ref: '§5.3, R8',
  },
  {
    applies: (i) => i.authorization?.sign === 'non-hex',
    mistake: 'accepts-malformed-sign',
    said: 'a sign that is not 64 hex digits',
    ref: '§5.2, R7',
  },
  {
    applies: (i) =>
      i.signed?.secret !== undefined ||
      i.authorization?.refreshed !== undefined ||
      ['one-digit', 'zeros', 'short', 'first-digit', 'last-digit', 'other-content'].includes(
        i.authorization?.sign ?? '',
      ),
    mistake: 'accepts-sign-mismatch',
    said:
      'a call whose sign does not match its content (another secret, a changed digit, an item given a new ' +
      'value after signing): the sign is not compared with the content received',
    ref: '§5.2, §5.5, §5.6',
  },
];

/**
 * The known mistake a merchant's acceptance of a forged call reveals, taken alone (the run's
 * pattern decides whether it stands: {@link merchantPattern}).
 * @param c - the merchant case
 * @param outcome - the operation's outcome (only a failed refusal, i.e. an acceptance, is diagnosed)
 * @returns one diagnosis, or none
 */
export function diagnoseMerchant(c: MerchantCase, outcome: OpOutcome): Diagnosis[] {
  if (outcome.status !== 'fail' || outcome.expected !== 'refuse' || handlingOf(outcome.got) !== 'accepted') return [];
  const found = FORGERIES.find((f) => f.applies(c.inputs));
  return found ? [{ mistake: found.mistake, message: `you accept ${found.said}`, ref: found.ref }] : [];
}

/**
 * The run's pattern over the merchant's answers:
 *
 * - at an endpoint where the merchant accepted a call changed after signing
 *   (`accepts-sign-mismatch`), it does not verify, and that alone explains every forged call it
 *   accepted there: their diagnoses become that one;
 * - at an endpoint where no forged call was accepted, the genuine calls it refused are named
 *   when exactly the calls with one feature were refused and the others accepted
 *   ({@link REFUSAL_PATTERNS}: the items in another order, fields nobody has seen before, every
 *   redirect while the webhooks verify).
 * @param cases - a run's cases (any kinds; only merchant cases are read)
 * @param caseOf - the merchant case of an id (its inputs); without it only the first pattern is read
 * @returns the cases, those changed copied
 * @example merchantPattern(result.run.cases).length
 */
export function merchantPattern<T extends PatternCase>(
  cases: readonly T[],
  caseOf?: (id: string) => MerchantCase | undefined,
): T[] {
  const accepted = acceptancePattern(cases);
  return caseOf ? refusalPattern(accepted, caseOf) : accepted;
}

// --- internal ---

/** What the patterns read of a case. */
type PatternCase = {
  readonly id: string;
  readonly kind: string;
  readonly ops: ReadonlyArray<{
    readonly op: string;
    readonly status: string;
    readonly got: Json;
    readonly diagnosis?: readonly Diagnosis[];
  }>;
};

function acceptancePattern<T extends PatternCase>(cases: readonly T[]): T[] {
  return trimmedPattern(unverifiedPattern(cases));
}

/**
 * A merchant that trims the body (it accepted one padded with spaces) strips a trailing LF with it: one mistake,
 * body-trimmed.
 */
function trimmedPattern<T extends PatternCase>(cases: readonly T[]): T[] {
  const trimmed = cases.flatMap((c) =>
    c.kind === 'merchant' ? c.ops.filter((o) => o.diagnosis?.[0]?.mistake === 'body-trimmed') : [],
  )[0]?.diagnosis?.[0];
  if (!trimmed) return [...cases];
  const lf = (o: PatternCase['ops'][number]) => o.diagnosis?.[0]?.mistake === 'body-trailing-lf-stripped';
  return cases.map((c) =>
    c.kind === 'merchant' && c.ops.some(lf)
      ? {
          ...c,
          ops: c.ops.map((o) =>
            lf(o)
              ? {
                  ...o,
                  diagnosis: [
                    {
                      ...trimmed,
                      message: 'you accept a body with an LF added after signing: the body is trimmed before verifying',
                    },
                  ],
                }
              : o,
          ),
        }
      : c,
  );
}

function unverifiedPattern<T extends PatternCase>(cases: readonly T[]): T[] {
  const unverified = new Set(
    cases
      .filter((c) => c.kind === 'merchant')
      .flatMap((c) => c.ops.filter((o) => o.diagnosis?.[0]?.mistake === 'accepts-sign-mismatch').map((o) => o.op)),
  );
  if (unverified.size === 0) return [...cases];
  return cases.map((c) => {
    if (c.kind !== 'merchant' || !c.ops.some((o) => unverified.has(o.op) && o.diagnosis?.length)) return c;
    const ops = c.ops.map((o) =>
      unverified.has(o.op) && o.diagnosis?.length && o.diagnosis[0]?.mistake !== 'accepts-sign-mismatch'
        ? { ...o, diagnosis: [NOT_VERIFIED] }
        : o,
    );
    return { ...c, ops };
  });
}

/**
 * The mistakes whose content differs from the right one for a genuine call the merchant
 * refused: those that could explain the refusal (the triage joins it to one diagnosed in the run).
 * @param c - the merchant case
 * @param outcome - the operation's outcome
 * @returns mistake ids; empty unless a valid case's call was refused
 */
export function merchantRefusalCauses(c: MerchantCase, outcome: OpOutcome): string[] {
  if (outcome.status !== 'fail' || c.result !== 'valid' || handlingOf(outcome.got) !== 'refused') return [];
  const call = resultOf(outcome.got)?.['call'];
  if (typeof call !== 'object' || call === null || Array.isArray(call)) return [];
  const url = typeof call['url'] === 'string' ? call['url'] : '';
  if (call['method'] === 'GET') {
    const values = redirectValues(url);
    if ('problem' in values) return [];
    const p = values.payment;
    // a landed URL always carries the added parameters: its part 4 differs for every redirect
    return [
      'landed-url',
      ...(new URLSearchParams([['', p]]).toString().slice(1) !== p ? ['payment-encoded'] : []),
      ...(decodeQueryComponent(p) !== p ? ['payment-decoded-twice'] : []),
    ];
  }
  const body = typeof call['body'] === 'string' ? call['body'] : '';
  const signed = call['signed'];
  const registered =
    typeof signed === 'object' && signed !== null && !Array.isArray(signed) ? signed['registered'] : undefined;
  return [
    ...(reserializations(body).some((r) => r !== body) ? ['body-reserialized'] : []),
    ...(body.endsWith('\n') ? ['body-trailing-lf-stripped'] : []),
    ...(body.trim() !== body ? ['body-trimmed'] : []),
    ...(body.startsWith('\uFEFF') ? ['body-bom-dropped'] : []),
    ...(registered !== undefined && registered !== url ? ['delivery-url'] : []),
  ];
}

const NOT_VERIFIED: Diagnosis = {
  mistake: 'accepts-sign-mismatch',
  message:
    'you accept forged calls at this endpoint, even one changed after signing: the sign is not compared with the ' +
    'content received',
  ref: '§5.5, §5.6',
};

function handlingOf(got: Json): string | undefined {
  const h = resultOf(got)?.['handling'];
  return typeof h === 'string' ? h : undefined;
}

/** What the common serializers write of the body parsed (none when it is not JSON). */
function reserializations(body: string): string[] {
  try {
    const value: unknown = JSON.parse(body);
    return Object.values(RESERIALIZE).map((write) => write(value));
  } catch {
    return [];
  }
}

/**
 * The mistakes whose acceptance of a forged call also explains refusals of genuine ones
 * (src/diagnosis/refusal-causes.ts), and a merchant that does not verify.
 */
const REFUSING: ReadonlySet<string> = new Set([
  'accepts-sign-mismatch',
  'body-reserialized',
  'body-trailing-lf-stripped',
  'body-trimmed',
  'body-bom-dropped',
  'delivery-url',
  'landed-url',
  'payment-encoded',
  'payment-decoded-twice',
]);

/**
 * The canonical item order of the spec's example (5.3): a genuine call in any other order tells a parser that reads
 * by position.
 */
const CANONICAL_ORDER = 'appId,sign,timestamp,nonce';

/**
 * The refusals of genuine calls the run names by their pattern: at the endpoint `op`, exactly the
 * genuine calls with `feature` refused (`all`: every genuine call there, while a genuine call at
 * the other endpoint was accepted — the credentials are right).
 */
const REFUSAL_PATTERNS: ReadonlyArray<{
  readonly op: string;
  readonly mistake: string;
  readonly feature: (i: MerchantInputs) => boolean;
  readonly all?: true;
  readonly said: string;
  readonly ref: string;
}> = [
  {
    op: 'merchant.webhook',
    mistake: 'items-by-position',
    feature: (i) => i.authorization?.order !== undefined && i.authorization.order.join(',') !== CANONICAL_ORDER,
    said:
      'you refuse exactly the genuine webhooks whose Authorization items come in another order than appId, ' +
      'sign, timestamp, nonce: the items are read by position, not by name',
    ref: '§5.3, R8',
  },
  {
    op: 'merchant.webhook',
    mistake: 'refuses-unknown-fields',
    feature: (i) => i.payment?.unknownFields === true,
    said:
      'you refuse exactly the genuine webhooks whose payload has fields you do not know: a payload may carry ' +
      'fields nobody has seen before',
    ref: '§5.5, §6, R15',
  },
  {
    op: 'merchant.redirect',
    mistake: 'landed-url',
    feature: () => true,
    all: true,
    said:
      'you refuse every genuine redirect while your webhooks verify: part 4 is not the returnUrl as registered ' +
      '— the URL landed on (with the parameters the gateway added), or a returnUrl configured otherwise than ' +
      'registered',
    ref: '§5.6, R11',
  },
];

function refusalPattern<T extends PatternCase>(
  cases: readonly T[],
  caseOf: (id: string) => MerchantCase | undefined,
): T[] {
  const genuine = (op: string) =>
    cases.flatMap((c) => {
      const mc = c.kind === 'merchant' ? caseOf(c.id) : undefined;
      const o = c.ops.find((x) => x.op === op);
      if (!mc || !o || mc.result !== 'valid' || mc.advisory || (o.status !== 'pass' && o.status !== 'fail')) return [];
      const refused = o.status === 'fail' && handlingOf(o.got) === 'refused';
      return [{ c, inputs: mc.inputs, refused, accepted: o.status === 'pass' }];
    });
  const named = new Map<T, Diagnosis>();
  for (const p of REFUSAL_PATTERNS) {
    // an endpoint where a forged call accepted names a mistake that also refuses genuine calls is read by that mistake
    if (
      cases.some(
        (c) =>
          c.kind === 'merchant' && c.ops.some((o) => o.op === p.op && REFUSING.has(o.diagnosis?.[0]?.mistake ?? '')),
      )
    )
      continue;
    const calls = genuine(p.op);
    if (calls.some((g) => !g.refused && !g.accepted)) continue;
    const featured = calls.filter((g) => p.feature(g.inputs));
    const holds =
      featured.length > 0 && featured.every((g) => g.refused) && calls.every((g) => p.feature(g.inputs) || g.accepted);
    const confirmed = p.all
      ? featured.length >= 2 &&
        genuine(p.op === 'merchant.redirect' ? 'merchant.webhook' : 'merchant.redirect').some((g) => g.accepted)
      : calls.some((g) => !p.feature(g.inputs));
    if (!holds || !confirmed) continue;
    const d = { mistake: p.mistake, message: p.said, ref: p.ref };
    for (const g of featured) if (!named.has(g.c)) named.set(g.c, d);
    // a parser that takes four items by position never sees a fifth: the duplicates it accepted are that mistake too
    if (p.mistake === 'items-by-position') {
      const twice = {
        ...d,
        message:
          'you accept an Authorization header with an item twice, and refuse genuine ones in another order: the ' +
          'items are read by position, not by name',
      };
      for (const c of cases)
        if (c.ops.some((o) => o.op === p.op && o.diagnosis?.[0]?.mistake === 'accepts-duplicate-item'))
          named.set(c, twice);
    }
  }
  if (named.size === 0) return [...cases];
  return cases.map((c) => {
    const d = named.get(c);
    return d ? { ...c, ops: c.ops.map((o) => (o.status === 'fail' ? { ...o, diagnosis: [d] } : o)) } : c;
  });
}
