/**
 * Runs printed commands in `sh` with `curl` and `npx` stubbed (issue 25, item 6): a PATH of two stub scripts that
 * write their argv (NUL-separated) and their standard input to files, and nothing else — an injected `touch` is not
 * found, an injected `$(…)` runs builtins only. All the commands of one property run go into one script, one `sh`
 * process; each runs in a subshell by `eval`, so that one command's syntax error does not end the others.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What a command ran: each stubbed program's argv (its name first) and what it read on stdin. */
export interface Ran {
  readonly argv: readonly string[];
  readonly stdin: string;
}

const STUB = `#!/bin/sh
f="$PGV2_ATTACK_OUT/$PGV2_ATTACK_N.$$"
printf '%s\\0' "\${0##*/}" "$@" > "$f.argv"
/bin/cat > "$f.stdin"
`;

/** A folder of stubs, and a way to run commands against them. */
export class StubShell {
  readonly #root = mkdtempSync(join(tmpdir(), 'pgv2kit-attack-'));
  readonly #bin = join(this.#root, 'bin');
  #runs = 0;

  constructor() {
    mkdirSync(this.#bin);
    for (const name of ['curl', 'npx']) {
      writeFileSync(join(this.#bin, name), STUB);
      chmodSync(join(this.#bin, name), 0o755);
    }
  }

  /**
   * Runs commands, each as if pasted alone into sh.
   * @param commands - the commands
   * @returns per command, what its stubs were called with (in no particular order); the files the commands made in
   *   the working folder
   */
  run(commands: readonly string[]): { ran: Ran[][]; made: string[] } {
    const out = join(this.#root, `run-${this.#runs++}`);
    const cwd = join(out, 'cwd');
    mkdirSync(cwd, { recursive: true });
    const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
    const script = commands
      .map((c, i) => `PGV2_ATTACK_N=${i}; export PGV2_ATTACK_N\n( eval ${quote(c)} ) </dev/null\n`)
      .join('');
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
    const files = readdirSync(out);
    const ran = commands.map((_, i) =>
      files
        .filter((f) => f.startsWith(`${i}.`) && f.endsWith('.argv'))
        .map((f) => {
          const argv = readFileSync(join(out, f), 'utf8').split('\0').slice(0, -1);
          const stdin = readFileSync(join(out, f.replace(/\.argv$/, '.stdin')), 'utf8');
          return { argv, stdin };
        }),
    );
    const made = readdirSync(cwd);
    rmSync(out, { recursive: true, force: true });
    return { ran, made };
  }

  /** Removes the stubs' folder. */
  close(): void {
    rmSync(this.#root, { recursive: true, force: true });
  }
}
