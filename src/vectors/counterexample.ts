/**
 * A counterexample (a failed property's, a fuzz finding's) as the data of a vector case: what
 * `pgv2kit run --save` writes (built into a case by src/generate/counterexample.ts).
 * @module
 */

/**
 * A counterexample as the data of a vector case: signed parts (a signature case); a header (a
 * parse case: R8 says what a parser must do with it); four values (a format case); or a message
 * as a verifier receives it (a request, response or webhook case: accepted as signed, or
 * refused because `changed` changed after signing).
 */
export type CounterexampleVector =
  | {
      readonly area: 'signature';
      readonly parts: {
        readonly appId: string;
        readonly appSecret: string;
        readonly method: string;
        readonly url: string;
        readonly timestamp: string;
        readonly nonce: string;
        readonly bodyB64: string;
      };
    }
  | {
      readonly area: 'authorization';
      readonly header: string;
      /** Flags the header shows beyond R8's verdict (e.g. HeaderOrder). */ readonly flags?: readonly string[];
    }
  | {
      readonly area: 'authorization';
      readonly items: Readonly<Record<'appId' | 'sign' | 'timestamp' | 'nonce', string>>;
    }
  | {
      readonly area: 'request' | 'response' | 'webhook';
      readonly result: 'valid' | 'invalid';
      /** What changed after signing (invalid cases): body, URL, method, timestamp, nonce or appId. */
      readonly changed?: string;
      readonly message: {
        readonly appId: string;
        readonly appSecret: string;
        readonly method: string;
        readonly url: string;
        readonly authorization: string;
        readonly bodyB64: string;
      };
    };

/** The areas a counterexample can be saved in. */
export type CounterexampleKind = CounterexampleVector['area'];

/** {@link CounterexampleKind}, listed. */
export const COUNTEREXAMPLE_AREAS: readonly CounterexampleKind[] = [
  'signature',
  'authorization',
  'request',
  'response',
  'webhook',
];
