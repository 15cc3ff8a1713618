/**
 * The Python members of the panel: correct implementations of V2_SHA256 and the upload rules in
 * Python 3.11 (standard library only), written from gateway-spec.md, readings.md and the protocol
 * description alone (never from src/), each a protocol v1 testee. Each makes different defensible
 * choices where the readings leave the behaviour open; every one must pass everything the kit
 * checks, so a panel failure is a defect of the kit, never of the member. The header comment of
 * each member file (test/panel/members/py-*.py) states its choices with the readings and spec
 * sections they rest on.
 * @module
 */

/** The Python members; `command` is run by the shell with the package root as cwd. */
export const PYTHON_MEMBERS: ReadonlyArray<{ name: string; command: string; choices: string[] }> = [
  {
    name: 'py-strip',
    command: 'python3 test/panel/members/py-strip.py',
    choices: [
      'R8 (a): Python str.strip() at every place: whole header, after the scheme word, item ends, both sides of "="',
      'R8 (b): unknown items ignored (an empty name included)',
      'R8: scheme word compared exactly',
      'R7: the right digest in upper case refused',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions accepted',
    ],
  },
  {
    name: 'py-regex',
    command: 'python3 test/panel/members/py-regex.py',
    choices: [
      'R8: one re.fullmatch for the header skeleton, one per item',
      'R8 (a): white space (every char <= U+0020) at any place refuses the header',
      'R8: unknown items refused',
      'R8 (c): scheme word compared without regard to ASCII letter case',
      'R7: the right digest in upper (or mixed) case accepted',
      'R13: 2 MB = 2,000,000 bytes; upper-case extensions refused',
    ],
  },
  {
    name: 'py-streaming',
    command: 'python3 test/panel/members/py-streaming.py',
    choices: [
      '5.1/5.2: signer feeds SHA-256 part by part, the body in 7-byte chunks',
      'R8 (a): only SP and HTAB (RFC 9110 OWS) trimmed, at item ends and around "="; other white space kept',
      'R8: unknown items refused',
      'R8: scheme word compared exactly',
      'R7: the right digest in upper case refused',
      'R13: 2 MB = 2,000,000 bytes; upper-case extensions accepted',
    ],
  },
  {
    name: 'py-keep',
    command: 'python3 test/panel/members/py-keep.py',
    choices: [
      'R8: strict split (exactly one SP after the scheme), nothing trimmed anywhere',
      'R8 (b): unknown items ignored (an empty name included)',
      'R8 (c): scheme word compared with Unicode casefold()',
      'R7: the right digest in upper case accepted',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions accepted',
    ],
  },
  {
    name: 'py-java-sdk',
    command: 'python3 test/panel/members/py-java-sdk.py',
    choices: [
      'R8 (a): Java String.trim (every char <= U+0020) on the whole header, item ends and both sides of "="; the scheme exact, one SP',
      'R8 (d): String.split(",") without a limit: trailing empty elements dropped, others refused',
      'R8 (e): item names matched with String.equalsIgnoreCase; a duplicate after folding refused',
      'R8 (b): unknown items ignored',
      'R7: the right digest in upper case refused',
      'R13: 2 MB = 2,000,000 bytes; upper-case extensions refused',
    ],
  },
  {
    name: 'py-go-style',
    command: 'python3 test/panel/members/py-go-style.py',
    choices: [
      'R8 (a): Go strings.TrimSpace (Unicode White_Space) on the whole header, item ends and both sides of "="',
      'R8 (c): scheme word compared with strings.EqualFold',
      'R8 (d): empty elements (once trimmed) skipped wherever they stand',
      'R8 (e): item names compared with strings.EqualFold (simple case folding); a duplicate after folding refused',
      'R8 (b): unknown items refused',
      'R7: the right digest in upper case accepted (hex-decoded bytes compared)',
      'R13: 2 MB = 2,097,152 bytes; upper-case extensions accepted',
    ],
  },
];
