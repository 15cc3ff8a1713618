/**
 * The operations an implementation under test (a subject) can offer: those of
 * testee protocol v1, plus kit-internal ones that only in-process subjects run.
 * @module
 */

/**
 * Operations of testee protocol v1, in the protocol's order.
 * @example const offered = subject.operations.filter((op) => PROTOCOL_OPERATIONS.includes(op))
 */
export const PROTOCOL_OPERATIONS = [
  'signature.content',
  'signature.sign',
  'authorization.format',
  'authorization.parse',
  'request.verify',
  'response.verify',
  'webhook.verify',
  'redirect.verify',
  'upload.validate',
  'upload.form',
  'client.upload',
  'client.createPayment',
] as const;

/**
 * Kit-internal operations, never sent to testees: the gateway side of a rule
 * (the check of an upload body against issued formFields, 4.2, R14), and the
 * gateway role's requests to a gateway server under test (`pgv2kit run --gateway`), and the
 * merchant role's calls to a merchant's endpoints (`pgv2kit run --merchant`).
 * @example KIT_OPERATIONS.includes('upload.formCheck') // true — never sent to a testee
 */
export const KIT_OPERATIONS = [
  'upload.formCheck',
  'gateway.generateUploadUrl',
  'gateway.createPayment',
  'gateway.upload',
  'merchant.webhook',
  'merchant.redirect',
] as const;

/** An operation of protocol v1. */
export type ProtocolOperation = (typeof PROTOCOL_OPERATIONS)[number];

/** Any operation a subject may offer. */
export type Operation = ProtocolOperation | (typeof KIT_OPERATIONS)[number];

/**
 * Whether a string names an operation.
 * @param name - a candidate
 * @returns true for every protocol and kit operation
 * @example isOperation('signature.sign') // true
 */
export function isOperation(name: string): name is Operation {
  return (
    (PROTOCOL_OPERATIONS as readonly string[]).includes(name) || (KIT_OPERATIONS as readonly string[]).includes(name)
  );
}

/**
 * Whether an operation is kit-internal: never sent to a testee (the upload address's form
 * check; the gateway role's requests; the merchant role's calls).
 * @param op - an operation
 * @returns true for upload.formCheck, gateway.* and merchant.*
 * @example isKitOperation('upload.formCheck') // true
 */
export function isKitOperation(op: Operation): boolean {
  return (KIT_OPERATIONS as readonly string[]).includes(op);
}

/**
 * Operations in the kit's one order: protocol v1's, then the kit-internal ones (a list that does
 * not depend on which case came first, e.g. in a run merged from shards).
 * @param ops - operations
 * @returns them, each once, in that order
 * @example inOperationOrder(['merchant.webhook', 'gateway.upload']) // ['gateway.upload', 'merchant.webhook']
 */
export function inOperationOrder(ops: Iterable<Operation>): Operation[] {
  const order: readonly string[] = [...PROTOCOL_OPERATIONS, ...KIT_OPERATIONS];
  return [...new Set(ops)].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
