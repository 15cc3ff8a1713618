// Writes docs/guide/cli.md, the CLI reference, from the commands' option tables as built in dist/
// (`npm run docs:cli`, which builds first). test/docs/cli-reference.test.ts holds the file equal to
// what src/cli/reference.ts makes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '..', '..');
const { CLI_REFERENCE_PATH, formatCliReference } = await import('../dist/cli/reference.js');
const { COMMANDS } = await import('../dist/cli/registry.js');
writeFileSync(join(root, CLI_REFERENCE_PATH), formatCliReference(COMMANDS));
console.log(`wrote ${CLI_REFERENCE_PATH}`);
