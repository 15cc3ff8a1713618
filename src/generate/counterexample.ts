/**
 * The vector case of a counterexample — a failed property's (`pgv2kit run --save`) or a fuzz
 * finding's (`pgv2kit fuzz --save`): what failed, with the expectation the kit's own rules
 * give it (R8's family for a header; the reference verifier for a message, which must agree
 * with the property's verdict; content and sign checked by an independent computation).
 * @module
 */
import {
  ITEM_NAMES,
  formatAuthorization,
  isItemName,
  parseAuthorization,
  strictItems,
  type AuthorizationItems,
} from '../scheme/authorization.js';
import {
  hasWhiteSpaceAtPlaces,
  headerAnswers,
  headerVerdict,
  NAME_FOLDS,
  type HeaderAnswers,
} from '../scheme/header-answers.js';
import { verifyRequest, verifyResponse, verifyWebhook, type VerifyOutcome } from '../scheme/verify.js';
import type { CounterexampleVector } from '../vectors/counterexample.js';
import type { AuthorizationCase, Provenance } from '../vectors/types.js';
import {
  GENERATED_FLAG,
  GenerateCheckError,
  bodyTraits,
  bytesField,
  checkedSign,
  signatureCase,
  type GeneratedCase,
  type GivenParts,
} from './generate.js';

/** What every case of a counterexample carries besides its data. */
export interface CounterexampleBase {
  readonly id: string;
  readonly comment: string;
  readonly provenance: Provenance;
  /** Flags besides those the data brings (default: {@link GENERATED_FLAG}). */
  readonly flags?: readonly string[];
}

/**
 * The authorization.parse case of a header: the result and expectation are every answer R8
 * allows (must accept with these values, must refuse for this problem, or either).
 * @param header - the header value
 * @param base - id, comment, provenance, flags
 * @param answers - R8's answers, when the header was judged in another form (default: the header's own)
 * @returns the case, schema-valid
 * @example
 * headerParseCase('Bearer x', {
 *   id: 'authorization.fuzz-1',
 *   comment: 'found by fuzz',
 *   provenance: {},
 * }).result // 'invalid'
 */
export function headerParseCase(
  header: string,
  base: CounterexampleBase,
  answers: HeaderAnswers = headerAnswers(header),
): Omit<AuthorizationCase, 'kind'> {
  const verdict = headerVerdict(answers);
  const result = verdict === 'must-accept' ? 'valid' : verdict === 'must-refuse' ? 'invalid' : 'acceptable';
  const refusal = answers.strict.ok ? undefined : answers.strict.problem;
  const problemFlag =
    refusal?.kind === 'duplicate-item' ? ['DuplicateItem'] : refusal?.kind === 'missing-item' ? ['MissingItem'] : [];
  const flags = [
    ...(base.flags ?? [GENERATED_FLAG]),
    ...(verdict === 'either' ? deviationFlags(header) : verdict === 'must-refuse' ? problemFlag : []),
  ];
  const expected =
    verdict === 'must-refuse' && refusal && refusal.kind !== 'not-strict'
      ? { problem: { ...refusal } }
      : verdict === 'must-accept'
        ? { items: { ...answers.accepted[0] } }
        : { answers: answers.accepted.map((a) => ({ ...a })) };
  return {
    id: base.id,
    comment: base.comment,
    op: 'authorization.parse',
    spec: ['5.3'],
    readings: ['R8'],
    flags: unique(flags),
    result,
    inputs: { header },
    expected,
    provenance: base.provenance,
  } as Omit<AuthorizationCase, 'kind'>;
}

/**
 * The case of a property's counterexample, in its area.
 * @param v - the counterexample's data
 * @param base - id, comment, provenance
 * @returns the case, schema-valid
 * @throws {GenerateCheckError} when the reference or the independent computation disagrees with the property (nothing
 * may be written)
 */
export function counterexampleCase(v: CounterexampleVector, base: CounterexampleBase): GeneratedCase {
  if (v.area === 'signature')
    return signatureCase(
      { ...v.parts, body: Buffer.from(v.parts.bodyB64, 'base64') },
      base.id,
      base.provenance,
      base.comment,
    );
  if (v.area === 'authorization')
    return 'header' in v
      ? headerParseCase(v.header, { ...base, flags: [...(base.flags ?? [GENERATED_FLAG]), ...(v.flags ?? [])] })
      : formatCase(v.items, base);
  return verifyCase(v, base);
}

// --- internal ---

