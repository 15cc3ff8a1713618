/**
 * Every `@example` in src/ runs (issue 23, item 7): each is extracted from its TSDoc and executed
 * in its module's scope, so an example that no longer matches the code fails here instead of
 * teaching something false.
 *
 * The convention (CONTRIBUTING.md, "Examples that run"):
 * - An example is the text after `@example` on its line, or the lines below a bare `@example`,
 *   up to the next tag: TypeScript, run as the body of an async function (`await` works). In
 *   scope are the module's exports, the module's own imports and what the package's entries
 *   export (`loadVectorSet`, `utf8`, `createReferenceSubject` …: what a user has), the module's
 *   own names first. `import { … } from 'pgv2kit'` (or `pgv2kit/run`, …, or a path relative to
 *   the module) imports from src/.
 * - `expr // value`: a statement of the example (not one inside a block) with a comment on its
 *   line asserts. When the comment is a JavaScript expression, it is the expected value (evaluated
 *   in the same scope, compared with `toEqual`): `fileExtension('README') // undefined`. In an
 *   expected string `…` stands for any text: `mustAcceptRule(h) // 'RFC 9110 §5.5: …'`. A value
 *   and then prose: `// 2097152 — a larger file is refused` (an em dash between spaces).
 *   `// throws RangeError`: the statement throws an error of that name (or of a subclass). Any
 *   other comment is prose (`// e.g. …`, `// 1 or 2, the same every time`): the statement only
 *   has to run.
 * - A name the example neither defines nor finds in scope comes from FIXTURES below (a reference
 *   gateway, a small run's result, a temporary folder …), each made when first used, once or
 *   (`fresh`) for each example. Keep that table small: an example of the public API should
 *   rather define what it uses. Examples write only under `tmp` and call only loopback.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');

interface Example {
  readonly file: string;
  readonly line: number;
  readonly code: string;
}

/** The .ts files under a folder, sorted. */
function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => (d.isDirectory() ? tsFiles(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : []))
    .sort();
}

/** The @examples of one source file, with the line each starts on. */
function examplesOf(file: string): Example[] {
  const text = readFileSync(file, 'utf8');
  const found: Example[] = [];
  for (const m of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const first = text.slice(0, m.index).split('\n').length;
    const lines = m[0]
      .slice(3, -2)
      .split('\n')
      .map((l, i) => (i === 0 ? l.trim() : l.replace(/^\s*\* ?/, '').replace(/\s+$/, '')));
    let current: { line: number; lines: string[] } | undefined;
    const close = (): void => {
      if (current) found.push({ file, line: current.line, code: current.lines.join('\n').trim() });
      current = undefined;
    };
    lines.forEach((l, i) => {
      const tag = /^@(\w+)\s?(.*)$/.exec(l.trim());
      if (tag) {
        close();
        if (tag[1] === 'example') current = { line: first + i, lines: [tag[2] ?? ''] };
      } else current?.lines.push(l);
    });
    close();
  }
  return found;
}

/** Whether text is one JavaScript expression. */
function isExpression(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    new Function(`return (${text}\n);`);
    return true;
  } catch {
    return false;
  }
}

/**
 * An example's code as the body of an async function: its imports as lookups, and each statement
 * with a `// …` comment on its line as a `__check` of that statement.
 */
