/**
 * The text and JSON forms of an {@link Explanation}. Neither ever holds the
 * secret: part 2 is the mask, and the content is shown only as the masked display.
 * @module
 */
import { showBytes } from '../visible-bytes.js';
import type { Explanation, Note, PartView } from './model.js';
import { docDisplayPath, seeDocs } from '../../docs/cite.js';
import { mistakeRef } from '../../docs/refs.js';

const GUTTER = '│';

/**
 * The text form, for a terminal.
 * @param x - the explanation
 * @returns the text, ending in LF
 * @example
 * import { explainSignature } from './model.js';
 * renderExplanation(
 *   explainSignature({ appId, appSecret, method: 'POST', url, body: utf8(body), bodySource: 'file', authorization }),
 * )
 */
export function renderExplanation(x: Explanation): string {
  if (x.verdict === 'refused') {
    return lines([
      ...authorizationHead(x.header.header),
      '',
      `REFUSED: the Authorization header cannot be parsed: ${x.header.message}`,
      'Without its timestamp and nonce (R6) the content cannot be built: ' +
        'pass --timestamp and --nonce instead to see it.',
    ]);
  }
  const out = [
    'Signature content (spec §5.1): seven parts, each followed by LF (shown ⏎).',
    'Read with ⏎ as LF, the text after │ is the content byte for byte, the secret masked.',
    '',
    ...renderParts(x.parts),
    '',
    `content  ${x.contentBytes} bytes`,
    `sign     ${x.sign}  (SHA-256 of the content, lower-case hex, spec §5.2)`,
  ];
  if (x.verdict === 'no-header') {
    if (x.expectedHeader) out.push(`header   Authorization: ${x.expectedHeader}`);
    if (x.notes.length > 0) out.push('', 'Notes', ...x.notes.map(renderNote));
    out.push('', 'No --authorization given: compare the sign above with the one the signer sent.');
    return lines(out);
  }
  const notes = x.notes.filter((n) => n.part !== 'authorization');
  if (notes.length > 0) out.push('', 'Notes', ...notes.map(renderNote));
  const { items, extra } = x.header;
  const c = x.comparison;
  out.push(
    '',
    ...authorizationHead(x.header.header),
    `  appId          ${oneLine(items.appId)}` +
      `${c.appIdMatches ? ' (the same as --app-id)' : ' (NOT the --app-id given)'}`,
    `  timestamp      ${oneLine(items.timestamp)} (part 5, R6)`,
    `  nonce          ${oneLine(items.nonce)} (part 6, R6)`,
    ...Object.entries(extra).map(([name, value]) => `  extra item     ${oneLine(name)}=${oneLine(value)}`),
    `  header sign    ${oneLine(c.headerSign)}`,
    `  computed sign  ${c.computedSign}`,
    ...x.notes.filter((n) => n.part === 'authorization').map(renderNote),
    '',
  );
  if (x.verdict === 'match') {
    out.push(...docsLine(out), "MATCH: the header's sign is the SHA-256 of the content above.");
    return lines(out);
  }
  const why = [
    ...(c.appIdMatches ? [] : ["the header's appId is not --app-id"]),
    ...(!c.sameDigest
      ? ["the header's sign is not the SHA-256 of the content above"]
      : c.signForm === 'upper-hex'
        ? ['the sign is the right digest, but in upper-case hex (R7)']
        : []),
  ];
  out.push(...docsLine(out), `MISMATCH: ${why.join('; ')}.`);
  if (!c.sameDigest && x.mistakes.length > 0) {
    out.push(
      "The header's sign is what a signer gets with " +
        `${x.mistakes.length === 1 ? 'this mistake' : 'any of these mistakes (they give the same content)'}:`,
    );
    out.push(
      ...x.mistakes.map((m) => {
        const page = mistakeRef(m.id);
        return `  - ${m.description} (${m.ref}; ${m.id})${page ? `\n      see ${docDisplayPath(page)}` : ''}`;
      }),
    );
  } else if (!c.sameDigest) {
    out.push(
      "No known mistake reproduces the header's sign: compare each part above, byte by byte, " +
        'with what the signer used (the secret too: its length is shown).',
    );
  }
  return lines(out);
}

/**
 * The JSON form, for programs: the same facts, the content as its masked display only.
 * @param x - the explanation
 * @returns a JSON-serialisable object
 * @example
 * import { explainSignature } from './model.js';
 * JSON.stringify(
 *   explanationJson(
 *     explainSignature({ appId, appSecret, method: 'POST', url, body: utf8(body), bodySource: 'file', authorization }),
 *   ),
 * )
 */
export function explanationJson(x: Explanation): object {
  if (x.verdict === 'refused') {
    return { verdict: x.verdict, authorization: x.header, notes: x.notes };
  }
  return {
    verdict: x.verdict,
    parts: x.parts.map((p) => ({
      index: p.index,
      name: p.name,
      display: p.display,
      bytes: p.bytes,
      ...(p.masked ? { masked: true } : {}),
      ...(p.fromHeader ? { fromHeader: true } : {}),
    })),
    contentDisplay: x.parts.map((p) => `${p.display}\n`).join(''),
    contentBytes: x.contentBytes,
    sign: x.sign,
    ...(x.verdict === 'no-header'
      ? x.expectedHeader !== undefined
        ? { expectedHeader: x.expectedHeader }
        : {}
      : { authorization: x.header, comparison: x.comparison, mistakes: x.mistakes }),
    notes: x.notes,
  };
}

// --- internal ---

function renderParts(parts: readonly PartView[]): string[] {
  const width = Math.max(...parts.map((p) => p.name.length));
  const rows = parts.flatMap((p) =>
    p.lines.map((line, i) => {
      const label = i === 0 ? `${String(p.index).padStart(3)} ${p.name.padEnd(width)}` : ' '.repeat(4 + width);
      return { text: `${label}  ${GUTTER}${line}`, fromHeader: i === p.lines.length - 1 && p.fromHeader };
    }),
  );
  const textWidth = Math.max(...rows.filter((r) => r.fromHeader).map((r) => [...r.text].length));
  return rows.map((r) =>
    r.fromHeader
      ? `${r.text.padEnd(textWidth + r.text.length - [...r.text].length)}   (from the Authorization header, R6)`
      : r.text,
  );
}

function renderNote(n: Note): string {
  return `  - ${n.ref ? `${n.ref}: ` : ''}${n.message}`;
}

function authorizationHead(header: string): string[] {
  return ['Authorization (spec §5.3, parsed as reading R8)', `  header         ${oneLine(header)}`];
}

function lines(out: readonly string[]): string {
  return `${out.join('\n')}\n`;
}

/** The spec sections and readings cited so far, as the shipped files that hold them (one line, then a blank one). */
function docsLine(out: readonly string[]): string[] {
  const see = seeDocs(out.join('\n'), undefined, false);
  return see ? [`Spec and readings: ${see.replace(/^see /, '')}`, ''] : [];
}

function oneLine(text: string): string {
  return showBytes(new TextEncoder().encode(text)).text.replace(/\n/g, '⏎');
}
