/**
 * No line of src/ is over 120 characters (issue 23): prettier wraps code at 120 (.prettierrc.json) but
 * never a string, a template or a comment, so this holds what it cannot — counted in characters, as
 * prettier counts, not bytes.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LIMIT = 120;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : /\.(ts|mjs|js)$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

it(`no line of src/ is over ${LIMIT} characters`, () => {
  const over = sources(join(ROOT, 'src')).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        [...line].length > LIMIT ? [`${relative(ROOT, file)}:${i + 1}: ${[...line].length} characters`] : [],
      ),
  );
  expect(over).toEqual([]);
});
