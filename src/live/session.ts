/**
 * A live session (issue 26): the one place where judged exchanges become output, for `pgv2kit check` (exchanges read
 * from a HAR) and `pgv2kit proxy` (exchanges as they happen). Each exchange given to {@link LiveSession.add} is
 * judged ({@link judgeExchange}), printed as one terminal line, and streamed to disk — its HAR entry, its
 * results.json entry and its report.html parts — so memory stays bounded however many exchanges come (the session
 * keeps counts only). {@link LiveSession.finish} writes the report folder atomically: everything is written into a
 * temporary folder beside it and renamed into place; an existing folder is replaced only when it holds nothing but
 * report files (a folder of the user's is refused, issue 25 item 3).
 *
 * The report folder:
 * - `results.json` ({@link LiveResultsJson}): `kind: "live"`, the target, the counts, the verdict, the exit code, and
 *   `exchanges` in arrival order ({@link ExchangeJson}), every string masked as data;
 * - `report.html`: the summary, a table of the exchanges, then each exchange's findings (each known mistake cited
 *   and explained as the run report does), notes and messages as sent; escaped, no script, no external resource;
 * - `traffic.har`: HAR 1.2 ({@link HarWriter}), bodies byte-exact, each entry's judgement in `_pgv2kit`.
 *
 * Secrets and the HAR. traffic.har holds the bytes sent, byte-exact, so that `pgv2kit check` judges them again the
 * same way — except where a secret appears (a body, a URL or a header carrying the merchant secret, in any form the
 * masker finds): that entry holds the masked exchange instead (secrets never appear in any output) and its
 * `_pgv2kit.notJudged` says so, so that it is never judged again as if its masked bytes were sent. results.json
 * marks that exchange `masked: true`. A request carries signatures, never the secret: a conformant client's
 * traffic is never masked.
 *
 * The exit code ({@link LiveOutcome.exitCode}): 0 when at least one exchange was judged and every exchange judged was
 * conformant; 1 when any was not conformant; and 1 when nothing was judged (no exchange, or none that could be
 * judged: the run's NO TEST RAN) — with a `NOTHING JUDGED` line saying why, never a silent 0.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { Masker } from '../scheme/mask.js';
import { inertText } from '../scheme/terminal-text.js';
import { KIT_NAME, kitVersion } from '../version.js';
import type { MerchantBook } from '../gateway/merchants.js';
import type { HeaderChoices } from '../gateway/request-auth.js';
import type { AcceptanceRule } from '../roles/merchant/as-gateway/acceptance.js';
import { paint } from '../runner/progress.js';
import { escapeHtml as h } from '../reports/escape.js';
import { pageHead, REPORT_CSS } from '../reports/style.js';
import { checkReportDir, ReportWriteError } from '../reports/write.js';
import type { LiveExchange } from './exchange.js';
import { HarWriter } from './har.js';
import { judgeExchange, type LiveJudgement } from './judge.js';
import {
  exchangeArticleHtml,
  exchangeJson,
  exchangeLine,
  exchangeRowHtml,
  maskedExchange,
  type ExchangeJson,
} from './report.js';

/** The files of a live session's report folder. */
export const LIVE_REPORT_FILES = ['results.json', 'report.html', 'traffic.har'] as const;

/** What a session is told when it opens. */
export interface LiveSessionOptions {
  /** The session's name: report.html's title, results.json's `name`. */
  readonly name: string;
  /** What was judged, in words: `proxy → https://sandbox.example`, `check traffic.har`. */
  readonly target: string;
  /** The merchants whose messages can be verified. */
  readonly merchants: MerchantBook;
  /** The header parser's further R8 choices (default neither). */
  readonly header?: HeaderChoices;
  /** What a merchant's answers mean (certify's acceptance options; default: a webhook taken with any 2xx …). */
  readonly acceptance?: AcceptanceRule;
  /** Every secret to mask (the merchants' secrets, and any other the command knows). */
  readonly secrets: readonly string[];
  /** The report folder: checked at open, written at {@link LiveSession.finish}. */
  readonly reportDir: string;
  /** Where each terminal line goes (with its LF): the command's stdout, or stderr under --json. */
  readonly print: (text: string) => void;
  /** Colour the verdicts. */
  readonly colour?: boolean;
  /** The working folder, to name a mistake's page from (default: the process's). */
  readonly cwd?: string;
}

/** The counts of a session. */
export interface LiveCounts {
  readonly exchanges: number;
  readonly conformant: number;
  readonly notConformant: number;
  readonly notJudged: number;
}

/** The session's verdict: `nothing judged` when no exchange was judged. */
export type LiveVerdict = 'conformant' | 'not conformant' | 'nothing judged';

