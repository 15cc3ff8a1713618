/**
 * Operation names an implementation advertises that protocol v1 does not know
 * (`signature.sgn`): never run, so reported on every run with the closest known
 * name, lest a typo in a handshake silently leave an operation untested.
 * @module
 */
import { closest } from '../closest.js';
import { KIT_OPERATIONS, PROTOCOL_OPERATIONS } from '../protocol/operations.js';

/** An advertised operation name protocol v1 does not know. */
export interface UnknownOperation {
  readonly name: string;
  /** The closest protocol v1 operation, when one is close enough to be a likely typo. */
  readonly suggestion?: string;
  /**
   * One line: `the testee offers "signature.sgn", which protocol v1 does not know (did you mean "signature.sign"?)`.
   */
  readonly message: string;
}

/**
 * Describes an unknown operation name, with the closest protocol v1 operation.
 * @param name - the advertised name
 * @param who - who advertised it (`the testee`, `the implementation`)
 * @returns the name, the suggestion and the message
 * @example unknownOperation('signature.sgn', 'the testee').suggestion // 'signature.sign'
 */
export function unknownOperation(name: string, who: string): UnknownOperation {
  const shown = JSON.stringify(name);
  if ((KIT_OPERATIONS as readonly string[]).includes(name)) {
    return {
      name,
      message:
        `${who} offers ${shown}, which protocol v1 does not know ` +
        '(a kit-internal operation, never sent to a testee)',
    };
  }
  const suggestion = closestOperation(name);
  const hint = suggestion
    ? `did you mean ${JSON.stringify(suggestion)}?`
    : `protocol v1 operations: ${PROTOCOL_OPERATIONS.join(', ')}`;
  return {
    name,
    ...(suggestion ? { suggestion } : {}),
    message: `${who} offers ${shown}, which protocol v1 does not know (${hint})`,
  };
}

/**
 * The protocol v1 operation closest to a name (see {@link closest}: a likely typo). Ties go to
 * the protocol's order.
 * @param name - any name
 * @returns the closest operation, or undefined when none is close
 * @example closestOperation('signature.sgn') // 'signature.sign'
 * @example closestOperation('frobnicate') // undefined
 */
export function closestOperation(name: string): string | undefined {
  return closest(name, PROTOCOL_OPERATIONS)[0];
}
