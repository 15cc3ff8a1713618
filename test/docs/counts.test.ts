/**
 * Every count README.md and the guides (docs/guide/) state is the kit's (issue 20): a number of
 * cases, calls, properties, members, headers, values or failures in their prose is one of
 * {@link COUNTS}, checked against what it counts, or the test names it as unchecked — so a count
 * is either kept true or dropped, never left to go stale as vectors and catalogues grow.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { FUZZ_POOL_SIZE } from '../../src/fuzz/arbitraries.js';
import { FUZZ_WINDOW } from '../../src/fuzz/run.js';
import { PROPERTIES } from '../../src/properties/catalogue.js';
import { STEP_SUMMARY_FAILURES } from '../../src/reports/markdown.js';
import SHARD_SCHEMA_JSON from '../../src/reports/shard.schema.json' with { type: 'json' };
import { liveCases, loadVectorSet } from '../../src/vectors/load.js';
import { NODE_MEMBERS } from '../panel/node-members.js';
import { PYTHON_MEMBERS } from '../panel/python-members.js';

const ROOT = PACKAGE_ROOT;
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs/guide'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/guide/${f}`),
];
const live = liveCases(loadVectorSet());
const ofKind = (kind: string): number => live.filter((c) => c.case.kind === kind).length;

/** A count a page states: the words around it (white space as one space), the number in them, and what it counts. */
interface Count {
  readonly file: string;
  readonly says: RegExp;
  readonly is: () => number;
}

const COUNTS: readonly Count[] = [
  {
    file: 'docs/guide/sdk-in-ci.md',
    says: /the gateway role and the merchant role, (\w+) cases/,
    // the upload address's form check, the gateway role and the merchant role: no testee runs them
    is: () =>
      live.filter(
        (c) =>
          c.case.kind === 'gateway' ||
          c.case.kind === 'merchant' ||
          (c.case as { op?: string }).op === 'upload.formCheck',
      ).length,
  },
  { file: 'docs/guide/sdk-in-ci.md', says: /to (\w+) fast-check properties/, is: () => PROPERTIES.length },
  { file: 'docs/guide/sdk-in-ci.md', says: /`vectors\/client\/` has (\w+) cases/, is: () => ofKind('client') },
  { file: 'docs/guide/gateway.md', says: /`vectors\/gateway\/`, (\w+) cases/, is: () => ofKind('gateway') },
  {
    file: 'docs/guide/merchant-certification.md',
    says: /(\w+) calls, the merchant vectors/,
    is: () => ofKind('merchant'),
  },
  { file: 'docs/guide/fuzzing.md', says: /keeps (\w+) headers in flight/, is: () => 2 * FUZZ_WINDOW },
  { file: 'docs/guide/fuzzing.md', says: /\((\w+) appIds and nonces/, is: () => FUZZ_POOL_SIZE },
  { file: 'docs/guide/ci.md', says: /the first (\w+) failures/, is: () => STEP_SUMMARY_FAILURES },
  {
    file: 'docs/guide/ci.md',
    says: /shards, ([\d,]+) cases and ids per shard/,
    // the published shard schema's limit on a shard's cases
    is: () => SHARD_SCHEMA_JSON.$defs.model.properties.cases.maxItems,
  },
  {
    file: 'docs/guide/README.md',
    says: /`test\/panel\/`, (\w+) members/,
    is: () => NODE_MEMBERS.length + PYTHON_MEMBERS.length,
  },
];

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
];
/** A number followed by what it counts, in prose: what must be one of COUNTS. */
const A_COUNT = new RegExp(
  `\\b(\\d[\\d,]*|${WORDS.join('|')})\\s+(?:[\\w-]+\\s+)?(cases|calls|properties|members|headers|appIds|failures|vectors)\\b`,
  'gi',
);

describe.each(FILES)('%s', (file) => {
  const text = prose(readFileSync(join(ROOT, file), 'utf8'));
  const mine = COUNTS.filter((c) => c.file === file);

  it.each(mine.map((c) => [c.says.source, c] as const))('states %s truly', (_, count) => {
    const m = count.says.exec(text);
    expect(m, `${file} no longer says ${count.says}: update COUNTS`).not.toBeNull();
    const said = m?.[1] ?? '';
    expect(
      /^\d/.test(said) ? Number(said.replace(/,/g, '')) : WORDS.indexOf(said.toLowerCase()),
      `${file}: "${m?.[0]}"`,
    ).toBe(count.is());
  });

  it('states no count that is not checked', () => {
    const checked = mine
      .map((c) => c.says.exec(text))
      .filter((m) => m !== null)
      .map((m) => [m.index, m.index + m[0].length] as const);
    const unchecked = countsIn(text)
      .filter((m) => !checked.some(([from, to]) => m.index >= from && m.index < to))
      .map((m) => m[0]);
    expect(unchecked, 'add each to COUNTS with what it counts, or drop it').toEqual([]);
  });
});

it('finds counts in prose, not in code', () => {
  expect(
    countsIn(prose('We ran 12 signature cases and `83 cases: x`.\n```text\n5 calls\n```\nnine\nmembers')).map(
      (m) => m[0],
    ),
  ).toEqual(['12 signature cases', 'nine members']);
});

// --- internal ---

/** A Markdown text without its fenced blocks, on one line (code spans kept: a count's words may hold one). */
function prose(md: string): string {
  return md.replace(/^\s*(```|~~~)[^\n]*\n[\s\S]*?^\s*\1\s*$/gm, ' ').replace(/\s+/g, ' ');
}

/** The counts of a text outside its code spans (output quoted in code is not a claim). */
function countsIn(text: string): RegExpExecArray[] {
  const code = [...text.matchAll(/(`+)[^`]*?\1/g)].map((m) => [m.index, m.index + m[0].length] as const);
  return [...text.matchAll(A_COUNT)].filter((m) => !code.some(([from, to]) => m.index >= from && m.index < to));
}
