/**
 * Independent checks of the expected values in the vector files: every sign is
 * recomputed from the expected content bytes with node:crypto (not the kit's signer),
 * and the reference's content is compared with the expected content — so an error
 * in either a file or the code shows. Used by suites/expectations.test.ts and by the
 * kit's own tests that break a vector file on purpose.
 */
import { createHash } from 'node:crypto';
import { parseAuthorization } from '../../src/scheme/authorization.js';
import { bytesEqual } from '../../src/scheme/bytes.js';
import { signatureContent } from '../../src/scheme/content.js';
import type { SignatureParts } from '../../src/scheme/parts.js';
import { bodyBytes, contentBytes } from '../../src/vectors/fields.js';
import type { VectorCase } from '../../src/vectors/types.js';

/**
 * SHA-256 hex with node:crypto, written here on purpose instead of importing the signer.
 * @param bytes - content bytes
 * @returns lower-case hex
 */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The discrepancies between a case's expected values and (a) SHA-256 of its expected
 * content, (b) the reference's content for its inputs. Empty when all agree.
 * @param c - a case
 * @returns one line per discrepancy
 */
export function expectationProblems(c: VectorCase): string[] {
  const problems: string[] = [];
  const parts = signedParts(c);
  if (c.kind === 'signature') {
    const expected = contentBytes(c.expected);
    if (!expected) return ['signature case without expected content'];
    if (sha256Hex(expected) !== c.expected.sign) problems.push('expected.sign is not SHA-256 of expected.content');
    if (parts && !bytesEqual(signatureContent(parts), expected))
      problems.push('the reference builds other content than expected.content');
    if (c.candidate) {
      const candidate = contentBytes(c.candidate);
      if (candidate && sha256Hex(candidate) !== c.candidate.sign.toLowerCase())
        problems.push('candidate.sign is not SHA-256 of candidate.content');
      if (candidate && bytesEqual(candidate, expected))
        problems.push('candidate.content equals expected.content: no defect');
      if (c.candidate.sign.toLowerCase() === c.expected.sign && c.result === 'invalid')
        problems.push('invalid candidate has the expected sign');
    }
    return problems;
  }
  if (!('content' in c.expected) && !('contentB64' in c.expected)) return problems;
  const expected = contentBytes(c.expected as { content?: string; contentB64?: string });
  if (!expected) return problems;
  if (parts && !bytesEqual(signatureContent(parts), expected))
    problems.push('the reference builds other content than expected.content');
  const header = headerOf(c);
  const items = header ? parseAuthorization(header) : undefined;
  if (items?.ok) {
    const matches = sha256Hex(expected) === items.items.sign.toLowerCase();
    const shouldMatch =
      c.result !== 'invalid' ||
      !['sign-mismatch'].includes((c.expected as { problem?: { kind: string } }).problem?.kind ?? '');
    if (c.result === 'valid' && !matches)
      problems.push("SHA-256 of expected.content is not the header's sign, but the case is valid");
    if (c.result === 'invalid' && !shouldMatch && matches)
      problems.push("SHA-256 of expected.content is the header's sign, but the case says sign-mismatch");
  }
  return problems;
}

// --- internal ---

function headerOf(c: VectorCase): string | undefined {
  switch (c.kind) {
    case 'request':
    case 'response':
    case 'webhook':
      return c.inputs.authorization ?? undefined;
    case 'redirect': {
      const q = new URL(c.inputs.redirectUrl).searchParams.getAll('authorization');
      return q.length === 1 ? q[0] : undefined;
    }
    default:
      return undefined;
  }
}

/** The seven parts a correct implementation signs for the case, when it gets that far. */
function signedParts(c: VectorCase): SignatureParts | undefined {
  if (c.kind === 'signature') return { ...c.inputs, body: bodyBytes(c.inputs) };
  const header = headerOf(c);
  const parsed = header ? parseAuthorization(header) : undefined;
  if (!parsed?.ok) return undefined;
  const { timestamp, nonce } = parsed.items;
  switch (c.kind) {
    case 'request':
    case 'response':
      return {
        appId: c.inputs.appId,
        appSecret: c.inputs.appSecret,
        method: c.inputs.method,
        url: c.inputs.url,
        timestamp,
        nonce,
        body: bodyBytes(c.inputs),
      };
    case 'webhook':
      return {
        appId: c.inputs.appId,
        appSecret: c.inputs.appSecret,
        method: c.inputs.method,
        url: c.inputs.notifyUrl,
        timestamp,
        nonce,
        body: bodyBytes(c.inputs),
      };
    case 'redirect': {
      const payment = new URL(c.inputs.redirectUrl).searchParams.getAll('payment');
      if (payment.length !== 1) return undefined;
      return {
        appId: c.inputs.appId,
        appSecret: c.inputs.appSecret,
        method: 'GET',
        url: c.inputs.returnUrl,
        timestamp,
        nonce,
        body: `payment=${payment[0] ?? ''}`,
      };
    }
    default:
      return undefined;
  }
}
