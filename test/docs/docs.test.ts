/**
 * The shipped documentation: docs/gateway-spec.md and docs/readings.md are the shared
 * spec byte for byte; every relative link of the kit's Markdown resolves to a file (and
 * to a heading, GitHub-style, where it names one); every known mistake and failure kind
 * has its page, every page its id, and the index links every page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/docs/refs.js';
import { failureKinds, mistakeIds } from './_catalogue.js';

const ROOT = PACKAGE_ROOT;
const SHARED_SPEC = resolve(ROOT, '..', 'shared', 'spec');
const HAVE_SHARED = existsSync(SHARED_SPEC);

/**
 * Pages written ahead of their catalogue entry (another change adds the entry). An id
 * listed here that the catalogue now has must be removed from the list: the test says so.
 */
const PAGES_AHEAD_OF_CATALOGUE: ReadonlySet<string> = new Set([]);

describe.skipIf(!HAVE_SHARED)(
  `docs/ holds the shared spec byte for byte${HAVE_SHARED ? '' : ` (skipped: ${SHARED_SPEC} does not exist, as in an installed package)`}`,
  () => {
    it.each(['gateway-spec.md', 'readings.md'])('docs/%s equals ../shared/spec/%s', (name) => {
      const shipped = readFileSync(join(ROOT, 'docs', name));
      const shared = readFileSync(join(SHARED_SPEC, name));
      expect(
        shipped.equals(shared),
        `docs/${name} differs from ${join(SHARED_SPEC, name)}: copy it again (cp ../shared/spec/${name} docs/)`,
      ).toBe(true);
    });
  },
);

describe('relative links resolve', () => {
  const files = ['README.md', 'CONTRIBUTING.md', 'vectors/README.md', ...markdownUnder('docs')];

  it('the list of files covers docs/ (mistakes and failures included)', () => {
    expect(files).toContain('docs/README.md');
    expect(files).toContain('docs/mistakes/no-final-lf.md');
    expect(files).toContain('docs/failures/error.md');
  });

  it.each(files)('%s', (file) => {
    const broken: string[] = [];
    for (const { target, line } of links(readFileSync(join(ROOT, file), 'utf8'))) {
      const [path = '', anchor] = target.split('#', 2);
      const to = path === '' ? join(ROOT, file) : resolve(ROOT, dirname(file), decodeURIComponent(path));
      if (!existsSync(to)) {
        broken.push(`line ${line}: ${target} (no such file)`);
        continue;
      }
      if (
        anchor !== undefined &&
        anchor !== '' &&
        to.endsWith('.md') &&
        statSync(to).isFile() &&
        !anchors(readFileSync(to, 'utf8')).has(anchor)
      ) {
        broken.push(`line ${line}: ${target} (no heading #${anchor} in ${relative(ROOT, to)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the link reader finds links, and skips those in code', () => {
    const found = links('a [x](a.md) `[y](b.md)` [z](https://e.x) [w](#h)\n```\n[v](c.md)\n```\n[u](d.md#k "t")');
    expect(found.map((l) => l.target)).toEqual(['a.md', '#h', 'd.md#k']);
  });

  it('anchors are GitHub slugs, duplicates numbered', () => {
    expect([
      ...anchors(
        '## 5.3 Authorization header\n## Check: `pgv2kit run`\n### 2.1 Upload credentials request body (JSON object)\n# A\n# A\n```\n# not a heading\n```',
      ),
    ]).toEqual([
      '53-authorization-header',
      'check-pgv2kit-run',
      '21-upload-credentials-request-body-json-object',
      'a',
      'a-1',
    ]);
  });
});

describe('every known mistake has its page, every page its mistake', () => {
  const ids = mistakeIds();
  const pages = pageIds('docs/mistakes');

  it('the catalogue is read (the tables and the literal ids)', () => {
    expect(ids.get('no-final-lf')).toMatch(/MISTAKES/);
    expect(ids.get('items-by-position')).toMatch(/PARSER_MISTAKES/);
    expect(ids.get('payment-plus-kept')).toMatch(/REDIRECT_MISTAKES/);
    expect(ids.get('file-not-last')).toMatch(/FORM_MISTAKES/);
    expect(ids.get('accepts-duplicate-item')).toMatch(/REFUSALS/);
    expect(ids.get('delivery-url')).toMatch(/literal/);
    expect(ids.get('utf16-length')).toMatch(/literal/);
  });

  it('each id has docs/mistakes/<id>.md', () => {
    const missing = [...ids]
      .filter(([id]) => !pages.has(id))
      .map(([id, from]) => `${id} (from ${from}): write docs/mistakes/${id}.md`);
    expect(missing).toEqual([]);
  });

  it('each page is an id of the catalogue', () => {
    const orphans = [...pages].filter((id) => !ids.has(id) && !PAGES_AHEAD_OF_CATALOGUE.has(id));
    expect(orphans, 'pages with no catalogue id: remove the page, or add the mistake to src/diagnosis').toEqual([]);
  });

  it('no page waits for an id the catalogue already has', () => {
    expect(
      [...PAGES_AHEAD_OF_CATALOGUE].filter((id) => ids.has(id)),
      'in the catalogue now: remove from PAGES_AHEAD_OF_CATALOGUE',
    ).toEqual([]);
  });
});

describe('every failure kind has its page, every page its kind', () => {
  const kinds = failureKinds();
  const pages = pageIds('docs/failures');

  it('each kind has docs/failures/<kind>.md', () => {
    expect([...kinds].filter(([id]) => !pages.has(id)).map(([id, from]) => `${id} (from ${from})`)).toEqual([]);
  });

  it('each page is a kind', () => {
    expect([...pages].filter((id) => !kinds.has(id))).toEqual([]);
  });
});

describe('pages', () => {
  const all = [...pageIds('docs/mistakes')]
    .map((id) => `docs/mistakes/${id}.md`)
    .concat([...pageIds('docs/failures')].map((id) => `docs/failures/${id}.md`));

  it.each(all)('%s has a title with its id, what it means, and how to fix it', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8');
    const id = file.replace(/^.*\/|\.md$/g, '');
    expect(text.split('\n')[0]).toMatch(new RegExp(`^# \`${id}\`: \\S`));
    expect(text).toContain('\n## What it means\n');
    expect(text).toContain('\n## How it usually happens\n');
    expect(text).toContain('\n## How to fix it\n');
  });

  it('docs/README.md links every page', () => {
    const linked = new Set(
      links(readFileSync(join(ROOT, 'docs/README.md'), 'utf8')).map((l) => `docs/${l.target.split('#')[0]}`),
    );
    expect(all.filter((f) => !linked.has(f))).toEqual([]);
  });
});

// --- internal ---

function markdownUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${dir}/${f.split('\\').join('/')}`)
    .sort();
}

function pageIds(dir: string): Set<string> {
  return new Set(
    readdirSync(join(ROOT, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => f.slice(0, -3)),
  );
}

/** Markdown without fenced code blocks (and inline code spans unless `keepCode`), line numbers kept. */
function prose(md: string, keepCode = false): string[] {
  let fenced = false;
  return md.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : keepCode ? line : line.replace(/(`+)[^`]*?\1/g, '');
  });
}

/** The relative link targets of a Markdown text (inline links and images; no URLs with a scheme). */
function links(md: string): Array<{ target: string; line: number }> {
  const out: Array<{ target: string; line: number }> = [];
  prose(md).forEach((text, i) => {
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1] ?? '';
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ target, line: i + 1 });
    }
  });
  return out;
}

/** The heading anchors GitHub gives a Markdown text: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of prose(md, true)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = (m[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
