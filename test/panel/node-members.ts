/**
 * The Node members of the panel: correct implementations of V2_SHA256 and the upload rules,
 * written from gateway-spec.md and readings.md alone (never from src/), each making different
 * defensible choices where the readings leave the behaviour open. Every one must pass everything
 * the kit checks: a panel failure is a defect of the kit (a false failure), never of the member.
 * `panel.test.ts` runs them through the real protocol. The header comment of each member file
 * states its choices with the spec sections and readings they rest on.
 * @module
 */

/** One panel member: a protocol v1 testee started by `command` (from the package root). */
export interface PanelMember {
  /** Short name, e.g. `js-trim`. */
  readonly name: string;
  /** The command line that starts it (run by the shell, cwd the package root). */
  readonly command: string;
  /** The defensible choices it makes, one line each, citing readings and spec sections. */
  readonly choices: string[];
}

const node = (file: string): string => `"${process.execPath}" test/panel/members/${file}`;

/** The Node members (test/panel/members/*.mjs), Node built-ins only. */
export const NODE_MEMBERS: ReadonlyArray<PanelMember> = [
  {
    name: 'js-trim',
    command: node('js-trim.mjs'),
    choices: [
      'R8 (a): JS String.prototype.trim at every place: whole header, after the scheme word, item ends, both sides of "="',
      'R8 (b): unknown items ignored',
      'R8 (c): scheme word compared after toUpperCase',
      'R7: the right digest in upper (or mixed) case accepted',
      'R13: 2 MB = 2,000,000 bytes; upper-case extensions accepted',
      '5.3: format writes appId, sign, timestamp, nonce; refuses an empty value or one with ","',
    ],
  },
  {
    name: 'java-trim',
    command: node('java-trim.mjs'),
    choices: [
      'R8 strict start: "V2_SHA256 " exactly (scheme word compared exactly)',
      'R8 (a): item ends trimmed like Java String.trim (every char <= U+0020)',
      'R8 (a): "=" split with Java \\s*=\\s* ([ \\t\\n\\x0B\\f\\r] removed on both sides)',
      'R8 (b): unknown items ignored',
      'R7: upper-case hex refused',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions refused',
      '5.3: format writes appId, timestamp, nonce, sign',
      'R14: formFields copied into a TreeMap: the text parts sorted by name, not in the order received',
    ],
  },
  {
    name: 'js-strict',
    command: node('js-strict.mjs'),
    choices: [
      'R8: exactly the strict parser (one SP after the scheme, nothing trimmed, unknown items refused, scheme exact)',
      'R7: upper-case hex refused',
      '5.1, 5.2: streaming signer (createHash fed part by part, the body in 5-byte chunks)',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions refused',
      'R14: no Content-Type line on the file part when no contentType was requested',
    ],
  },
  {
    name: 'js-refuse-ws',
    command: node('js-refuse-ws.mjs'),
    choices: [
      'R8 (a): refuses the header when JS-trim white space stands at any place (after the scheme SP, item ends, beside "="); white space inside a value kept',
      'R8 (b): unknown items ignored',
      'R8 (c): scheme word compared ASCII case-insensitively',
      'R7: upper-case (and mixed-case) hex accepted: the sign is compared as 32 decoded bytes',
      'R13: 2 MB = 2,000,000 bytes; upper-case extensions accepted',
    ],
  },
  {
    name: 'js-regex',
    command: node('js-regex.mjs'),
    choices: [
      'R8 (a): one regular expression over the header, OWS [ \\t]* allowed and dropped after the scheme SP, at item ends and around "="; a global item regex',
      'R8: unknown items refused; scheme word exact',
      'R7: the right digest in all lower or all upper case accepted, mixed case refused',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions accepted',
      '5.3: format writes nonce, timestamp, sign, appId',
      'R14: quoted boundary parameter; no Content-Type line on the file part without a contentType',
    ],
  },
];
