/**
 * The public API by role (issue 11): `pgv2kit/run` does what `pgv2kit run` does, as a library;
 * the role entries export what their users need and not the kit's inner parts. Run against the
 * built package (dist/, what `exports` points to).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  exports: Record<string, { default?: string }>;
};
const entry = async (name: string): Promise<Record<string, unknown>> =>
  import(new URL(`../../${pkg.exports[name]?.default ?? ''}`, import.meta.url).href) as Promise<
    Record<string, unknown>
  >;

describe('the package entries', () => {
  it('offer pgv2kit, pgv2kit/run and one entry per role', () => {
    expect(Object.keys(pkg.exports).sort()).toEqual([
      '.',
      './certify',
      './client',
      './gateway',
      './package.json',
      './run',
    ]);
  });

  it('pgv2kit/run runs the vectors against a subject and writes the reports, as the README example does', async () => {
    const run = await entry('./run');
    const main = await entry('.');
    for (const name of [
      'createReferenceSubject',
      'createTesteeSubject',
      'loadModuleSubject',
      'runConformance',
      'runConformant',
      'writeReports',
      'selectCases',
      'TesteeStartError',
    ])
      expect(typeof run[name], name).toBe('function');
    const set = (main['loadVectorSet'] as () => { cases: unknown[] })();
    const subject = (run['createReferenceSubject'] as () => { close?: () => Promise<void> })();
    const result = (await (run['runConformance'] as (o: object) => Promise<{ totals: { passed: number } }>)({
      set,
      subject,
      target: { kind: 'reference', description: 'api test' },
      selection: { only: ['signature'], skip: [] },
    })) as { totals: { passed: number } };
    expect(result.totals.passed).toBeGreaterThan(20);
    expect((run['runConformant'] as (r: object) => boolean)(result)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-api-'));
    try {
      await (run['writeReports'] as (r: object, o: object) => Promise<unknown>)(result, {
        dir: join(dir, 'r'),
        secrets: [],
      });
      for (const f of run['REPORT_FILES'] as string[]) expect(existsSync(join(dir, 'r', f)), f).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pgv2kit/run runConformance runs what pgv2kit run runs — properties and the client role included — and judges it alike, on a failing adapter', async () => {
    const ROOT = new URL('../../', import.meta.url).pathname;
    const command = `"${process.execPath}" --import tsx test/zoo/protocol-adapter.ts no-final-lf`;
    const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-api-'));
    try {
      // the CLI as a user runs it (its properties: PGV2KIT_PROPERTIES=20, PGV2KIT_SEED=1 from vitest.config.ts)
      const cli = spawnSync(
        process.execPath,
        ['bin/pgv2kit.js', 'run', '--testee', command, '--report-dir', join(dir, 'cli')],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(cli.status, cli.stderr).toBe(1);
      const byCli = JSON.parse(readFileSync(join(dir, 'cli', 'results.json'), 'utf8')) as {
        cases: Array<{ id: string; kind: string; verdict: string }>;
      };
      // the library as the README shows it, told only the properties' seed and inputs the CLI had
      const run = await entry('./run');
      const main = await entry('.');
      const subject = await (run['createTesteeSubject'] as (o: object) => Promise<{ close: () => Promise<void> }>)({
        command,
        cwd: ROOT,
        timeoutMs: 5000,
      });
      let byLibrary: { cases: Array<{ id: string; kind: string; verdict: string }> };
      try {
        byLibrary = await (run['runConformance'] as (o: object) => Promise<typeof byLibrary>)({
          set: (main['loadVectorSet'] as () => unknown)(),
          subject,
          target: { kind: 'testee', description: command },
          properties: { seed: 1, runs: 20 },
        });
        // and by default, told nothing: the properties run (one selected, at the default inputs and a seed it records)
        const alone = await (
          run['runConformance'] as (
            o: object,
          ) => Promise<{ cases: Array<{ kind: string; verdict: string; property?: { seed: number } }> }>
        )({
          set: (main['loadVectorSet'] as () => unknown)(),
          subject,
          target: { kind: 'testee', description: command },
          selection: { only: ['property.lf.sign'], skip: [] },
        });
        expect(alone.cases.length).toBeGreaterThan(0);
        expect(
          alone.cases.every(
            (c) => c.kind === 'property' && c.verdict !== 'skipped' && typeof c.property?.seed === 'number',
          ),
        ).toBe(true);
      } finally {
        await subject.close();
      }
      const verdicts = (r: typeof byLibrary): Record<string, string> =>
        Object.fromEntries(r.cases.map((c) => [c.id, c.verdict]).sort());
      expect(verdicts(byLibrary)).toEqual(verdicts(byCli));
      // not equal by both leaving something out: the CLI ran properties and client-role cases, and failed some
      for (const kind of ['property', 'client', 'signature'])
        expect(
          byCli.cases.some((c) => c.kind === kind),
          kind,
        ).toBe(true);
      expect(byCli.cases.some((c) => c.verdict === 'failed')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it('the role entries leave the inner parts out', async () => {
    const gateway = await entry('./gateway');
    expect(typeof gateway['startGateway']).toBe('function');
    for (const inner of ['signingKey', 'amzDate', 'envelopeBytes', 'authenticateRequest', 'issueUpload', 'presignPost'])
      expect(gateway[inner], inner).toBeUndefined();
    const certify = await entry('./certify');
    expect(typeof certify['runCertification']).toBe('function');
    for (const inner of ['createRng', 'compactJson', 'buildPlan', 'createSender', 'judge'])
      expect(certify[inner], inner).toBeUndefined();
  });
});

describe('TSDoc', () => {
  it('every function, class and constant the public entries export has an @example', () => {
    // the built declarations (what a user's editor shows): they keep every TSDoc comment, and without the
    // bodies they parse in a fraction of the sources' time
    const entries = Object.values(pkg.exports)
      .map((e) => (typeof e === 'object' && e !== null ? (e as { types?: string }).types : undefined))
      .filter((t): t is string => t !== undefined)
      .map((t) => new URL(`../../${t}`, import.meta.url).pathname);
    expect(entries).toHaveLength(5);
    // the exports and their JSDoc only: no default library, no @types (what takes the time), nothing type-checked;
    // a declaration file outside dist/ (node:*'s, a dependency's: 140 files, two thirds of the parsing) is read as
    // empty — the kit's types that name theirs need not resolve, and an export of theirs would have no declaration
    const dist = new URL('../../dist/', import.meta.url).pathname;
    const options: ts.CompilerOptions = {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      noEmit: true,
      noLib: true,
      types: [],
    };
    const host = ts.createCompilerHost(options);
    const read = host.getSourceFile.bind(host);
    host.getSourceFile = (file, ...rest) =>
      file.startsWith(dist) ? read(file, ...rest) : ts.createSourceFile(file, 'export {};', ts.ScriptTarget.ES2022);
    const program = ts.createProgram(entries, options, host);
    const checker = program.getTypeChecker();
    const missing: string[] = [];
    let values = 0;
    for (const e of entries) {
      const sf = program.getSourceFile(e);
      const mod = sf && checker.getSymbolAtLocation(sf);
      expect(mod, e).toBeDefined();
      for (const exported of checker.getExportsOfModule(mod as ts.Symbol)) {
        const sym = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        const decl = sym.declarations?.[0];
        // one the kit re-exports from a dependency: not read here, and its TSDoc not the kit's
        if (!decl) missing.push(`${exported.name} (no declaration in dist/)`);
        if (!decl || (sym.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class | ts.SymbolFlags.Variable)) === 0)
          continue;
        values += 1;
        const node = ts.isVariableDeclaration(decl) ? decl.parent.parent : decl;
        if (!ts.getJSDocTags(node).some((t) => t.tagName.text === 'example'))
          missing.push(`${sym.name} (${decl.getSourceFile().fileName.replace(/.*\/dist\/(.*)\.d\.ts$/, 'src/$1.ts')})`);
      }
    }
    expect(values).toBeGreaterThan(100);
    expect(missing).toEqual([]);
  });
});
