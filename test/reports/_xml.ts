/**
 * A minimal XML 1.0 well-formedness checker and tree builder for the JUnit tests
 * (elements, attributes, text, character and the five predefined entity references;
 * the XML declaration). Throws on anything not well-formed.
 */

export interface XmlElement {
  readonly name: string;
  readonly attrs: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/;
const ALLOWED = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Parses an XML document.
 * @param xml - the document
 * @returns the root element
 * @throws {Error} when the document is not well-formed
 */
export function parseXml(xml: string): XmlElement {
  if (!ALLOWED.test(xml)) throw new Error('a character XML 1.0 forbids');
  let i = 0;
  const fail = (why: string): never => {
    throw new Error(`${why} at ${i}: ${JSON.stringify(xml.slice(i, i + 40))}`);
  };
  const decode = (raw: string, attr: boolean): string => {
    if (raw.includes('<')) fail('raw < in text or attribute');
    let out = raw.replace(/&(#x[0-9A-Fa-f]+|#[0-9]+|[A-Za-z]+);|&/g, (m, ref: string | undefined) => {
      if (!ref) return fail('raw &');
      if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
      if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
      return ENTITIES[ref] ?? fail(`unknown entity ${m}`);
    });
    if (attr) out = out.replace(/[\t\n]/g, ' ');
    return out;
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    i = end + 2;
  }
  const skipSpace = (): void => {
    while (i < xml.length && /\s/.test(xml[i] ?? '')) i++;
  };
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  skipSpace();
  while (i < xml.length) {
    if (xml.startsWith('</', i)) {
      i += 2;
      const name = NAME.exec(xml.slice(i))?.[0] ?? fail('end tag name');
      i += name.length;
      skipSpace();
      if (xml[i] !== '>') fail('end tag');
      i++;
      const open = stack.pop() ?? fail('end tag without start');
      if (open.name !== name) fail(`</${name}> closes <${open.name}>`);
      if (stack.length === 0) {
        skipSpace();
        if (i < xml.length) fail('content after the root element');
      }
      continue;
    }
    if (xml[i] === '<') {
      i++;
      const name = NAME.exec(xml.slice(i))?.[0] ?? fail('tag name');
      i += name.length;
      const el: XmlElement = { name, attrs: {}, children: [], text: '' };
      for (;;) {
        const before = i;
        skipSpace();
        if (xml.startsWith('/>', i) || xml[i] === '>') break;
        if (i === before) fail('no space before attribute');
        const attr = NAME.exec(xml.slice(i))?.[0] ?? fail('attribute name');
        i += attr.length;
        if (xml[i] !== '=') fail('attribute without =');
        i++;
        const q = xml[i];
        if (q !== '"' && q !== "'") fail('unquoted attribute');
        const end = xml.indexOf(q as string, i + 1);
        if (end < 0) fail('unterminated attribute');
        if (attr in el.attrs) fail(`duplicate attribute ${attr}`);
        el.attrs[attr] = decode(xml.slice(i + 1, end), true);
        i = end + 1;
      }
      const parent = stack[stack.length - 1];
      if (parent) parent.children.push(el);
      else if (root) fail('second root element');
      else root = el;
      if (xml.startsWith('/>', i)) {
        i += 2;
        if (stack.length === 0) {
          skipSpace();
          if (i < xml.length) fail('content after the root element');
        }
      } else {
        i++;
        stack.push(el);
      }
      continue;
    }
    const next = xml.indexOf('<', i);
    const raw = xml.slice(i, next < 0 ? xml.length : next);
    const top = stack[stack.length - 1] ?? fail('text outside the root element');
    if (raw.includes(']]>')) fail(']]> in text');
    top.text += decode(raw, false);
    i = next < 0 ? xml.length : next;
  }
  if (stack.length > 0) fail(`unclosed <${stack[stack.length - 1]?.name}>`);
  return root ?? fail('no root element');
}

/**
 * Every element of a tree with a given name, depth first.
 * @param el - the root
 * @param name - the element name
 * @returns the elements
 */
export function findAll(el: XmlElement, name: string): XmlElement[] {
  return [...(el.name === name ? [el] : []), ...el.children.flatMap((c) => findAll(c, name))];
}
