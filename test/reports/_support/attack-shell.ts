/**
 * Runs printed commands in `sh` with `curl` and `npx` stubbed (issue 25, item 6): shell functions of those names that
 * write their argv (NUL-separated, its length first) and, for `@-`, their standard input to files; PATH is an empty
 * folder, so an injected `touch` is not found and an injected `$(…)` runs builtins only. All the commands of one
 * property run go into one script, one `sh` process (functions, not stub scripts: a fork, not an exec, per call);
 * each runs in a subshell by `eval`, so that one command's syntax error does not end the others, as if pasted alone.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a command ran: each stubbed program's argv (its name first) and what it read on stdin. */
export interface Ran {
  readonly argv: readonly string[];
  readonly stdin: string;
}

const STUBS = ['curl', 'npx']
  .map(
    (name) => `${name}() {
  printf '%s\\0' "$(($# + 1))" ${name} "$@" >> "$PGV2_ATTACK_OUT/$PGV2_ATTACK_N.argv"
  for a; do if [ "$a" = @- ]; then /bin/cat >> "$PGV2_ATTACK_OUT/$PGV2_ATTACK_N.stdin"; fi; done
}
`,
  )
  .join('');

/** A scratch folder, and a way to run commands against the stubs. */
export class StubShell {
  readonly #root = mkdtempSync(join(tmpdir(), 'pgv2kit-attack-'));
  readonly #bin = join(this.#root, 'bin');
  #runs = 0;

  constructor() {
    mkdirSync(this.#bin);
  }

  /**
   * Runs commands, each as if pasted alone into sh.
   * @param commands - the commands
   * @returns per command, what its stubs were called with, in order; the files the commands made in the working
   *   folder
   */
  run(commands: readonly string[]): { ran: Ran[][]; made: string[] } {
    const out = join(this.#root, `run-${this.#runs++}`);
    const cwd = join(out, 'cwd');
    mkdirSync(cwd, { recursive: true });
    const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
    const script =
      STUBS +
      commands.map((c, i) => `PGV2_ATTACK_N=${i}; export PGV2_ATTACK_N\n( eval ${quote(c)} ) </dev/null\n`).join('');
    writeFileSync(join(out, 'script.sh'), script);
    try {
      execFileSync('/bin/sh', [join(out, 'script.sh')], {
        cwd,
        env: { PATH: this.#bin, PGV2_ATTACK_OUT: out },
        stdio: ['ignore', 'ignore', 'ignore'],
        timeout: 20_000,
      });
    } catch {
      // a command's exit status is not what is checked
    }
    const read = (file: string): string | undefined => {
      try {
        return readFileSync(join(out, file), 'utf8');
      } catch {
        return undefined;
      }
    };
    const ran = commands.map((_, i) => {
      const fields = (read(`${i}.argv`) ?? '').split('\0').slice(0, -1);
      const calls: Ran[] = [];
      for (let k = 0; k < fields.length;) {
        const n = Number(fields[k]);
        calls.push({ argv: fields.slice(k + 1, k + 1 + n), stdin: '' });
        k += n + 1;
      }
      const stdin = read(`${i}.stdin`);
      return stdin !== undefined && calls.length === 1 ? [{ ...calls[0], stdin } as Ran] : calls;
    });
    const made = readdirSync(cwd);
    rmSync(out, { recursive: true, force: true });
    return { ran, made };
  }

  /** Removes the scratch folder. */
  close(): void {
    rmSync(this.#root, { recursive: true, force: true });
  }
}
