/**
 * Text made inert for a terminal or a CI log: every control character a testee, a gateway or a
 * file could put in a name, a reason or a stderr line (ESC starting a control sequence that
 * retitles, clears or rewrites the screen, CR overwriting a line, NUL, BEL, backspace, DEL, C1
 * controls such as U+0085 (NEL) and U+009B, the line and paragraph separators U+2028 and U+2029 (a
 * line break to some terminals, log viewers and JavaScript), and every bidi control that reorders
 * what is shown — the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069, the marks
 * U+200E, U+200F and U+061C) becomes a visible escape (`\x1B`, `\r`, `\u0085`, `\u2028`, `\u202E`).
 * LF (line breaks) and TAB stay; VT and FF (C0) are escaped like the rest.
 * @module
 */

/**
 * Untrusted text as it may reach a terminal: controls as visible escapes, LF and TAB kept.
 * @param text - a testee's name, a reason, a stderr line
 * @returns the inert text
 * @example inertText('a\x1b[2Jb\rc') // 'a\\x1B[2Jb\\rc'
 */
export function inertText(text: string): string {
  return text.replace(CONTROLS, visible);
}

/**
 * Output on its way to the terminal, the last safety net: like {@link inertText}, except the kit's
 * own control sequences, exactly as the kit writes them — its colours (`ESC[1;31m`, `ESC[1;32m`,
 * `ESC[33m`, `ESC[0m`: src/runner/progress.ts `paint`) and its progress line's `CR ESC[K` — which
 * pass as they are. A colour sequence in untrusted text passes too: it can colour a line, not
 * move the cursor, retitle the window or hide text (the renderers of untrusted text use
 * {@link inertText}, so even that does not happen through them).
 * @param text - the output
 * @returns the text, every other control character visible
 * @example inertOutput('\x1b[1;31mFAILED\x1b[0m \x1b]0;x\x07') // '\x1b[1;31mFAILED\x1b[0m \\x1B]0;x\\x07'
 */
export function inertOutput(text: string): string {
  return text.replace(KIT_OR_CONTROL, (m: string, kit: string | undefined) => kit ?? visible(m));
}

// --- internal ---

const CONTROL_CLASS =
  '[\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028\\u2029\\u202A-\\u202E\\u2066-\\u2069]';
const CONTROLS = new RegExp(CONTROL_CLASS, 'g');
const KIT_OR_CONTROL = new RegExp(`(\\r\\u001b\\[K|\\u001b\\[(?:0|1;31|1;32|33)m)|${CONTROL_CLASS}`, 'g');

function visible(ch: string): string {
  if (ch === '\r') return '\\r';
  const cp = ch.charCodeAt(0);
  // C0 as \xNN; DEL, C1, the separators and the bidi controls as \uXXXX, which is also a valid escape inside a JSON
  // string (the JSON a command prints encodes C0 itself, not those)
  return cp < 0x20
    ? `\\x${cp.toString(16).toUpperCase().padStart(2, '0')}`
    : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}