function rewrite(code: string): string {
  const imports = code.replace(
    /^[ \t]*import\s+(type\s+)?\{([^}]*)\}\s*from\s*(['"])([^'"]+)\3;?[ \t]*$/gm,
    (_all, type: string | undefined, names: string, _q, spec: string) =>
      type
        ? ''
        : `const { ${names.replace(/\btype\s+\w+\s*,?/g, '').replace(/\bas\b/g, ':')} } = await __import(${JSON.stringify(spec)});`,
  );
  const head = 'async function __example() {\n';
  const full = `${head}${imports}\n}`;
  const sf = ts.createSourceFile('example.ts', full, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const fn = sf.statements[0];
  if (!fn || !ts.isFunctionDeclaration(fn) || !fn.body) return imports;
  // a statement that does not parse stays as written: running it says what is wrong
  let out = '';
  let at = head.length;
  fn.body.statements.forEach((s, i) => {
    const comment = ts
      .getTrailingCommentRanges(full, s.end)
      ?.find((c) => c.kind === ts.SyntaxKind.SingleLineCommentTrivia);
    if (!comment || !ts.isExpressionStatement(s)) return;
    const said = full.slice(comment.pos + 2, comment.end).trim();
    const dash = said.indexOf(' — ');
    const value = isExpression(said)
      ? said
      : dash > 0 && isExpression(said.slice(0, dash))
        ? said.slice(0, dash)
        : undefined;
    const throws = /^throws (\w+)/.exec(said)?.[1];
    const expected = value !== undefined ? `() => (${value}\n)` : 'undefined';
    out += `${full.slice(at, s.getStart())}await __check(${i}, async () => (${s.expression.getText()}), ${expected}, ${JSON.stringify(throws ?? '')});`;
    at = s.end;
  });
  // TypeScript in an example (`as T`, `x!`) is stripped, as vitest strips it from the modules: by esbuild
  // (TypeScript's transpileModule took 1.2 s of CPU for the examples), or, for one esbuild cannot parse, by
  // TypeScript as before (it recovers from some errors: src/errors.ts's `catch (e) { … }`)
  const source = `${head}${out}${full.slice(at)}`;
  let js: string;
  try {
    js = transformSync(source, { loader: 'ts', target: 'es2022' }).code;
  } catch {
    js = ts.transpileModule(source, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    }).outputText;
  }
  return js.slice(js.indexOf('{') + 1, js.lastIndexOf('}'));
}

/** The names a module's source imports as values, with where from. */
function importsOf(file: string): Array<{ spec: string; name: string; local: string }> {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const out: Array<{ spec: string; name: string; local: string }> = [];
  for (const s of sf.statements) {
    if (
      !ts.isImportDeclaration(s) ||
      !s.importClause ||
      s.importClause.isTypeOnly ||
      !ts.isStringLiteral(s.moduleSpecifier)
    )
      continue;
    const spec = s.moduleSpecifier.text;
    if (s.importClause.name) out.push({ spec, name: 'default', local: s.importClause.name.text });
    const b = s.importClause.namedBindings;
    if (b && ts.isNamespaceImport(b)) out.push({ spec, name: '*', local: b.name.text });
    if (b && ts.isNamedImports(b))
      for (const e of b.elements)
        if (!e.isTypeOnly) out.push({ spec, name: (e.propertyName ?? e.name).text, local: e.name.text });
  }
  return out;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, { default?: string }>;
};

/** A module specifier as an example or a module writes it, as a URL vitest imports. */
function resolveSpec(spec: string, from: string): string {
  const entry =
    spec === 'pgv2kit' ? '.' : spec.startsWith('pgv2kit/') ? `./${spec.slice('pgv2kit/'.length)}` : undefined;
  if (entry !== undefined) {
    const dist = pkg.exports[entry]?.default;
    if (!dist) throw new Error(`no package entry ${spec}`);
    return pathToFileURL(join(ROOT, dist.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'))).href;
  }
  if (spec.startsWith('.')) return pathToFileURL(resolve(dirname(from), spec).replace(/\.js$/, '.ts')).href;
  return spec;
}

const load = (url: string): Promise<Record<string, unknown>> =>
  import(/* @vite-ignore */ url) as Promise<Record<string, unknown>>;

/** What the package's entries export (pgv2kit, pgv2kit/run, …): what a user of the kit has. */
let publicApi: Promise<Map<string, unknown>> | undefined;
const publicScope = (): Promise<Map<string, unknown>> =>
  (publicApi ??= (async () => {
    const scope = new Map<string, unknown>();
    for (const entry of Object.keys(pkg.exports).filter((e) => e !== './package.json'))
      for (const [name, value] of Object.entries(
        await load(resolveSpec(entry === '.' ? 'pgv2kit' : `pgv2kit/${entry.slice(2)}`, ROOT)),
      ))
        scope.set(name, value);
    return scope;
  })());

/** A module's scope: the public API, then the module's own imports, then its exports (the later win). */
async function scopeOf(file: string): Promise<Map<string, unknown>> {
  const scope = new Map(await publicScope());
  for (const i of importsOf(file)) {
    const m = await load(resolveSpec(i.spec, file));
    scope.set(i.local, i.name === '*' ? m : m[i.name]);
  }
  for (const [name, value] of Object.entries(await load(pathToFileURL(file).href)))
    if (name !== 'default') scope.set(name, value);
  return scope;
}

// --- fixtures: names examples use but do not define -------------------------------------------

const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** A fixture: what it is (for the reader of an example that uses it) and how it is made. */
interface Fixture {
  readonly what: string;
  readonly make: () => unknown;
  /** Made anew for each example that uses it (it keeps what the example did), else once. */
  readonly fresh?: boolean;
}

const src = (path: string): Promise<Record<string, unknown>> => load(pathToFileURL(join(SRC, path)).href);
type Fn = (...args: unknown[]) => unknown;

const FIXTURES: Record<string, Fixture> = {
  tmp: {
    what: 'a temporary folder of its own for each example, removed after the tests',
    fresh: true,
    make: () => {
      const dir = mkdtempSync(join(tmpdir(), 'pgv2kit-examples-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },
  },
  storage: {
    what: 'a GatewayStorage in a temporary folder, holding one object (storageUri, the bytes %PDF); a new one for each example',
    fresh: true,
    make: async () => {
      const { GatewayStorage } = await src('gateway/storage.ts');
      const storage = (await (GatewayStorage as { open: Fn }).open(join(String(await fixture('tmp')), 'storage'))) as {
        begin: () => { write: (b: Uint8Array) => void; commit: (meta: object) => Promise<unknown> };
        close: () => Promise<void>;
      };
      const incoming = storage.begin();
      incoming.write(Buffer.from('%PDF'));
      await incoming.commit({
        key: 'evidence/a.pdf',
        storageUri: await fixture('storageUri'),
        bucket: 'pgv2kit-evidence',
        uploadNo: 'U1',
        filename: 'a.pdf',
        contentType: 'application/pdf',
        storedAt: 0,
      });
      cleanups.push(() => storage.close());
      return storage;
    },
  },
  storageUri: { what: 'the storageUri of the object in storage', make: () => 's3://pgv2kit-evidence/evidence/a.pdf' },
  appId: { what: "a merchant's appId, 'app_1'", make: () => 'app_1' },
  appSecret: { what: "that merchant's secret, 's3cr3t'", make: () => 's3cr3t' },
  url: { what: 'a request URL, the payment API', make: () => 'https://pg.example.com/pg/v2/payment/create' },
  body: { what: 'a request body', make: () => '{"merchantTradeNo":"M1","amount":"10.00","currency":"USD"}' },
  authorization: {
    what: 'the Authorization header of a POST of body to url, signed for appId and appSecret',
    make: async () => {
      const { sign } = await src('scheme/sign.ts');
      const { formatAuthorization } = await src('scheme/authorization.ts');
      const timestamp = String(Date.now());
      const s = (sign as Fn)({
        appId: 'app_1',
        appSecret: 's3cr3t',
        method: 'POST',
        url: await fixture('url'),
        timestamp,
        nonce: 'n1',
        body: await fixture('body'),
      });
      return (formatAuthorization as Fn)({ appId: 'app_1', sign: s, timestamp, nonce: 'n1' });
    },
  },
  input: {
    what: 'the protocol input of a signature.sign of that request (what a testee is sent)',
    make: async () => ({
      appId: 'app_1',
      appSecret: 's3cr3t',
      method: 'POST',
      url: await fixture('url'),
      timestamp: '1718090123',
      nonce: 'n1',
      bodyB64: Buffer.from(String(await fixture('body'))).toString('base64'),
    }),
  },
  notifyUrl: {
    what: "a merchant's webhook URL on a loopback port nothing listens on",
    make: () => 'http://127.0.0.1:9/pgv2/notify',
  },
  returnUrl: { what: 'its return URL, on the same port', make: () => 'http://127.0.0.1:9/pgv2/return' },
  vectorCase: {
    what: "a function: the kit's case of that id (vectorCase('signature.payment-create'))",
    make: async () => {
      const set = (await fixture('set')) as { cases: Array<{ case: { id: string } }> };
      return (id: string) => set.cases.find((l) => l.case.id === id)?.case;
    },
  },
  set: {
    what: "the kit's vector set (loadVectorSet())",
    make: async () => ((await src('vectors/load.ts'))['loadVectorSet'] as Fn)(),
  },
  subject: {
    what: 'the reference subject (createReferenceSubject())',
    make: async () => ((await src('subjects/reference.ts'))['createReferenceSubject'] as Fn)(),
  },
  gateway: {
    what: 'a reference gateway on loopback, appId and appSecret its merchant, closed after the tests',
    make: async () => {
      const gateway = (await ((await src('gateway/gateway.ts'))['startGateway'] as Fn)({
        merchants: [{ appId: 'app_1', appSecret: 's3cr3t' }],
      })) as { close: () => Promise<void> };
      cleanups.push(() => gateway.close());
      return gateway;
    },
  },
  baseUrl: {
    what: "that gateway's base URL",
    make: async () => ((await fixture('gateway')) as { baseUrl: string }).baseUrl,
  },
  io: {
    what: 'a CLI io that keeps what is written (io.out, io.err), its cwd tmp, no environment; a new one for each example',
    fresh: true,
    make: async () => {
      const io = {
        out: '',
        err: '',
        env: {},
        cwd: await fixture('tmp'),
        stdout: (t: string) => void (io.out += t),
        stderr: (t: string) => void (io.err += t),
      };
      return io;
    },
  },
  run: {
    what: "a run of the reference over the signature cases (runCases, the kit's vectors)",
    make: async () =>
      ((await src('runner/run.ts'))['runCases'] as Fn)({
        set: await fixture('set'),
        subject: await fixture('subject'),
        target: { kind: 'reference', description: 'examples' },
        selection: { only: ['area:signature'], skip: [] },
      }),
  },
  failedRun: {
    what: 'a run over the signature cases of a subject that leaves the LF after the body out of what it signs (the reference otherwise)',
    make: async () => {
      const reference = ((await src('subjects/reference.ts'))['createReferenceSubject'] as Fn)() as {
        call: (op: string, input: unknown, id: string) => Promise<{ result: { contentB64: string } }>;
      };
      const { signContent } = await src('scheme/sign.ts');
      const subject = {
        ...reference,
        call: async (op: string, input: unknown, id: string) => {
          if (op !== 'signature.sign') return reference.call(op, input, id);
          const content = Buffer.from(
            (await reference.call('signature.content', input, id)).result.contentB64,
            'base64',
          );
          return { result: { sign: (signContent as Fn)(content.subarray(0, -1)) } };
        },
      };
      return ((await src('runner/run.ts'))['runCases'] as Fn)({
        set: await fixture('set'),
        subject,
        target: { kind: 'module', description: 'no final LF' },
        selection: { only: ['area:signature'], skip: [] },
      });
    },
  },
  result: {
    what: 'a certification of a merchant nothing answers for (a loopback port nothing listens on): NOT CERTIFIED',
    make: async () =>
      ((await src('roles/merchant/certify/certify.ts'))['runCertification'] as Fn)({
        appId: 'app_1',
        appSecret: 's3cr3t',
        notifyUrl: await fixture('notifyUrl'),
        returnUrl: await fixture('returnUrl'),
        seed: 1,
        timeoutMs: 500,
      }),
  },
};

const made = new Map<string, Promise<unknown>>();
const fixture = (name: string): Promise<unknown> => {
  if (FIXTURES[name]?.fresh) return Promise.resolve(FIXTURES[name].make());
  let p = made.get(name);
  if (!p) made.set(name, (p = Promise.resolve(FIXTURES[name]?.make())));
  return p;
};

// --- the examples ------------------------------------------------------------------------------

const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
  ...args: string[]
) => (...values: unknown[]) => Promise<void>;
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

async function check(
  label: string,
  actual: () => Promise<unknown>,
  expected: (() => unknown) | undefined,
  throws: string,
): Promise<void> {
  let value: unknown;
  let error: unknown;
  let threw = false;
  try {
    value = await actual();
  } catch (e) {
    threw = true;
    error = e;
  }
  if (throws) {
    expect(threw, `${label}: throws ${throws}`).toBe(true);
    const names: string[] = [];
    for (let p = error; p; p = Object.getPrototypeOf(p))
      names.push((p as { name?: string }).name ?? '', (p as object).constructor?.name ?? '');
    expect(names, label).toContain(throws);
    return;
  }
  if (threw) throw error;
  if (!expected) return;
  const want = expected();
  // a string value elided with … stands for any text there
  if (typeof want === 'string' && want.includes('…') && typeof value === 'string' && value !== want) {
    expect(value, label).toMatch(
      new RegExp(
        `^${want
          .split('…')
          .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[\\s\\S]*')}$`,
      ),
    );
    return;
  }
  expect(value, label).toEqual(want);
}

/** Runs one example of a module's TSDoc in that module's scope; rejects when it throws or an assertion fails. */
async function runExample(file: string, line: number, code: string): Promise<void> {
  const scope = await scopeOf(file);
  const body = rewrite(code);
  const words = new Set(body.match(/[A-Za-z_$][\w$]*/g) ?? []);
  for (const f of Object.keys(FIXTURES)) if (words.has(f) && !scope.has(f)) scope.set(f, await fixture(f));
  const names = [...scope.keys()].filter((n) => IDENTIFIER.test(n));
  const run = new AsyncFunction(...names, '__check', '__import', `return (async () => {\n${body}\n})();`);
  const where = `${relative(ROOT, file)}:${line}`;
  await run(
    ...names.map((n) => scope.get(n)),
    (i: number, actual: () => Promise<unknown>, expected: (() => unknown) | undefined, throws: string) =>
      check(`${where} statement ${i + 1}`, actual, expected, throws),
    (spec: string) => load(resolveSpec(spec, file)),
  );
}

const files = tsFiles(SRC);
const all = files.flatMap(examplesOf);

describe('the convention', () => {
  const scenes = join(SRC, 'upload', 'scenes.ts');
  it.each([
    "fileExtension('README') // undefined",
    "fileExtension('scan.pdf') // 'pdf'",
    "fileExtension('scan.pdf') // 'p…'",
    "fileExtension('scan.pdf') // 'pdf' — what follows the last dot",
    "fileExtension('scan.pdf') // what follows the last dot",
    'const e = fileExtension; e(undefined) // throws TypeError',
    "const x = 'a.b';\nfileExtension(x) // 'b'",
  ])('holds %j', async (code) => {
    await runExample(scenes, 0, code);
  });
  it.each([
    "fileExtension('scan.pdf') // 'PDF'",
    "fileExtension('scan.pdf') // 'x…'",
    "fileExtension('scan.pdf') // 'PDF' — what follows the last dot",
    "fileExtension('scan.pdf') // throws TypeError",
    "fileExtension('scan.pdf') // notDefined",
    "notDefined('scan.pdf')",
    'fileExtension((',
  ])('fails %j', async (code) => {
    await expect(runExample(scenes, 0, code)).rejects.toThrow();
  });
});

// concurrently: most of the time goes to waiting (processes starting, loopback calls), and each
// example has its own tmp and io
describe.concurrent('@examples', () => {
  it('are found', () => {
    expect(all.length).toBeGreaterThan(300);
  });

  for (const file of files) {
    const examples = examplesOf(file);
    if (examples.length === 0) continue;
    describe(relative(ROOT, file), () => {
      for (const ex of examples)
        it(`line ${ex.line}: ${ex.code.split('\n')[0]?.slice(0, 80) ?? ''}`, () => runExample(file, ex.line, ex.code));
    });
  }
});