/** results.json of a live session. `exchanges` in arrival order; every string masked. */
export interface LiveResultsJson {
  readonly kind: 'live';
  /** The shape's version: 1. */
  readonly version: 1;
  readonly kit: { readonly name: string; readonly version: string };
  readonly name: string;
  readonly target: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly verdict: LiveVerdict;
  /** Why nothing was judged, when nothing was. */
  readonly nothingJudged?: string;
  readonly counts: LiveCounts;
  /** Entries of the input that are not the kit's to judge (`check`: neither API, upload, webhook nor redirect). */
  readonly skipped: number;
  readonly exitCode: 0 | 1;
  readonly exchanges: readonly ExchangeJson[];
}

/** What {@link LiveSession.finish} returns; `summary` is the --json document. */
export interface LiveOutcome {
  readonly exitCode: 0 | 1;
  readonly verdict: LiveVerdict;
  readonly counts: LiveCounts;
  /** The report folder, absolute. */
  readonly reportsDir: string;
  /** The --json summary: results.json's head (no exchanges) with `reportsDir`. */
  readonly summary: Omit<LiveResultsJson, 'exchanges'> & { readonly reportsDir: string };
}

/**
 * A live session. Open it, {@link LiveSession.add} each exchange as it comes, then {@link LiveSession.finish} (or
 * {@link LiveSession.abort} to leave nothing behind).
 * @example
 * const session = LiveSession.open({
 *   name: 'demo', target: 'check demo.har', merchants: new MerchantBook([{ appId, appSecret }]),
 *   secrets: [appSecret], reportDir: `${tmp}/live`, print: () => undefined,
 * });
 * (await session.finish()).exitCode // 1 — nothing judged
 */
export class LiveSession {
  readonly #options: LiveSessionOptions;
  readonly #target: string;
  readonly #temp: string;
  readonly #masker: Masker;
  readonly #har: HarWriter;
  readonly #exchanges: number;
  readonly #rows: number;
  readonly #articles: number;
  readonly #startedAt = new Date().toISOString();
  #counts = { exchanges: 0, conformant: 0, notConformant: 0, notJudged: 0 };
  #queue: Promise<unknown> = Promise.resolve();
  #state: 'open' | 'finished' | 'aborted' = 'open';

  private constructor(options: LiveSessionOptions, target: string, temp: string) {
    this.#options = options;
    this.#target = target;
    this.#temp = temp;
    this.#masker = new Masker(options.secrets);
    this.#har = HarWriter.open(join(temp, 'traffic.har'));
    this.#exchanges = openSync(join(temp, '.exchanges.part'), 'wx');
    this.#rows = openSync(join(temp, '.rows.part'), 'wx');
    this.#articles = openSync(join(temp, '.articles.part'), 'wx');
  }

