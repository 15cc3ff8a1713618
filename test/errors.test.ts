/**
 * One error hierarchy (issue 23): every error class in src/ derives from Pgv2kitError
 * (src/errors.ts), with a stable `code` and an exit class the CLI maps to its exit code. The
 * source is walked, so an error class added later is held to it too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Pgv2kitError } from '../src/errors.js';
import { UsageError } from '../src/cli/command.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { SampleMerchantError } from '../src/cli/merchant-target.js';
import { TargetUnreachableError } from '../src/cli/_reach.js';
import { ClientError } from '../src/client/errors.js';
import { GenerateCheckError } from '../src/generate/_common.js';
import { TargetExistsError } from '../src/generate/write.js';
import { TesteeStartError } from '../src/protocol/start-failure.js';
import { CompareInputError } from '../src/reports/compare.js';
import { ReportFolderLockError } from '../src/reports/lock.js';
import { MergeError } from '../src/reports/merge.js';
import { ReportWriteError } from '../src/reports/write.js';
import { ExpectFailuresError } from '../src/runner/expect-failures.js';
import { SelectionError } from '../src/runner/select.js';
import { ModuleSubjectError } from '../src/subjects/module-subject.js';
import { MultipartError } from '../src/upload/multipart.js';
import { HarError } from '../src/live/har.js';
import { VectorInputError, VectorSchemaError, VectorSetError } from '../src/vectors/errors.js';
import { VectorTargetError } from '../src/vectors/target.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

/** Every class declared in src/ whose name ends in Error, with what it extends. */
const declared = tsFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^(export )?(?:abstract )?class (\w+Error) extends (\w+)/gm)].map((m) => ({
    file: relative(SRC, file),
    exported: m[1] !== undefined,
    name: m[2] as string,
    base: m[3] as string,
  })),
);

describe('one error hierarchy', () => {
  it('no class in src/ extends Error but the base (src/errors.ts)', () => {
    const direct = tsFiles(SRC).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line) => (/\bextends\s+Error\b/.test(line) ? [`${relative(SRC, file)}: ${line.trim()}`] : [])),
    );
    expect(direct).toEqual(['errors.ts: export class Pgv2kitError extends Error {']);
  });

  it('every exported error class of src/ is a Pgv2kitError', async () => {
    const exported = declared.filter((d) => d.exported && d.file !== 'errors.ts');
    expect(exported.length).toBeGreaterThanOrEqual(19);
    for (const d of exported) {
      const mod = (await import(pathToFileURL(join(SRC, d.file)).href)) as Record<string, unknown>;
      const cls = mod[d.name] as { prototype: unknown } | undefined;
      expect(cls, `${d.file} ${d.name}`).toBeTypeOf('function');
      expect(cls?.prototype instanceof Pgv2kitError, `${d.file} ${d.name}`).toBe(true);
    }
    // the private ones too, by what they extend
    for (const d of declared.filter((x) => !x.exported))
      expect(declared.some((x) => x.name === d.base) || d.base === 'Pgv2kitError', `${d.file} ${d.name}`).toBe(true);
  });

  it('each has its stable code, its name and an exit class the CLI maps to 2 or 3', () => {
    const table: Array<[Pgv2kitError, string, string, 'usage' | 'failure']> = [
      [new UsageError('x'), 'UsageError', 'PGV2_CLI_USAGE', 'usage'],
      [new VectorSetError([]), 'VectorSetError', 'PGV2_VECTORS_INVALID', 'usage'],
      [new VectorSchemaError([]), 'VectorSchemaError', 'PGV2_VECTOR_SCHEMA', 'usage'],
      [new VectorInputError([]), 'VectorInputError', 'PGV2_VECTORS_REFUSED', 'usage'],
      [new VectorTargetError('x'), 'VectorTargetError', 'PGV2_VECTOR_TARGET', 'usage'],
      [new SelectionError('x'), 'SelectionError', 'PGV2_SELECTION', 'usage'],
      [new ExpectFailuresError('x'), 'ExpectFailuresError', 'PGV2_EXPECT_FAILURES', 'usage'],
      [new ModuleSubjectError('x'), 'ModuleSubjectError', 'PGV2_MODULE_SUBJECT', 'usage'],
      [new TargetExistsError('x'), 'TargetExistsError', 'PGV2_GENERATE_EXISTS', 'usage'],
      [new CompareInputError('x'), 'CompareInputError', 'PGV2_COMPARE_INPUT', 'usage'],
      [new MergeError('x'), 'MergeError', 'PGV2_MERGE', 'usage'],
      [new ReportWriteError('/r', 'x'), 'ReportWriteError', 'PGV2_REPORT_WRITE', 'usage'],
      [new ReportFolderLockError('/r', 'x'), 'ReportFolderLockError', 'PGV2_REPORT_FOLDER_LOCKED', 'usage'],
      [new TesteeStartError('x'), 'TesteeStartError', 'PGV2_TESTEE_START', 'failure'],
      [
        new TargetUnreachableError('the gateway', 'http://127.0.0.1:9', 'connection refused'),
        'TargetUnreachableError',
        'PGV2_TARGET_UNREACHABLE',
        'failure',
      ],
      [new SampleMerchantError('x'), 'SampleMerchantError', 'PGV2_SAMPLE_MERCHANT', 'failure'],
      [new GenerateCheckError('x'), 'GenerateCheckError', 'PGV2_GENERATE_CHECK', 'failure'],
      [new MultipartError('x'), 'MultipartError', 'PGV2_MULTIPART_MALFORMED', 'failure'],
      [new HarError('x'), 'HarError', 'PGV2_HAR_INVALID', 'usage'],
      [new ClientError('PGV2_CLIENT_TIMEOUT', 'x'), 'ClientError', 'PGV2_CLIENT_TIMEOUT', 'failure'],
    ];
    const exported = declared.filter((d) => d.exported && d.file !== 'errors.ts').map((d) => d.name);
    expect(table.map(([, name]) => name).sort()).toEqual([...new Set(exported)].sort());
    for (const [e, name, code, exit] of table) {
      expect([e instanceof Pgv2kitError, e instanceof Error, e.name, e.code, e.exit], name).toEqual([
        true,
        true,
        name,
        code,
        exit,
      ]);
      expect(e.code).toMatch(/^PGV2_[A-Z_]+$/);
      expect([EXIT.usage, EXIT.failure]).toContain(EXIT[e.exit]);
    }
  });

  it('keeps a cause', () => {
    const cause = new Error('under');
    expect(new MultipartError('x', { cause }).cause).toBe(cause);
    expect(new ReportWriteError('/r', 'x', cause).cause).toBe(cause);
    expect(new Pgv2kitError('x', { cause }).cause).toBe(cause);
  });

  it('a start failure says how it failed, typed (not-ready apart from a protocol error)', () => {
    const failure = {
      kind: 'not-ready' as const,
      reason: 'the testee is not ready: no key',
      command: 'x',
      exitCode: null,
      signal: null,
      killedByKit: true,
      stderrTail: [],
    };
    expect(new TesteeStartError('m', failure).kind).toBe('not-ready');
    expect(new TesteeStartError('m').kind).toBe('exit');
  });
});
