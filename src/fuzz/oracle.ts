/**
 * The fuzz oracle: reading R8's family of parsers ({@link headerAnswers}) decides what any
 * parser may do with a header — accept it with one of the allowed sets of values, refuse it,
 * or either.
 * @module
 */
import { headerAnswers, headerVerdict, type HeaderAnswers, type HeaderVerdict } from '../scheme/header-answers.js';

/** What R8 allows a parser to do with a header. */
export interface OracleVerdict {
  /** must-accept, must-refuse or either, in one word. */
  readonly verdict: HeaderVerdict;
  /** Every allowed answer. */
  readonly answers: HeaderAnswers;
}

/**
 * Decides what R8 allows for a header.
 * @param header - the header value
 * @returns the verdict and every allowed answer
 * @example oracle('V2_SHA256 nonce=n,appId=a,sign=00,timestamp=1').verdict // 'must-accept'
 */
export function oracle(header: string): OracleVerdict {
  const answers = headerAnswers(header);
  return { verdict: headerVerdict(answers), answers };
}
