/**
 * The checks of the report writers' attack property (issue 25, item 6). Each returns findings — `{ kind, detail }`,
 * the kind naming the writer and the check — rather than throwing, so one run reports everything it broke.
 *
 * Oracles, and why:
 * - HTML: the page of the hostile run and the page of its plain twin (attack-data.ts) parsed by parse5 (the WHATWG
 *   parser a browser uses) give the same elements, comments and attributes in the same order: same tag, same
 *   attribute names, same attribute values where the twin's value holds no token (where it holds one, the hostile
 *   value must start as the twin's does up to its first token — the kit sanitises names in values — and a link that
 *   starts with one has no scheme but http(s); `title` and `alt` hold text). Inside a signature content table (whose
 *   rows follow the content's lines) every element must be one the content view writes. A twin rather than an
 *   allow-list: an injected `<p class="comment">` is an element the kit writes too, and only the count shows it.
 * - Markdown: the same twin comparison over markdown-it's tokens (CommonMark, with GFM tables; block and inline,
 *   text and escapes left out: they follow the text), which sees a fence or a quote closed early, raw HTML, a link,
 *   emphasis, a list or a table cell that the data made; and every link's href is http(s), relative or an anchor.
 *   (marked, in node_modules already, is not used: it reads a line that leaves a quoted fence as part of it, where
 *   CommonMark — and GitHub — end the quote and the fence there.)
 * - JUnit: test/reports/_xml.ts's strict XML 1.0 well-formedness checker (characters XML 1.0 forbids, entities, `]]>`
 *   in text, nesting), and the same element tree as the twin's.
 * - Secrets: every variant of every secret, computed here (not by the kit's masker), searched in every output,
 *   ASCII case ignored for the text variants; in HTML and XML also in the decoded text and attribute values.
 * - Terminal: no control character (C0 but tab and LF, DEL, C1, U+2028/2029, bidi controls) and no secret variant.
 */
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import markdownItFactory, { type Token } from 'markdown-it';
import { parseXml, type XmlElement } from '../_xml.js';
import { TOKEN } from './attack-data.js';

/** What a check found. */
export interface Finding {
  /** The writer and the check, e.g. `report.html: element`, `report.md: secret base64`. */
  readonly kind: string;
  readonly detail: string;
}

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

/** An element (or a comment) of a parsed page, in document order. */
interface Item {
  readonly tag: string;
  readonly attrs: ReadonlyArray<readonly [string, string]>;
  readonly inContent: boolean;
}

/** Elements the signature content view writes inside its table (src/reports/_html-content.ts): tag → classes. */
const CONTENT_VIEW: Record<string, readonly string[]> = {
  thead: [],
  tbody: [],
  tr: ['differs'],
  th: [],
  td: ['n', 'part', 'line'],
  code: [],
  span: ['escape', 'lf', 'masked', 'missing'],
  mark: ['first', 'first end'],
  em: [],
};

function items(html: string): Item[] {
  const out: Item[] = [];
  const walk = (node: Node, inContent: boolean): void => {
    if (node.nodeName === '#comment') out.push({ tag: '#comment', attrs: [], inContent });
    if (!('tagName' in node)) {
      if ('childNodes' in node) for (const c of node.childNodes) walk(c, inContent);
      return;
    }
    const el = node as Element;
    const attrs = el.attrs.map((a) => [a.name, a.value] as const);
    out.push({ tag: el.tagName, attrs, inContent });
    const content = inContent || (el.tagName === 'table' && /\bcontent\b/.test(attr(el, 'class') ?? ''));
    const kids = el.tagName === 'template' ? (el as DefaultTreeAdapterMap['template']).content.childNodes : [];
    for (const c of [...el.childNodes, ...kids]) walk(c, content);
  };
  walk(parse(html), false);
  return out;
}

