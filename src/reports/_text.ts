/**
 * Plain-text pieces shared by the text formats (the JUnit failure body, Markdown):
 * a content comparison as a diff, a JSON value, a case's details.
 * @module
 */
import type { Json } from '../subjects/subject.js';
import {
  describeDifference,
  lineText,
  partName,
  type ContentDiff,
  type ContentLine,
  type ContentView,
} from './_content.js';
import { notRunReason, type CaseView, type OpView } from './_model.js';
import { explained } from '../docs/cite.js';
import { mistakeRef } from '../docs/refs.js';

/**
 * A content comparison as diff lines: `  ` same, `- ` expected, `+ ` got; each line
 * numbered and named by its part. A `^` line under a changed line points at the
 * first differing byte.
 * @param diff - the comparison
 * @returns the lines
 * @example
 * import { diffContents } from './_content.js';
 * import { Redactor } from './redact.js';
 * diffLines(diffContents(utf8('app\n{}\n'), utf8('app\n{}'), new Redactor([])))[1] // '-  2 appSecret {}⏎'
 */
export function diffLines(diff: ContentDiff): string[] {
  const out: string[] = [];
  for (const row of diff.rows) {
    const label = `${String(row.number).padStart(2)} ${row.part.padEnd(9)} `;
    if (!row.differs && row.expected) {
      out.push(`  ${label}${lineText(row.expected)}`);
      continue;
    }
    const endMark = row.expectedMark === 'end' ? ' ‹end›' : '';
    out.push(`- ${label}${row.expected ? lineText(row.expected) : '(no line)'}${endMark}`);
    const pointer = caret(row.expected, row.expectedMark);
    if (pointer !== undefined) out.push(`  ${' '.repeat(label.length)}${pointer}`);
    out.push(`+ ${label}${row.got ? lineText(row.got) : '(no line)'}${row.gotMark === 'end' ? ' ‹end›' : ''}`);
    const gotPointer = caret(row.got, row.gotMark);
    if (gotPointer !== undefined) out.push(`  ${' '.repeat(label.length)}${gotPointer}`);
  }
  return out;
}

/**
 * One content as numbered display lines.
 * @param view - the content
 * @returns the lines, or `(empty)`
 */
export function contentLines(view: ContentView): string[] {
  if (view.lines.length === 0) return ['(empty)'];
  return view.lines.map((l) => `${String(l.number).padStart(2)} ${partName(l.number).padEnd(9)} ${lineText(l)}`);
}

/**
 * A JSON value on one line, or indented when long.
 * @param value - a clean value
 * @returns the JSON text
 */
export function jsonText(value: Json): string {
  const flat = JSON.stringify(value);
  return flat.length <= 100 ? flat : JSON.stringify(value, null, 2);
}

/**
 * The facts of a case on one line: file, result, spec, readings, flags.
 * @param c - the case
 * @returns e.g. `file: signature/x.yaml · result: invalid · spec: 5.1 · readings: — · flags: FinalLfMissing`
 */
export function caseFacts(c: CaseView): string {
  const list = (a: readonly string[]): string => (a.length > 0 ? a.join(', ') : '—');
  return (
    `file: ${c.file} · result: ${c.result} · spec: ${list(c.spec)} · ` +
    `readings: ${list(c.readings)} · flags: ${list(c.flags)}`
  );
}

/**
 * An operation in plain text: status and message, contents (as a diff when both
 * sides carry one), expected and got, the diagnosis — or, for a step that did not run, why.
 * @param o - the operation
 * @returns the lines
 */
export function opLines(o: OpView): string[] {
  const notRun = notRunReason(o);
  if (notRun !== undefined) return [`[${o.op}] ${notRun}`];
  const out = [`[${o.op}] ${o.status}: ${o.message}${o.choice ? ` (chose: ${o.choice})` : ''}`];
  const indent = (lines: readonly string[]): string[] => lines.map((l) => `    ${l}`);
  if (o.content?.diff) {
    out.push(
      `  content (- expected, + got): ${describeDifference(o.content.diff)}`,
      ...indent(diffLines(o.content.diff)),
    );
  } else {
    if (o.content?.expected) out.push('  expected content:', ...indent(contentLines(o.content.expected)));
    if (o.content?.got) out.push('  got content:', ...indent(contentLines(o.content.got)));
  }
  out.push(...labelled('expected', o.expected), ...labelled('got', o.got));
  for (const d of o.diagnosis) out.push(`  diagnosis: ${d.mistake}: ${d.message} (${d.ref})`);
  return out;
}

/**
 * A case in plain text (the JUnit failure body): its facts, its steps, and how to fix each
 * known mistake diagnosed, the mistake's page named in the kit (src/docs/cite.ts).
 * @param c - the case
 * @returns the text
 */
export function caseText(c: CaseView): string {
  const lines = [`${c.id}: ${c.comment}`, caseFacts(c)];
  if (c.listedReason !== undefined) lines.push(`listed as an expected failure: ${c.listedReason}`);
  for (const o of c.ops) lines.push('', ...opLines(o));
  for (const d of c.diagnosis) {
    const e = explained(mistakeRef(d.mistake));
    if (e) lines.push('', `how to fix ${d.mistake}: ${e.fix} (${e.page})`);
  }
  return lines.join('\n');
}

// --- internal ---

function labelled(name: string, value: Json): string[] {
  const text = jsonText(value).split('\n');
  return [`  ${name}: ${text[0] ?? ''}`, ...text.slice(1).map((l) => `  ${l}`)];
}

function caret(line: ContentLine | undefined, mark: number | 'end' | undefined): string | undefined {
  if (mark === undefined || !line) return undefined;
  if (mark === 'end') return `${' '.repeat(width(lineText(line)))} ^ first difference: the content ends here`;
  const before = line.tokens
    .slice(0, mark)
    .map((t) => t.text)
    .join('');
  return `${' '.repeat(width(before))}^ first difference`;
}

function width(text: string): number {
  return [...text].length;
}

/** The most characters of one value a report page shows (results.json has every one). */
export const SHOWN_CHARS = 4000;

/**
 * A long text cut for a report page, saying how much was left out and where it is whole.
 * @param text - e.g. what a step was sent, as JSON
 * @returns the text, or its first {@link SHOWN_CHARS} characters and a line saying how many more there are
 * @example clipped('x'.repeat(5000)).endsWith('(1000 more characters: results.json has them all)')
 */
export function clipped(text: string): string {
  return text.length > SHOWN_CHARS
    ? `${text.slice(0, SHOWN_CHARS)}\n… (${text.length - SHOWN_CHARS} more characters: results.json has them all)`
    : text;
}