  /**
   * Opens a session: checks the report folder (missing, or a report folder already) and starts writing beside it.
   * @param options - {@link LiveSessionOptions}
   * @returns the session
   * @throws {ReportWriteError} when the report folder is a file, holds files the kit did not write, or cannot be
   *   made (a usage error, exit 2)
   */
  static open(options: LiveSessionOptions): LiveSession {
    const target = resolve(options.reportDir);
    checkReportDir(target, LIVE_REPORT_FILES);
    const temp = join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      mkdirSync(dirname(target), { recursive: true });
      mkdirSync(temp);
      return new LiveSession(options, target, temp);
    } catch (e) {
      rmSync(temp, { recursive: true, force: true });
      throw new ReportWriteError(target, 'its files could not be started', e);
    }
  }

  /** The counts so far. */
  get counts(): LiveCounts {
    return { ...this.#counts };
  }

  /**
   * Judges one exchange, prints its line and streams it to the report files. Calls are taken in the order made
   * (the proxy may call it for exchanges in flight together): lines and files follow that order.
   * @param ex - the exchange (its `seq` as the caller numbered it)
   * @param judged - its judgement when the caller has it already ({@link judgeExchange} with the session's merchants
   *   and header choices: the merchant proxy judges each exchange as it hands it on), so that it is not judged twice
   * @returns its judgement
   * @throws {Error} after {@link LiveSession.finish} or {@link LiveSession.abort}; a file system error
   */
  add(ex: LiveExchange, judged?: LiveJudgement): Promise<LiveJudgement> {
    const next = this.#queue.then(() => this.#add(ex, judged));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /**
   * Writes the report folder, atomically, and prints the closing lines.
   * @param more - entries of the input that were not the kit's to judge (`check`)
   * @returns the outcome: exit code, verdict, counts, the folder and the --json summary
   * @throws {ReportWriteError} when the folder cannot be written (then nothing of it is left half-written)
   */
  async finish(more: { readonly skipped?: number } = {}): Promise<LiveOutcome> {
    await this.#queue;
    this.#assertOpen();
    this.#state = 'finished';
    const counts = this.counts;
    const judged = counts.conformant + counts.notConformant;
    const verdict: LiveVerdict =
      judged === 0 ? 'nothing judged' : counts.notConformant > 0 ? 'not conformant' : 'conformant';
    const exitCode = verdict === 'conformant' ? 0 : 1;
    const nothing =
      verdict !== 'nothing judged'
        ? undefined
        : counts.exchanges === 0
          ? `no exchange to judge${more.skipped ? ` (${more.skipped} entries not the kit's to judge)` : ''}`
          : `none of the ${counts.exchanges} exchanges could be judged (each says why)`;
    const head = this.#masker.data({
      kind: 'live' as const,
      version: 1 as const,
      kit: { name: KIT_NAME, version: kitVersion() },
      name: this.#options.name,
      target: this.#options.target,
      startedAt: this.#startedAt,
      finishedAt: new Date().toISOString(),
      verdict,
      ...(nothing !== undefined ? { nothingJudged: nothing } : {}),
      counts,
      skipped: more.skipped ?? 0,
      exitCode: exitCode as 0 | 1,
    });
    try {
      this.#har.close();
      for (const fd of [this.#exchanges, this.#rows, this.#articles]) closeSync(fd);
      this.#writeResults(head);
      this.#writeHtml(head);
      for (const part of PARTS) rmSync(join(this.#temp, part), { force: true });
      this.#replace();
    } catch (e) {
      rmSync(this.#temp, { recursive: true, force: true });
      if (e instanceof ReportWriteError) throw e;
      throw new ReportWriteError(this.#target, 'writing the reports failed', e);
    }
    const { print, colour = false } = this.#options;
    const line = `${counts.exchanges} exchange${counts.exchanges === 1 ? '' : 's'}: ${counts.conformant} conformant, ${
      counts.notConformant
    } not conformant, ${counts.notJudged} not judged`;
    if (nothing !== undefined) print(`${paint('NOTHING JUDGED', 'yellow', colour)}: ${inertText(nothing)}\n`);
    print(`${paint(line, verdict === 'conformant' ? 'green' : 'red', colour)}\n`);
    print(`reports: ${inertText(this.#masker.text(this.#target))}\n`);
    return { exitCode, verdict, counts, reportsDir: this.#target, summary: { ...head, reportsDir: this.#target } };
  }

  /** Drops everything written (no report folder is made or changed). Does nothing once finished. */
  abort(): void {
    if (this.#state !== 'open') return;
    this.#state = 'aborted';
    this.#har.abort();
    for (const fd of [this.#exchanges, this.#rows, this.#articles]) closeSync(fd);
    rmSync(this.#temp, { recursive: true, force: true });
  }

  async #add(ex: LiveExchange, judged: LiveJudgement | undefined): Promise<LiveJudgement> {
    this.#assertOpen();
    const j =
      judged ??
      (await judgeExchange(ex, {
        merchants: this.#options.merchants,
        ...(this.#options.header ? { header: this.#options.header } : {}),
        ...(this.#options.acceptance ? { acceptance: this.#options.acceptance } : {}),
      }));
    this.#assertOpen();
    const e = exchangeJson(ex, j, this.#masker);
    const first = this.#counts.exchanges === 0;
    // e.masked is exchangeHoldsSecret's answer (exchangeJson asked it): asking again scanned every part of the
    // exchange a second time, 35–70 µs an exchange of the session's ~450 (bench/proxy-throughput.ts)
    this.#har.append(e.masked === true ? maskedExchange(ex, this.#masker) : ex, e);
    write(this.#exchanges, `${first ? '' : ',\n'}${JSON.stringify(e)}`);
    // every exchange that is not conformant has its article; a conformant one up to a number (a proxy left on
    // for 100,000 exchanges would write a page no browser opens): results.json and traffic.har hold them all
    const full = j.verdict !== 'conformant' || this.#counts.conformant < CONFORMANT_ARTICLES;
    write(this.#rows, `${exchangeRowHtml(e, full)}\n`);
    if (full) write(this.#articles, `${exchangeArticleHtml(e)}\n`);
    this.#counts.exchanges += 1;
    if (j.verdict === 'conformant') this.#counts.conformant += 1;
    else if (j.verdict === 'not conformant') this.#counts.notConformant += 1;
    else this.#counts.notJudged += 1;
    this.#options.print(`${exchangeLine(e, this.#options.colour ?? false, this.#options.cwd ?? process.cwd())}\n`);
    return j;
  }

  #assertOpen(): void {
    if (this.#state !== 'open') throw new Error(`the live session is ${this.#state}`);
  }

  #writeResults(head: Omit<LiveResultsJson, 'exchanges'>): void {
    const fd = openSync(join(this.#temp, 'results.json'), 'wx');
    try {
      const text = JSON.stringify(head, null, 2);
      write(fd, `${text.slice(0, -2)},\n  "exchanges": [\n`);
      copy(join(this.#temp, '.exchanges.part'), fd);
      write(fd, '\n  ]\n}\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  #writeHtml(head: Omit<LiveResultsJson, 'exchanges'>): void {
    const fd = openSync(join(this.#temp, 'report.html'), 'wx');
    try {
      const c = head.counts;
      const cls = head.verdict === 'conformant' ? 'ok' : head.verdict === 'not conformant' ? 'bad' : 'partial';
      const title = `${KIT_NAME} live report: ${head.name}`;
      write(
        fd,
        [
          ...pageHead(h(title), `${REPORT_CSS}\n${LIVE_CSS}`),
          '<body>',
          '<header>',
          `<h1>${h(title)}</h1>`,
          `<p class="summary ${cls}">${h(head.verdict.toUpperCase())}: ${c.exchanges} exchanges, ${c.conformant} ` +
            `conformant, ${c.notConformant} not conformant, ${c.notJudged} not judged</p>`,
          ...(head.nothingJudged ? [`<p class="notice warn">nothing judged: ${h(head.nothingJudged)}</p>`] : []),
          '<dl class="meta">',
          `<dt>target</dt><dd>${h(head.target)}</dd>`,
          `<dt>started</dt><dd>${h(head.startedAt)}</dd><dt>finished</dt><dd>${h(head.finishedAt)}</dd>`,
          `<dt>skipped</dt><dd>${head.skipped} entries not the kit's to judge</dd>`,
          `<dt>exit code</dt><dd>${head.exitCode}</dd>`,
          `<dt>kit</dt><dd>${h(`${head.kit.name} ${head.kit.version}`)}</dd>`,
          '</dl>',
          '<p class="ref">results.json holds every exchange as sent (secrets masked); traffic.har the bytes, ' +
            'byte-exact (an exchange where a secret appeared: masked, and marked not to be judged again).</p>',
          '</header>',
          '<section id="exchanges"><h2>Exchanges, in arrival order</h2><div class="scroll"><table>',
          '<thead><tr><th>#</th><th>kind</th><th>method</th><th>URL</th><th>status</th><th>verdict</th>' +
            '<th>why</th></tr></thead><tbody>',
          '',
        ].join('\n'),
      );
      copy(join(this.#temp, '.rows.part'), fd);
      const more =
        c.conformant > CONFORMANT_ARTICLES
          ? `<p class="ref">The first ${CONFORMANT_ARTICLES} conformant exchanges are shown in full, and every ` +
            'other exchange; results.json and traffic.har hold them all.</p>\n'
          : '';
      write(fd, `</tbody></table></div></section>\n<section id="each"><h2>Each exchange</h2>\n${more}`);
      copy(join(this.#temp, '.articles.part'), fd);
      write(fd, '</section>\n<footer>pgv2kit live session</footer>\n</body>\n</html>\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }

  /** Renames the temporary folder into place, replacing a report folder there (checked again: it may have changed). */
  #replace(): void {
    checkReportDir(this.#target, LIVE_REPORT_FILES);
    const old = `${this.#temp}.old`;
    let moved = false;
    try {
      renameSync(this.#target, old);
      moved = true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    try {
      renameSync(this.#temp, this.#target);
    } catch (e) {
      if (moved) renameSync(old, this.#target);
      throw e;
    }
    if (moved) rmSync(old, { recursive: true, force: true });
  }
}

// --- internal ---

const PARTS = ['.exchanges.part', '.rows.part', '.articles.part'];

/** The most conformant exchanges report.html shows in full (every other exchange is shown in full). */
const CONFORMANT_ARTICLES = 1000;

/** report.html's own rules after the shared stylesheet: an article's border by its verdict. */
const LIVE_CSS =
  'article.live-conformant{border-left-color:var(--ok)}article.live-not-judged{border-left-color:var(--warn)}' +
  'ul.notes{color:var(--muted)}';

function write(fd: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let at = 0;
  while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Copies a file into an open one, a chunk at a time (a part file may be larger than memory should hold). */
function copy(from: string, to: number): void {
  const fd = openSync(from, 'r');
  try {
    const chunk = Buffer.alloc(1 << 20);
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      let at = 0;
      while (at < n) at += writeSync(to, chunk, at, n - at);
    }
  } finally {
    closeSync(fd);
  }
}
