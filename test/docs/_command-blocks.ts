/**
 * The command blocks of the kit's Markdown, read and run as a reader would type them
 * (test/docs/command-blocks.test.ts; the convention is in CONTRIBUTING.md):
 *
 * - every ```sh block runs, unless the line before its fence is `<!-- not run: <reason> -->`, or
 *   `<!-- runs in <file> -->` (each of its commands is, verbatim, a command of a block of that
 *   file that runs);
 * - a block of any language after `<!-- file: <name> -->` is written to <name> when the reader
 *   reaches it;
 * - one command is one line (or lines joined by a trailing `\`); blank and `#` lines are skipped;
 *   it must exit 0, or N when its trailing comment starts with `exits N`;
 * - a file's blocks run top to bottom in one shell, in a fresh project that installed the kit,
 *   and stop at the first command that exits otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A command of a block: its Markdown line, its text (continuation lines kept), its exit code. */
export interface BlockCommand {
  readonly line: number;
  readonly text: string;
  readonly exits: number;
}

/** A fenced block and what the convention makes of it. */
export type Block =
  | { readonly kind: 'run'; readonly line: number; readonly commands: readonly BlockCommand[] }
  | {
      readonly kind: 'not-run';
      readonly line: number;
      readonly reason: string;
      readonly commands: readonly BlockCommand[];
    }
  | {
      readonly kind: 'runs-in';
      readonly line: number;
      readonly file: string;
      readonly commands: readonly BlockCommand[];
    }
  | { readonly kind: 'file'; readonly line: number; readonly name: string; readonly content: string }
  | { readonly kind: 'other'; readonly line: number; readonly info: string };

/** Languages that are shell under another name: written as `sh`, so that they run. */
const SHELL_ALIASES = new Set(['bash', 'shell', 'console', 'zsh', 'shell-session', 'shellsession']);
const MARKER = /^<!--\s*(not run:\s*(.*?)|runs in\s+(\S+)|file:\s*(\S+))\s*-->$/;

/**
 * Reads the fenced blocks of a Markdown text by the convention above.
 * @param md - the Markdown
 * @returns the blocks in order, and each breach of the convention as `line N: …`
 * @example readBlocks('```sh\nnpx pgv2kit vectors\n```\n').blocks[0]?.kind // 'run'
 */
export function readBlocks(md: string): { blocks: Block[]; problems: string[] } {
  const lines = md.split('\n');
  const blocks: Block[] = [];
  const problems: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i] ?? '');
    const marker = MARKER.exec((lines[i] ?? '').trim());
    if (marker && !/^\s*(`{3,}|~{3,})/.test(lines[i + 1] ?? ''))
      problems.push(`line ${i + 1}: ${marker[0]} is not the line just before a fence`);
    if (!open) continue;
    const [, indent = '', fence = '', info = ''] = open;
    const body: string[] = [];
    let j = i + 1;
    while (
      j < lines.length &&
      !new RegExp(`^\\s*${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`).test(lines[j] ?? '')
    )
      body.push((lines[j++] ?? '').replace(new RegExp(`^ {0,${indent.length}}`), ''));
    const line = i + 1;
    const before = MARKER.exec((lines[i - 1] ?? '').trim());
    i = j;
    if (info === '') {
      problems.push(`line ${line}: a fence without a language (sh for commands, text for output)`);
      continue;
    }
    if (SHELL_ALIASES.has(info))
      problems.push(`line ${line}: a \`${info}\` block: write it as \`sh\`, so that it runs`);
    if (before?.[4] !== undefined) {
      blocks.push({ kind: 'file', line, name: before[4], content: body.map((l) => `${l}\n`).join('') });
      if (!/^[\w.-]+(\/[\w.-]+)*$/.test(before[4]) || before[4].split('/').includes('..'))
        problems.push(`line ${line}: file ${before[4]}: a relative path inside the project`);
      continue;
    }
    if (info !== 'sh') {
      if (before) problems.push(`line ${line}: ${before[0]} before a \`${info}\` block (only sh blocks run)`);
      blocks.push({ kind: 'other', line, info });
      continue;
    }
    const commands = commandsOf(body, line + 1, problems);
    if (before?.[2] !== undefined) {
      if (before[2] === '') problems.push(`line ${line}: "not run:" without a reason`);
      blocks.push({ kind: 'not-run', line, reason: before[2], commands });
    } else if (before?.[3] !== undefined) blocks.push({ kind: 'runs-in', line, file: before[3], commands });
    else blocks.push({ kind: 'run', line, commands });
  }
  return { blocks, problems };
}

/**
 * A command without its trailing comment (a `#` after white space, outside quotes), white space
 * trimmed: what `runs in` compares.
 * @param text - the command
 * @returns the command alone
 * @example withoutComment('npx pgv2kit run   # the main job') // 'npx pgv2kit run'
 */