function attr(el: Element, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

/**
 * Whether a hostile attribute value is one the kit may have written where its twin's holds a token: the twin's text
 * before its first token as written (a link's scheme and folder, a class's fixed part), the rest any text — the kit
 * sanitises names in values (`badges/<safe name>.svg`, `#case-<id with _>`) — and, where a token comes first, a link
 * with no scheme but http(s). `title` and `alt` hold text: any value.
 */
function sameValue(name: string, hostile: string, twin: string): boolean {
  // a tooltip's or an image's text: text in a quoted value, masked as any text is (its length may differ)
  if (name === 'title' || name === 'alt') return true;
  const at = twin.search(TOKEN);
  if (at < 0) return hostile === twin;
  if (!hostile.startsWith(twin.slice(0, at))) return false;
  return at > 0 || !['href', 'src', 'action', 'formaction', 'srcset'].includes(name) || safeHref(hostile);
}

const show = (i: Item | undefined): string =>
  i ? `<${i.tag}${i.attrs.map(([n, v]) => ` ${n}=${JSON.stringify(v)}`).join('')}>` : '(nothing)';

/**
 * Compares a hostile page with its plain twin.
 * @param name - the file, for the findings
 * @param hostile - the hostile render
 * @param plain - the twin's render
 * @returns the findings
 */
export function checkHtml(name: string, hostile: string, plain: string): Finding[] {
  const found: Finding[] = [];
  const h = items(hostile);
  const p = items(plain);
  // the content view: an allow-list (its rows follow the content's lines)
  for (const i of h.filter((x) => x.inContent)) {
    const classes = CONTENT_VIEW[i.tag];
    const ok =
      classes !== undefined &&
      i.attrs.every(([n, v]) => (n === 'class' && classes.includes(v)) || n === 'title' || n === 'colspan');
    if (!ok) found.push({ kind: `${name}: element in a content table`, detail: show(i) });
  }
  const ho = h.filter((x) => !x.inContent);
  const po = p.filter((x) => !x.inContent);
  for (let k = 0; k < Math.max(ho.length, po.length); k++) {
    const a = ho[k];
    const b = po[k];
    const same =
      a !== undefined &&
      b !== undefined &&
      a.tag === b.tag &&
      a.attrs.length === b.attrs.length &&
      a.attrs.every(([n, v], j) => {
        const [bn, bv] = b.attrs[j] ?? ['', ''];
        return n === bn && sameValue(n, v, bv);
      });
    if (!same) {
      const kind = a && b && a.tag === b.tag ? 'attribute' : 'element';
      found.push({ kind: `${name}: ${kind}`, detail: `element ${k}: ${show(a)} where the kit wrote ${show(b)}` });
      break;
    }
  }
  return found;
}

/** The decoded texts and attribute values of a page (what a reader sees and copies). */
export function htmlTexts(html: string): string[] {
  const out: string[] = [];
  const walk = (node: Node): void => {
    if (node.nodeName === '#text' || node.nodeName === '#comment') out.push((node as { value?: string }).value ?? '');
    if ('attrs' in node) for (const a of node.attrs) out.push(a.value);
    if ('childNodes' in node) for (const c of node.childNodes) walk(c);
  };
  walk(parse(html));
  return out;
}

/**
 * The text of every element matched, as a browser shows it (its text nodes, joined).
 * @param html - the page
 * @param match - which elements
 * @returns the texts, in document order
 */
export function htmlElementTexts(html: string, match: (el: Element, parentText: string) => boolean): string[] {
  const out: string[] = [];
  const text = (node: Node): string =>
    node.nodeName === '#text'
      ? ((node as { value?: string }).value ?? '')
      : 'childNodes' in node
        ? node.childNodes.map(text).join('')
        : '';
  const walk = (node: Node, parent: Node | undefined): void => {
    if ('tagName' in node && match(node as Element, parent ? text(parent) : '')) out.push(text(node));
    if ('childNodes' in node) for (const c of node.childNodes) walk(c, node);
  };
  walk(parse(html), undefined);
  return out;
}

// --- Markdown ---

/**
 * A CommonMark (+ GFM tables and strikethrough) parser that keeps what a renderer allowing HTML would render: raw
 * HTML, and every link whatever its scheme (markdown-it drops `javascript:` links by default; the check must see
 * them to say so).
 */
const markdownIt = markdownItFactory({ html: true, linkify: false });
markdownIt.validateLink = () => true;

type MdToken = Token;

interface MdItem {
  readonly type: string;
  readonly detail: string;
}

/** Token types that follow the text, not the structure: left out of the comparison. */
const MD_TEXT = new Set(['text', 'text_special', 'inline']);

function mdItems(markdown: string): MdItem[] {
  const out: MdItem[] = [];
  const walk = (tokens: readonly MdToken[]): void => {
    for (const t of tokens) {
      if (!MD_TEXT.has(t.type)) {
        const detail =
          t.type === 'link_open'
            ? (t.attrGet('href') ?? '')
            : t.type === 'image'
              ? (t.attrGet('src') ?? '')
              : t.type === 'html_block' || t.type === 'html_inline'
                ? t.content
                : t.type === 'fence'
                  ? t.info
                  : t.tag;
        out.push({ type: t.type, detail: String(detail) });
      }
      if (t.children) walk(t.children);
    }
  };
  walk(markdownIt.parse(markdown, {}));
  return out;
}

/** Whether a link's href is one a report may write: http(s), relative (no scheme), or an anchor. */
export function safeHref(href: string): boolean {
  return /^https?:/i.test(href) || !/^[a-z][a-z0-9+.-]*:/i.test(href.replace(/[\0-\x20]/g, ''));
}

/**
 * Compares a hostile Markdown file with its plain twin, and checks its links' schemes.
 * @param name - the file, for the findings
 * @param hostile - the hostile render
 * @param plain - the twin's render
 * @returns the findings
 */
export function checkMarkdown(name: string, hostile: string, plain: string): Finding[] {
  const found: Finding[] = [];
  const h = mdItems(hostile);
  const p = mdItems(plain);
  for (const i of h) {
    if ((i.type === 'link_open' || i.type === 'image') && !safeHref(i.detail))
      found.push({ kind: `${name}: link scheme`, detail: `${i.type} to ${JSON.stringify(i.detail)}` });
    if (
      (i.type === 'html_block' || i.type === 'html_inline') &&
      !p.some((x) => x.type === i.type && x.detail === i.detail)
    )
      found.push({ kind: `${name}: raw HTML`, detail: JSON.stringify(i.detail) });
  }
  for (let k = 0; k < Math.max(h.length, p.length); k++) {
    const a = h[k];
    const b = p[k];
    const link = a?.type === b?.type && (a?.type === 'link_open' || a?.type === 'image');
    if (a?.type !== b?.type || (a?.detail !== b?.detail && !link && !TOKEN.test(b?.detail ?? ''))) {
      found.push({
        kind: `${name}: structure`,
        detail: `token ${k}: ${a ? `${a.type} ${JSON.stringify(a.detail)}` : '(nothing)'} where the kit wrote ${
          b ? `${b.type} ${JSON.stringify(b.detail)}` : '(nothing)'
        }`,
      });
      break;
    }
  }
  return found;
}

/**
 * The first code span of each paragraph that starts with a label (`reproduce:`), as a renderer shows it (what a
 * reader copies).
 * @param markdown - the file
 * @param label - the paragraph's start
 * @returns the spans' texts
 */
export function markdownCommands(markdown: string, label: string): string[] {
  const out: string[] = [];
  for (const t of markdownIt.parse(markdown, {})) {
    if (t.type !== 'inline' || !t.content.startsWith(label)) continue;
    const span = t.children?.find((c) => c.type === 'code_inline');
    if (span) out.push(span.content);
  }
  return out;
}

// --- XML ---

function xmlShape(el: XmlElement): string {
  return `<${el.name} ${Object.keys(el.attrs).join(' ')}>${el.children.map(xmlShape).join('')}</${el.name}>`;
}

/** The decoded texts and attribute values of an XML tree. */
export function xmlTexts(el: XmlElement): string[] {
  return [el.text, ...Object.values(el.attrs), ...el.children.flatMap(xmlTexts)];
}

/**
 * Checks junit.xml: well-formed XML 1.0, and the twin's element tree.
 * @param hostile - the hostile render
 * @param plain - the twin's render
 * @returns the findings, and the parsed tree when it parsed
 */
export function checkJunit(hostile: string, plain: string): { found: Finding[]; tree?: XmlElement } {
  let tree: XmlElement;
  try {
    tree = parseXml(hostile);
  } catch (e) {
    return { found: [{ kind: 'junit.xml: not well-formed', detail: (e as Error).message }] };
  }
  const shape = xmlShape(tree);
  const twin = xmlShape(parseXml(plain));
  if (shape !== twin)
    return { found: [{ kind: 'junit.xml: structure', detail: `${shape.slice(0, 300)} ≠ ${twin.slice(0, 300)}` }] };
  return { found: [], tree };
}

// --- secrets ---

/**
 * The forms of a secret that must never be written, computed by the test: the secret (any ASCII case), its
 * JSON-escaped, percent-encoded and HTML-escaped forms (any ASCII case), and its base64 and base64url at each of the
 * three alignments it may have inside a longer base64 text (only the characters its own bytes decide).
 * @param secret - the secret
 * @returns `[name, text, caseless]` triples
 */
export function secretVariants(secret: string): Array<readonly [string, string, boolean]> {
  const out: Array<readonly [string, string, boolean]> = [
    ['exact', secret, true],
    ['json', JSON.stringify(secret).slice(1, -1), true],
    ['percent', encodeURIComponent(secret), true],
    [
      'html',
      secret.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": '#39' }[c]};`),
      true,
    ],
  ];
  const bytes = Buffer.from(secret, 'utf8');
  for (let k = 0; k < 3; k++) {
    const encodings = [0x00, 0xff].flatMap((pre) =>
      [0x00, 0xff].map((post) =>
        Buffer.concat([Buffer.alloc(k, pre), bytes, Buffer.alloc(2, post)]).toString('base64'),
      ),
    );
    const first = encodings[0] ?? '';
    const agree = [...first].map((ch, i) => encodings.every((e) => e[i] === ch));
    const start = agree.indexOf(true);
    let end = start;
    while (end < agree.length && agree[end]) end++;
    const core = first.slice(start, end);
    out.push([`base64 (offset ${k})`, core, false]);
    out.push([`base64url (offset ${k})`, core.replace(/\+/g, '-').replace(/\//g, '_'), false]);
  }
  return out.filter(([, text], i) => out.findIndex(([, t]) => t.toLowerCase() === text.toLowerCase()) === i);
}

/**
 * Looks for every variant of every secret in texts.
 * @param name - the output, for the findings
 * @param texts - what it wrote (the file, and its decoded texts)
 * @param secrets - the secrets
 * @returns the findings
 */
export function checkSecrets(name: string, texts: readonly string[], secrets: readonly string[]): Finding[] {
  const found: Finding[] = [];
  const lower = texts.map((t) => t.toLowerCase());
  for (const s of secrets)
    for (const [variant, text, caseless] of secretVariants(s)) {
      const at = caseless
        ? lower.findIndex((t) => t.includes(text.toLowerCase()))
        : texts.findIndex((t) => t.includes(text));
      if (at >= 0) {
        const where = (caseless ? lower : texts)[at] ?? '';
        const i = where.indexOf(caseless ? text.toLowerCase() : text);
        found.push({
          kind: `${name}: secret ${variant.replace(/ \(offset \d\)/, '')}`,
          detail: `${JSON.stringify(text)} of ${JSON.stringify(s)} in …${JSON.stringify((texts[at] ?? '').slice(Math.max(0, i - 40), i + text.length + 40))}…`,
        });
      }
    }
  return found;
}

/**
 * Control characters a terminal must not get from untrusted text: C0 but tab and LF, DEL, C1, the separators
 * U+2028/2029, and the bidi controls (marks U+061C, U+200E, U+200F; embeddings and overrides U+202A–U+202E; isolates
 * U+2066–U+2069), which reorder what a line shows.
 */
export const TERMINAL_CONTROL = /[\0-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * Checks what the CLI printed.
 * @param text - stdout and stderr
 * @returns the findings
 */
export function checkTerminal(text: string): Finding[] {
  const m = TERMINAL_CONTROL.exec(text);
  return m
    ? [
        {
          kind: 'terminal: control character',
          detail: `U+${(m[0].codePointAt(0) ?? 0).toString(16).padStart(4, '0')} in ${JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 40))}`,
        },
      ]
    : [];
}
