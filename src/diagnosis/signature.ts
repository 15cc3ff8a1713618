/**
 * Diagnosis of signature cases (§5.1, §5.2): a signer's content or sign is matched
 * against the contents of the known mistakes; a verifier that accepts an invalid
 * candidate's sign builds its content with the candidate's mistake.
 * @module
 */
import type { OpOutcome } from '../checks/outcome.js';
import { bytesEqual, fromBase64 } from '../scheme/bytes.js';
import type { Diagnosis } from './diagnosis.js';
import { bodyBytes } from '../vectors/fields.js';
import type { SignatureCase } from '../vectors/types.js';
import { accepted, ofMistake, resultOf } from './common.js';
import { findMistakes, mistakenContents, type ByteParts } from './mistakes.js';

/**
 * The known mistakes that explain a failed operation of a signature case.
 * @param c - the case
 * @param outcome - the failed operation's outcome
 * @returns the diagnoses; empty when nothing in the catalogue fits
 */
export function diagnoseSignature(c: SignatureCase, outcome: OpOutcome): Diagnosis[] {
  const result = resultOf(outcome.got);
  const parts = partsOf(c);
  if (outcome.op === 'signature.sign') {
    const got = result?.['sign'];
    if (typeof got !== 'string') return [];
    if (got !== c.expected.sign && got.toLowerCase() === c.expected.sign) {
      return [
        {
          mistake: 'uppercase-hex',
          message: 'your sign is the expected sign in which the hex digits are upper case: signers write lower case',
          ref: '§5.2, R7',
        },
      ];
    }
    return findMistakes(parts, got).map((m) => ofMistake(m, 'your sign'));
  }
  if (outcome.op === 'signature.content') {
    const got = result?.['contentB64'];
    if (typeof got !== 'string') return [];
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(got);
    } catch {
      return [];
    }
    return mistakenContents(parts)
      .filter(({ content }) => bytesEqual(content, bytes))
      .map(({ mistake }) => ofMistake(mistake, 'your content'));
  }
  if (outcome.op === 'request.verify' && accepted(result) && c.candidate) {
    return findMistakes(parts, c.candidate.sign).map((m) => ofMistake(m, 'you accept'));
  }
  return [];
}

// --- internal ---

function partsOf(c: SignatureCase): ByteParts {
  const { appId, appSecret, method, url, timestamp, nonce } = c.inputs;
  return { appId, appSecret, method, url, timestamp, nonce, body: bodyBytes(c.inputs) };
}