export function withoutComment(text: string): string {
  let quote = '';
  for (let k = 0; k < text.length; k++) {
    const c = text[k] ?? '';
    if (quote !== '') {
      if (c === quote) quote = '';
      else if (c === '\\' && quote === '"') k++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') k++;
    else if (c === '#' && (k === 0 || /\s/.test(text[k - 1] ?? ''))) return text.slice(0, k).trim();
  }
  return text.trim();
}

/** What the run of one Markdown file's blocks came to: the first command that did not exit as documented. */
export interface BlocksOutcome {
  /** How many commands ran as documented. */
  readonly ran: number;
  /** `<file>:<line>: …` with the command and the tail of its stderr, or undefined when all ran as documented. */
  readonly failure?: string;
}

/**
 * Runs the blocks of one Markdown file, top to bottom in one bash, in `project`: file blocks
 * written, run blocks' commands run one by one, each with its output kept in `logs`; stops at the
 * first command that exits otherwise than documented, or when `timeoutMs` has passed (the whole
 * process group is killed, servers a block started in the background included).
 * @param file - the Markdown file's name, for messages
 * @param blocks - its blocks ({@link readBlocks})
 * @param where - project: the working folder; logs: a folder outside it; env: the environment
 * @returns how many commands ran, and the first failure
 * @example await runBlocks('README.md', readBlocks(md).blocks, { project, logs, env, timeoutMs: 60_000 })
 */
export async function runBlocks(
  file: string,
  blocks: readonly Block[],
  where: { project: string; logs: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<BlocksOutcome> {
  const commands: BlockCommand[] = [];
  const script: string[] = [`cd ${quote(where.project)} || exit 0`];
  for (const block of blocks) {
    if (block.kind === 'file')
      script.push(
        `printf '%s' '${Buffer.from(block.content).toString('base64')}' | base64 -d > ${quote(block.name)} || exit 0`,
      );
    if (block.kind !== 'run') continue;
    for (const c of block.commands) {
      const n = commands.push(c) - 1;
      const log = (ext: string): string => quote(join(where.logs, `${n}.${ext}`));
      script.push(
        `{\n${c.text}\n} > ${log('out')} 2> ${log('err')} < /dev/null`,
        `echo $? > ${log('rc')}`,
        `[ "$(cat ${log('rc')})" = "${c.exits}" ] || exit 0`,
      );
    }
  }
  const timedOut = await bash(script.join('\n'), where.env, where.timeoutMs);
  for (const [n, c] of commands.entries()) {
    const read = (ext: string): string =>
      existsSync(join(where.logs, `${n}.${ext}`)) ? readFileSync(join(where.logs, `${n}.${ext}`), 'utf8') : '';
    const rc = read('rc').trim();
    if (rc === String(c.exits)) continue;
    const what =
      rc === ''
        ? timedOut
          ? `did not finish within ${where.timeoutMs / 1000} s`
          : 'did not run (a file block before it could not be written)'
        : `exited ${rc}, expected ${c.exits}`;
    const tail = (text: string, name: string): string =>
      text.trim() === ''
        ? ''
        : `\n  ${name} (last lines):\n${text
            .trimEnd()
            .split('\n')
            .slice(-12)
            .map((l) => `    ${l}`)
            .join('\n')}`;
    return {
      ran: n,
      failure: `${file}:${c.line}: ${what}: ${c.text}${tail(read('err'), 'stderr')}${read('err').trim() === '' ? tail(read('out'), 'stdout') : ''}`,
    };
  }
  return { ran: commands.length };
}

// --- internal ---

function commandsOf(body: readonly string[], firstLine: number, problems: string[]): BlockCommand[] {
  const out: BlockCommand[] = [];
  for (let k = 0; k < body.length; k++) {
    const start = k;
    const first = body[k] ?? '';
    if (first.trim() === '' || first.trim().startsWith('#')) continue;
    const parts = [first];
    while ((body[k] ?? '').endsWith('\\') && k + 1 < body.length) parts.push(body[++k] ?? '');
    const text = parts.join('\n');
    if (/<<-?\s*['"]?\w/.test(withoutComment(text)))
      problems.push(`line ${firstLine + start}: a heredoc: write the file with a <!-- file: <name> --> block instead`);
    const exits = /(?:^|\s)#\s*exits\s+(\d+)\b/.exec(parts[parts.length - 1] ?? '');
    out.push({ line: firstLine + start, text, exits: exits ? Number(exits[1]) : 0 });
  }
  return out;
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Runs a bash script as the leader of its own process group; kills the group after it, or at the timeout. */
function bash(script: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { env, stdio: 'ignore', detached: true });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', reject);
    child.on('exit', () => {
      clearTimeout(timer);
      killGroup();
      resolve(timedOut);
    });
  });
}