/** An authorization.format case: the four values, and the header 5.3 writes for them. */
function formatCase(items: AuthorizationItems, base: CounterexampleBase): GeneratedCase {
  const header = formatAuthorization(items);
  const back = strictItems(header);
  if (!back || ITEM_NAMES.some((n) => back[n] !== items[n]))
    throw new GenerateCheckError(
      `the header written for the counterexample does not parse back to its values (${header}); nothing was written`,
    );
  return {
    id: base.id,
    comment: base.comment,
    op: 'authorization.format',
    spec: ['5.3'],
    readings: ['R8'],
    flags: [...(base.flags ?? [GENERATED_FLAG])],
    result: 'valid',
    inputs: { items: { ...items } },
    expected: { header },
    provenance: base.provenance,
  } as GeneratedCase;
}

const VERIFY_REFS = {
  request: { spec: ['5.1', '5.2', '5.3'], readings: ['R3'] },
  response: { spec: ['5.4'], readings: ['R3', 'R9'] },
  webhook: { spec: ['5.5'], readings: ['R3', 'R10'] },
} as const;

/**
 * A request, response or webhook case: the message as the verifier receives it, accepted as signed or refused because a
 * part changed after signing.
 */
function verifyCase(
  v: Extract<CounterexampleVector, { readonly message: unknown }>,
  base: CounterexampleBase,
): GeneratedCase {
  const m = v.message;
  const body = Buffer.from(m.bodyB64, 'base64');
  const items = strictItems(m.authorization);
  if (!items)
    throw new GenerateCheckError(
      `the counterexample's header is not one 5.3 writes (${m.authorization}); nothing was written`,
    );
  const common = { appId: m.appId, appSecret: m.appSecret, method: m.method, authorization: m.authorization };
  const inputs =
    v.area === 'webhook'
      ? { ...common, notifyUrl: m.url }
      : v.area === 'response'
        ? { ...common, url: m.url, status: 200 }
        : { ...common, url: m.url };
  const outcome: VerifyOutcome =
    v.area === 'webhook'
      ? verifyWebhook({ ...common, notifyUrl: m.url, body })
      : v.area === 'response'
        ? verifyResponse({ ...common, url: m.url, status: 200, body })
        : verifyRequest({ ...common, url: m.url, body });
  if (outcome.valid !== (v.result === 'valid')) {
    const said = outcome.valid ? 'accepts it' : `refuses it (${outcome.problem.kind})`;
    throw new GenerateCheckError(
      `the reference verifier ${said}, but the property says it must be ` +
        `${v.result === 'valid' ? 'accepted' : 'refused'}; nothing was written`,
    );
  }
  // the content a correct verifier builds: the merchant's appId and secret, the message as received, the header's
  // timestamp and nonce
  const parts: GivenParts = {
    appId: m.appId,
    appSecret: m.appSecret,
    method: m.method,
    url: m.url,
    timestamp: items.timestamp,
    nonce: items.nonce,
    body,
  };
  const stopsBefore = !outcome.valid && outcome.problem.kind !== 'sign-mismatch';
  const expected = {
    ...(stopsBefore ? {} : bytesField(checkedSign(parts).content, 'content', 'contentB64')),
    ...(outcome.valid ? {} : { problem: { kind: outcome.problem.kind } }),
  };
  const traits = bodyTraits(parts);
  const changedFlag = v.result === 'valid' ? [] : [v.changed === 'appId' ? 'AppIdMismatch' : 'Tampered'];
  return {
    id: base.id,
    comment: base.comment,
    spec: [...VERIFY_REFS[v.area].spec],
    readings: unique([...VERIFY_REFS[v.area].readings, ...traits.readings]),
    flags: unique([...(base.flags ?? [GENERATED_FLAG]), ...changedFlag, ...traits.flags]),
    result: v.result,
    inputs: { ...inputs, ...bytesField(body, 'body', 'bodyB64') },
    expected,
    provenance: base.provenance,
  } as unknown as GeneratedCase;
}

/** The R8 flags of what a header deviates in: white space, unknown items, scheme case, empty elements, name case. */
function deviationFlags(header: string): string[] {
  const flags = new Set<string>();
  if (hasWhiteSpaceAtPlaces(header)) flags.add('HeaderWhitespace');
  const lenient = parseAuthorization(header);
  if (lenient.ok && lenient.tolerated.includes('extra-item')) flags.add('HeaderExtraItem');
  if (!header.trimStart().startsWith('V2_SHA256')) flags.add('SchemeCase');
  const elements = header
    .trim()
    .replace(/^\S+\s+/, '')
    .split(',');
  if (elements.some((e) => e.trim() === '')) flags.add('EmptyListElement');
  const names = elements.flatMap((e) => (e.includes('=') ? [e.slice(0, e.indexOf('=')).trim()] : []));
  if (
    names.some(
      (n) => !isItemName(n) && Object.values(NAME_FOLDS).some((f) => ITEM_NAMES.some((i) => f.key(i) === f.key(n))),
    )
  )
    flags.add('ItemNameCase');
  return [...flags];
}

function unique(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}
