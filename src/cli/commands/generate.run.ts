/**
 * What `pgv2kit generate` does, loaded only when the command runs (generate.ts declares it:
 * its options and help load without this file's imports).
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  GENERATE_KINDS,
  GENERATOR,
  IdAllocator,
  generateRandom,
  mistakeCases,
  signatureCase,
  type GenerateKind,
  type GeneratedCase,
  type GivenParts,
} from '../../generate/generate.js';
import { writeCases } from '../../generate/write.js';
import { caseCount, caseCounts } from '../../vectors/counts.js';
import { DEFAULT_VECTORS_DIR, VectorSetError } from '../../vectors/load.js';
import { takenIds } from '../../vectors/target.js';
import { kitVersion } from '../../version.js';
import { readBytes, resolvePath } from '../_files.js';
import { checkedTarget, madeLine, problemsText, vectorFileTarget } from '../_vector-target.js';
import { UsageError, type CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { APP_SECRET_ENV } from '../../env.js';
import type { generateOptions } from './generate.js';
import { vectorLimitsOf } from '../vector-limit-options.js';

/**
 * Runs `pgv2kit generate`.
 * @param context - the parsed options and the io
 * @returns the exit code
 */
export async function runGenerate({ values, io }: CommandContext<typeof generateOptions>): Promise<number> {
  // --area is --kind's older name
  if (values.kind !== undefined && values.area !== undefined)
    throw new UsageError('give --kind once (--area is its older name)');
  const kindText = values.kind ?? values.area;
  const random = values.seed !== undefined || values.count !== undefined || kindText !== undefined;
  const partsGiven = [
    'app-id',
    'secret',
    'method',
    'url',
    'timestamp',
    'nonce',
    'body-file',
    'body',
    'with-mistakes',
  ].some((k) => values[k as keyof typeof values] !== undefined);
  // the parts with random mode's options, --out with --dir, --append without --out: refused by generate.ts's table
  if (!random && !partsGiven)
    throw new UsageError('give the parts (--app-id, --method, --url, --body-file …) or --seed, --count and --kind');

  const version = kitVersion();
  const date = new Date().toISOString().slice(0, 10);
  let area: GenerateKind;
  let tag: string;
  let build: (taken: Iterable<string>) => GeneratedCase[];
  if (random) {
    if (values.seed === undefined || values.count === undefined || kindText === undefined)
      throw new UsageError('random mode needs --seed, --count and --kind');
    const seed = integer(values.seed, '--seed', 0, 0xffffffff);
    const count = integer(values.count, '--count', 1, 10000);
    if (!(GENERATE_KINDS as readonly string[]).includes(kindText))
      throw new UsageError(`--kind must be one of ${GENERATE_KINDS.join(', ')}`);
    area = kindText as GenerateKind;
    tag = String(seed);
    build = (taken) => generateRandom({ area, seed, count, takenIds: taken, kitVersion: version, date });
  } else {
    const secret = values.secret ?? io.env[APP_SECRET_ENV];
    for (const k of ['app-id', 'method', 'url'] as const)
      if (values[k] === undefined) throw new UsageError(`--${k} is required`);
    if (secret === undefined || secret === '')
      throw new UsageError(`no secret: give --secret or set ${APP_SECRET_ENV}`);
    const body =
      values['body-file'] !== undefined
        ? readBytes(resolvePath(io.cwd, values['body-file']), `--body-file ${values['body-file']}`)
        : Buffer.from(values.body ?? '', 'utf8');
    const parts: GivenParts = {
      appId: values['app-id']!,
      appSecret: secret,
      method: values.method!,
      url: values.url!,
      timestamp: values.timestamp ?? String(Date.now()),
      nonce: values.nonce ?? randomBytes(16).toString('hex'),
      body,
    };
    area = 'signature';
    // The tag names the parts without the secret.
    tag = createHash('sha256')
      .update(JSON.stringify([parts.appId, parts.method, parts.url, parts.timestamp, parts.nonce]))
      .update(body)
      .digest('hex')
      .slice(0, 10);
    const withMistakes = values['with-mistakes'] === true;
    build = (taken) => {
      const ids = new IdAllocator('signature', tag, taken);
      const provenance = { generator: GENERATOR, kitVersion: version, date };
      const first = signatureCase(
        parts,
        ids.next(),
        provenance,
        'Generated from parts given to pgv2kit generate, signed correctly (5.1, 5.2).',
      );
      return [first, ...(withMistakes ? mistakeCases(parts, () => ids.next(), provenance) : [])];
    };
  }

  // the file: --out, or generated-<tag>.yaml in the area folder of --dir (default the kit's own,
  // where a clone takes a new file and an installed kit none); its folders made when missing
  const dir = resolvePath(io.cwd, values.dir ?? DEFAULT_VECTORS_DIR);
  const { root, file } =
    values.out !== undefined
      ? vectorFileTarget(resolvePath(io.cwd, values.out), [area], '--out')
      : checkedTarget(
          { root: dir, area, file: join(dir, area, `generated-${tag}.yaml`) },
          values.dir !== undefined ? '--dir' : "generate's default folder (the kit's own vectors)",
        );
  const limits = vectorLimitsOf(values, io.env);
  let taken: string[];
  try {
    taken = takenIds(root, { limits });
  } catch (e) {
    throw new UsageError(`cannot load the vector set in ${root}: ${problemsText(e)}`);
  }
  // a case an independent check disagrees with is a GenerateCheckError: one line, exit 3
  const cases: GeneratedCase[] = build(taken);
  try {
    const result = writeCases({
      root,
      limits,
      file,
      area,
      title: `Cases generated by pgv2kit generate (${random ? `seed ${tag}` : 'given parts'})`,
      cases,
      append: values.append === true,
    });
    io.stdout(madeLine(result.made));
    io.stdout(
      `${result.appended ? 'appended' : 'wrote'} ${result.ids.length} ${area} ` +
        `case${result.ids.length === 1 ? '' : 's'} to ${file}\n`,
    );
    for (const id of result.ids) io.stdout(`  ${id}\n`);
    io.stdout(`OK: the vector set in ${root} validates (${caseCount(caseCounts(result.set))})\n`);
    return EXIT.ok;
  } catch (e) {
    // TargetExistsError, VectorTargetError: usage errors (exit 2), as they are
    if (e instanceof VectorSetError) {
      io.stderr(`pgv2kit generate: the written cases did not validate; nothing was kept: ${problemsText(e)}\n`);
      return EXIT.failure;
    }
    throw e;
  }
}

function integer(text: string, name: string, min: number, max: number): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`${name} must be a whole number`);
  const n = Number(text);
  if (n < min || n > max) throw new UsageError(`${name} must be between ${min} and ${max}`);
  return n;
}
