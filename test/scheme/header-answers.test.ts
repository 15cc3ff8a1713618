/**
 * Reading R8's family of parsers (src/scheme/header-answers.ts): every answer a parser may
 * give. Expected answers are written by hand from R8's text, and compared on every vector
 * header and on generated headers with an independent model of the family (_r8-family.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  hasWhiteSpaceAtPlaces,
  headerAnswers,
  headerVerdict,
  judgeHeader,
  judgeParserAnswer,
  NAME_FOLDS,
  parserAnswer,
  TRIM_SETS,
  type ParserAnswer,
} from '../../src/scheme/header-answers.js';
import { parseAuthorization, strictItems } from '../../src/scheme/authorization.js';
import { fuzzHeaderArb, fuzzHeaderText } from '../../src/fuzz/arbitraries.js';
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { caseAnswers } from '../../src/checks/authorization.js';
import { FAMILY_FOLDS, FAMILY_SETS, familyAnswers } from './_r8-family.js';

const S = 'ab'.repeat(32);
const H = (rest = `appId=a,sign=${S},timestamp=1,nonce=n`, scheme = 'V2_SHA256 '): string => `${scheme}${rest}`;
const items = (o: Partial<Record<'appId' | 'sign' | 'timestamp' | 'nonce', string>> = {}) => ({
  appId: 'a',
  sign: S,
  timestamp: '1',
  nonce: 'n',
  ...o,
});
const sorted = (list: readonly object[]): string[] =>
  list.map((x) => JSON.stringify(x, ['appId', 'sign', 'timestamp', 'nonce'])).sort();

describe('headerAnswers: R8 written out by hand', () => {
  it.each([
    ['strict header, items in another order', H(`nonce=n,timestamp=1,sign=${S},appId=a`), false, [items()]],
    [
      'white space inside a value is always kept',
      H(`appId=a,sign=${S},timestamp=1,nonce=n 1`),
      false,
      [items({ nonce: 'n 1' })],
    ],
    ['nonce =a: white space before "=" (RFC 9110 BWS)', H(`appId=a,sign=${S},timestamp=1,nonce =n`), true, [items()]],
    [
      'appId= x: kept or trimmed after "="',
      H(`appId= x,sign=${S},timestamp=1,nonce=n`),
      true,
      [items({ appId: ' x' }), items({ appId: 'x' })],
    ],
    [
      'appId=x<NBSP>: JS/Python trim it, OWS/Java keep it',
      H(`appId=x\u00a0,sign=${S},timestamp=1,nonce=n`),
      true,
      [items({ appId: 'x\u00a0' }), items({ appId: 'x' })],
    ],
    [
      'a space after a comma: trimmed, or an unknown " sign" and sign missing',
      H(`appId=a, sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    ['a duplicate appearing only after trimming', H(`appId=a, appId=b,sign=${S},timestamp=1,nonce=n`), true, [items()]],
    ['an unknown item with an empty name', H(`appId=a,sign=${S},timestamp=1,nonce=n,=x`), true, [items()]],
    ['an unknown item with an empty value', H(`appId=a,sign=${S},timestamp=1,nonce=n,v=`), true, [items()]],
    ['scheme in lower case', H(undefined, 'v2_sha256 '), true, [items()]],
    ['a tab instead of the space after the scheme', H(undefined, 'V2_SHA256\t'), true, [items()]],
    ['white space around the whole header', ` ${H()}\t`, true, [items()]],
    [
      'nonce of one space: kept, or empty after trimming (refused)',
      H(`appId=a,sign=${S},timestamp=1,nonce= `),
      true,
      [items({ nonce: ' ' })],
    ],
    ['another scheme', H(undefined, 'V1_SHA256 '), true, []],
    ['no separator after the scheme', H(undefined, 'V2_SHA256'), true, []],
    ['an item without "="', H(`appId=a,sign=${S},timestamp=1,nonce=n,x`), true, []],
    ['the same item twice', H(`appId=a,sign=${S},timestamp=1,nonce=n,nonce=n`), true, []],
    ['an empty value', H(`appId=,sign=${S},timestamp=1,nonce=n`), true, []],
    ['an item missing', H(`appId=a,sign=${S},timestamp=1`), true, []],
    // (d) empty list elements: ignored, or refused as the strict parser does
    [
      'a comma after the last item: ignored (Java split) or refused',
      H(`appId=a,sign=${S},timestamp=1,nonce=n,`),
      true,
      [items()],
    ],
    ['two commas between items', H(`appId=a,,sign=${S},timestamp=1,nonce=n`), true, [items()]],
    ['a comma before the first item', H(`,appId=a,sign=${S},timestamp=1,nonce=n`), true, [items()]],
    [
      'an element of white space only: empty once trimmed',
      H(`appId=a, ,sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    ['an element of text without "=" is never empty', H(`appId=a,x,sign=${S},timestamp=1,nonce=n,`), true, []],
    ['only commas after the scheme', H(',,'), true, []],
    ['empty elements do not make up for a missing item', H(`appId=a,sign=${S},timestamp=1,,`), true, []],
    // (e) item names without regard to case: read as the item, or as an unknown one
    [
      'AppId=: the appId when folding; unknown, so appId missing, when not',
      H(`AppId=a,sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    ['NONCE=: likewise', H(`appId=a,sign=${S},timestamp=1,NONCE=n`), true, [items()]],
    [
      'appid= beside appId=: a duplicate once folded (refused); unknown and ignored when not',
      H(`appid=x,appId=a,sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    [
      'Nonce= beside nonce=, the other way round: the same',
      H(`appId=a,sign=${S},timestamp=1,nonce=n,Nonce=m`),
      true,
      [items()],
    ],
    [
      'Sign= and SIGN=, no sign=: a duplicate for every fold',
      H(`appId=a,Sign=${S},SIGN=${S},timestamp=1,nonce=n`),
      true,
      [],
    ],
    [
      'a recased name and white space: both leniencies at once',
      H(`appId=a, Sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    [
      'ſign= (LONG S): matches when upper-casing (Java, JS, Go, casefold)',
      H(`appId=a,\u017fign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    [
      'appİd= (DOTTED I): only Java equalsIgnoreCase matches it',
      H(`app\u0130d=a,sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    [
      'appId and appıd: a duplicate for upper-casing and Java, unknown for Go',
      H(`appId=a,app\u0131d=b,sign=${S},timestamp=1,nonce=n`),
      true,
      [items()],
    ],
    [
      'timeﬆamp= (ligature st): only full case mappings match it',
      H(`appId=a,sign=${S},time\ufb06amp=1,nonce=n`),
      true,
      [items()],
    ],
    ['app_id is not appId in any case', H(`app_id=a,sign=${S},timestamp=1,nonce=n`), true, []],
  ])('%s', (_name, header, refusable, accepted) => {
    const a = headerAnswers(header);
    expect(a.refusable).toBe(refusable);
    expect(sorted(a.accepted)).toEqual(sorted(accepted));
  });

  it('names the verdict in one word', () => {
    expect(headerVerdict(headerAnswers(H()))).toBe('must-accept');
    expect(headerVerdict(headerAnswers('Bearer x'))).toBe('must-refuse');
    expect(headerVerdict(headerAnswers(H(undefined, 'v2_sha256 ')))).toBe('either');
  });

  it('judges answers: refusals, allowed values, values no reading gives', () => {
    const either = headerAnswers(H(`appId= x,sign=${S},timestamp=1,nonce=n`));
    expect(judgeParserAnswer(either, { refused: true })).toEqual({ ok: true, choice: 'refused' });
    expect(judgeParserAnswer(either, { items: items({ appId: ' x' }) })).toEqual({ ok: true, choice: 'accepted' });
    const wrong = judgeParserAnswer(either, { items: items({ appId: '  x' }) });
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.reason).toMatch(
      /accepted with appId="  x".*R8 allows no such values: it may be refused, or accepted with/,
    );
    const must = judgeParserAnswer(headerAnswers(H()), { refused: true, reason: 'nope' });
    expect(!must.ok && must.reason).toMatch(/^must be accepted \(R8.*but was refused: nope$/);
    const refuse = judgeParserAnswer(headerAnswers(H(undefined, 'V1_SHA256 ')), { items: items() });
    expect(!refuse.ok && refuse.reason).toMatch(
      /^must be refused \(R8: scheme "V1_SHA256" is not V2_SHA256\), but was accepted$/,
    );
  });

  it('knows the trim sets R8 names, character by character', () => {
    const row = (ch: string) => Object.fromEntries(Object.entries(TRIM_SETS).map(([k, v]) => [k, v.has(ch)]));
    expect(row('\u00a0')).toEqual({ ows: false, ascii: false, js: true, python: true, unicode: true, java: false });
    expect(row('\u001c')).toEqual({ ows: false, ascii: false, js: false, python: true, unicode: false, java: true });
    expect(row('\ufeff')).toEqual({ ows: false, ascii: false, js: true, python: false, unicode: false, java: false });
    expect(row('\u0085')).toEqual({ ows: false, ascii: false, js: false, python: true, unicode: true, java: false });
    expect(row('\u000b')).toEqual({ ows: false, ascii: true, js: true, python: true, unicode: true, java: true });
    // the independent model agrees on every BMP character
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const [k, v] of Object.entries(TRIM_SETS))
        if (v.has(ch) !== FAMILY_SETS[k]?.(ch)) throw new Error(`${k} differs on U+${c.toString(16)}`);
      // the one class the engine scans long headers with is their union
      const some = Object.values(TRIM_SETS).some((v) => v.has(ch));
      if (hasWhiteSpaceAtPlaces(`V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n${ch}`) !== some)
        throw new Error(`the white space class differs on U+${c.toString(16)}`);
    }
  });
});

describe('the name comparisons R8 (e) allows', () => {
  it('fold exactly the characters the hand-written tables list to ASCII letters, on every BMP character', () => {
    for (const [name, fold] of Object.entries(NAME_FOLDS)) {
      const table = FAMILY_FOLDS[name] ?? {};
      for (let c = 0x80; c < 0x10000; c++) {
        const ch = String.fromCharCode(c);
        const key = fold.key(ch);
        const toAscii = /^[a-zA-Z]+$/.test(key) ? key.toLowerCase() : undefined;
        if (toAscii !== table[ch])
          throw new Error(
            `${name} folds U+${c.toString(16)} to ${JSON.stringify(toAscii)}, the table says ${JSON.stringify(table[ch])}`,
          );
      }
      expect(fold.key('AppID')).toBe(fold.key('appid'));
    }
  });
});

describe('headerAnswers agrees with an independent model of the family', () => {
  const set = loadVectorSet();
  const parseCases = liveCases(set).flatMap((l) =>
    l.case.kind === 'authorization' && l.case.op === 'authorization.parse' ? [l.case] : [],
  );

  it('has authorization.parse vectors to compare', () => expect(parseCases.length).toBeGreaterThan(90));

  it.each(parseCases.map((c) => [c.id, c] as const))('%s: the model, the engine and the vector agree', (_id, c) => {
    const engine = headerAnswers(c.inputs.header);
    const model = familyAnswers(c.inputs.header);
    expect(engine.refusable).toBe(model.refusable);
    expect(sorted(engine.accepted)).toEqual(
      model.accepted.map((a) => JSON.stringify(JSON.parse(a), ['appId', 'sign', 'timestamp', 'nonce'])).sort(),
    );
    const declared = caseAnswers(c);
    expect(declared.refusable).toBe(engine.refusable);
    expect(sorted(declared.accepted)).toEqual(sorted(engine.accepted));
  });

  it('on generated headers (white space of two kinds at a time, unknown, duplicate and recased items, empty elements, case)', () => {
    const ws = fc.constantFrom(' ', '\t', '\u00a0', '\u3000', '\u001c', '\ufeff', '\u0085', '\n', '\u0001', '\u2003');
    const header = fc
      .tuple(
        ws,
        ws,
        fc
          .tuple(
            fc.shuffledSubarray(['appId', 'sign', 'timestamp', 'nonce'], { minLength: 4, maxLength: 4 }),
            fc.array(fc.constantFrom('x', '', 'nonce', 'APPID', 'Nonce', ',', ',,'), { maxLength: 2 }),
            fc.nat(4),
          )
          .map(([known, extra, at]) => [...known.slice(0, at), ...extra, ...known.slice(at)]),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 12, maxLength: 12 }),
        fc.constantFrom('V2_SHA256', 'v2_sha256', 'V2_SHA256'),
      )
      .map(([w1, w2, names, r, scheme]) => {
        const pick = (i: number): string => ['', '', '', w1, w2, w1 + w2, '', w1, '', w2][r[i % r.length] ?? 0] ?? '';
        // ',' and ',,' stand for one or two empty list elements (R8 (d)), white space in them or not
        const body = names
          .map((n, i) =>
            n.startsWith(',')
              ? `${pick(i)}${n.slice(1)}`
              : `${pick(i)}${n}${pick(i + 1)}=${pick(i + 2)}v${i}${pick(i + 3)}`,
          )
          .join(',');
        return `${pick(4)}${scheme}${pick(5) === '' ? ' ' : pick(5)}${body}${pick(6)}`;
      });
    fc.assert(
      fc.property(header, (h) => {
        const engine = headerAnswers(h);
        const model = familyAnswers(h);
        expect(engine.refusable).toBe(model.refusable);
        expect(sorted(engine.accepted)).toEqual(
          model.accepted.map((a) => JSON.stringify(JSON.parse(a), ['appId', 'sign', 'timestamp', 'nonce'])).sort(),
        );
      }),
      { numRuns: 45 },
    );
  });
});

describe('the fast judgement fuzzing uses agrees with the full one', () => {
  // fuzz headers, the authorization vectors' headers, and headers built to sit at the strict parser's edges
  const edges = [
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n',
    'V2_SHA256  appId=a,sign=0,timestamp=1,nonce=n',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n\t',
    'V2_SHA256\tappId=a,sign=0,timestamp=1,nonce=n',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=',
    'V2_SHA256 appId=a,sign=0,timestamp=1,=n',
    'V2_SHA256 appId=a,,sign=0,timestamp=1,nonce=n',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n,',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n=,x=y',
    'V2_SHA256 appId=a,sign=0,timestamp=1,appId=b',
    'v2_sha256 appId=a,sign=0,timestamp=1,nonce=n',
    'V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n\u00a0',
    'V2_SHA256 ',
    'V2_SHA256',
    '',
    ' V2_SHA256 appId=a,sign=0,timestamp=1,nonce=n',
  ];
  const vectorHeaders = liveCases(loadVectorSet()).flatMap((l) =>
    l.case.kind === 'authorization' && l.case.op === 'authorization.parse' ? [l.case.inputs.header] : [],
  );
  const headers = [
    ...edges,
    ...vectorHeaders,
    ...fc.sample(fuzzHeaderArb, { seed: 3, numRuns: 3000 }).map(fuzzHeaderText),
  ];

  it('strictItems accepts exactly what the strict parser accepts, with its values', () => {
    let accepted = 0;
    for (const h of headers) {
      const strict = parseAuthorization(h, { strict: true });
      expect(strictItems(h), h).toEqual(strict.ok ? strict.items : undefined);
      if (strict.ok) accepted++;
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it("judgeHeader gives judgeParserAnswer's verdict and message on every header, for every kind of answer", () => {
    const odd: ParserAnswer = { items: { appId: 'z', sign: 'z', timestamp: 'z', nonce: 'z' } };
    let full = 0;
    for (const h of headers) {
      const all = headerAnswers(h);
      const lenient = parseAuthorization(h);
      const answers: ParserAnswer[] = [
        { refused: true, reason: 'no' },
        odd,
        ...all.accepted.map((items) => ({ items })),
        ...(lenient.ok ? [{ items: lenient.items }] : []),
      ];
      for (const a of answers) {
        expect(judgeHeader(h, a), h).toEqual(judgeParserAnswer(all, a));
        if (!hasWhiteSpaceAtPlaces(h) && strictItems(h) === undefined && 'items' in a) full++;
      }
    }
    expect(full).toBeGreaterThan(100); // the full computation was reached, not only the fast paths
  });

  it("reads protocol v1's answer shapes", () => {
    expect(parserAnswer({ rejected: { reason: 'r' } })).toEqual({ refused: true, reason: 'r' });
    expect(parserAnswer({ result: { appId: 'a' } })).toEqual({ items: { appId: 'a' } });
  });
});
