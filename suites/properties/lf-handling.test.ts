/**
 * LF handling of the signature content (spec §5.1, §5.2; readings R1, R2, R3), as
 * properties of the subject's signature.content and signature.sign. Expected values
 * are computed here by plain concatenation and node:crypto, never by src/scheme.
 *
 * Replay a failure (fast-check prints seed and path):
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run suites/properties/lf-handling.test.ts -t '<words of the property name>'
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PART_NAMES, bodyArb, wildPartsArb, type PartName, type Parts } from '../_support/arbitraries.js';
import { loadSubject } from '../_support/subject.js';
import { expectedContent, offers, sha256Hex, show, subjectContent, subjectSign } from './_helpers.js';

const subject = await loadSubject();
const LF = 0x0a;
const encoder = new TextEncoder();
const canContent = offers(subject, 'signature.content');
/** Where the subject also signs, the properties on the content check the sign too. */
const canSign = offers(subject, 'signature.sign');

describe('LF handling (5.1, R1, R2)', () => {
  it.skipIf(!canContent)('the content always ends with the body plus one LF', async () => {
    await fc.assert(
      fc.asyncProperty(wildPartsArb, async (parts) => {
        const content = await subjectContent(subject, parts, 'property.lf-handling.body-plus-lf');
        const tail = Uint8Array.from([...parts.body, LF]);
        expect(endsWith(content, tail), `content ${show(content)} does not end with body ${show(parts.body)} + LF`).toBe(true);
      }),
    );
  });

  it.skipIf(!canContent)(
    'a body ending in LF gives content ending in exactly two LFs, never three (R1)',
    async () => {
      await fc.assert(
        fc.asyncProperty(wildPartsArb, bodyArb(), async (parts, raw) => {
          const body = Uint8Array.from([...withoutTrailingLFs(raw, 0x7d), LF]);
          const p = { ...parts, body };
          const content = await subjectContent(subject, p, 'property.lf-handling.body-ends-with-lf');
          const n = content.byteLength;
          expect(trailingLFs(content), `content ${show(content)} for body ${show(body)}`).toBe(2);
          expect(content[n - 3], 'the byte before the two LFs is the last byte of the body before its LF').toBe(body[body.byteLength - 2]);
          if (canSign) {
            expect(await subjectSign(subject, p, 'property.lf-handling.body-ends-with-lf'), 'sign of the content ending in two LFs').toBe(
              sha256Hex(expectedContent(p)),
            );
          }
        }),
      );
    },
  );

  it.skipIf(!canContent)('an empty body gives content ending in nonce\\n\\n (R2)', async () => {
    await fc.assert(
      fc.asyncProperty(wildPartsArb, async (parts) => {
        const p = { ...parts, body: new Uint8Array() };
        const content = await subjectContent(subject, p, 'property.lf-handling.empty-body');
        expect(endsWith(content, encoder.encode(`\n${p.nonce}\n\n`)), `content ${show(content)} does not end with \\n<nonce>\\n\\n`).toBe(true);
        if (canSign) expect(await subjectSign(subject, p, 'property.lf-handling.empty-body')).toBe(sha256Hex(expectedContent(p)));
      }),
    );
  });

  it.skipIf(!canSign)('adding an LF anywhere in any one part changes the sign', async () => {
    await fc.assert(
      fc.asyncProperty(wildPartsArb, fc.constantFrom(...PART_NAMES), fc.nat(), async (parts, part, at) => {
        const added = insertLF(parts, part, at);
        const before = await subjectSign(subject, parts, 'property.lf-handling.add-lf');
        const after = await subjectSign(subject, added, 'property.lf-handling.add-lf');
        expect(after, `an LF added to ${part} did not change the sign`).not.toBe(before);
      }),
    );
  });

  it.skipIf(!canSign)('removing an LF anywhere in any one part changes the sign', async () => {
    await fc.assert(
      fc.asyncProperty(wildPartsArb, fc.constantFrom(...PART_NAMES), fc.nat(), fc.nat(), async (parts, part, at, which) => {
        const withLF = insertLF(parts, part, at); // the part holds at least one LF
        const removed = removeLF(withLF, part, which); // remove any one of its LFs
        const before = await subjectSign(subject, withLF, 'property.lf-handling.remove-lf');
        const after = await subjectSign(subject, removed, 'property.lf-handling.remove-lf');
        expect(after, `an LF removed from ${part} did not change the sign`).not.toBe(before);
      }),
    );
  });

  it.skipIf(!canContent && !canSign)(
    'the content is the seven parts joined by LF plus a final LF, and the sign its SHA-256 in lower-case hex',
    async () => {
      await fc.assert(
        fc.asyncProperty(wildPartsArb, async (parts) => {
          const expected = expectedContent(parts);
          if (canContent) {
            const content = await subjectContent(subject, parts, 'property.lf-handling.concatenation');
            expect(show(content)).toBe(show(expected)); // readable diff first
            expect(Buffer.from(content).equals(Buffer.from(expected)), 'content bytes').toBe(true);
          }
          if (canSign) expect(await subjectSign(subject, parts, 'property.lf-handling.concatenation')).toBe(sha256Hex(expected));
        }),
      );
    },
  );
});

// --- internal ---

function endsWith(bytes: Uint8Array, tail: Uint8Array): boolean {
  return bytes.byteLength >= tail.byteLength && Buffer.from(bytes.subarray(bytes.byteLength - tail.byteLength)).equals(Buffer.from(tail));
}

function trailingLFs(bytes: Uint8Array): number {
  let n = 0;
  while (n < bytes.byteLength && bytes[bytes.byteLength - 1 - n] === LF) n++;
  return n;
}

/** The bytes without their trailing LFs; `filler` when nothing else is left. */
function withoutTrailingLFs(bytes: Uint8Array, filler: number): Uint8Array {
  const kept = bytes.subarray(0, bytes.byteLength - trailingLFs(bytes));
  return kept.byteLength > 0 ? kept : Uint8Array.of(filler);
}

/** The parts with an LF inserted into one part at position `at % (length + 1)`. */
function insertLF(parts: Parts, part: PartName, at: number): Parts {
  if (part === 'body') {
    const i = at % (parts.body.byteLength + 1);
    return { ...parts, body: Uint8Array.from([...parts.body.subarray(0, i), LF, ...parts.body.subarray(i)]) };
  }
  const chars = [...parts[part]];
  chars.splice(at % (chars.length + 1), 0, '\n');
  return { ...parts, [part]: chars.join('') };
}

/** The parts with one of the LFs of one part (the `which % count`-th) removed. */
function removeLF(parts: Parts, part: PartName, which: number): Parts {
  if (part === 'body') {
    const at = [...parts.body.keys()].filter((i) => parts.body[i] === LF);
    const i = at[which % at.length] ?? -1;
    return { ...parts, body: Uint8Array.from([...parts.body.subarray(0, i), ...parts.body.subarray(i + 1)]) };
  }
  const chars = [...parts[part]];
  const at = [...chars.keys()].filter((i) => chars[i] === '\n');
  chars.splice(at[which % at.length] ?? -1, 1);
  return { ...parts, [part]: chars.join('') };
}
