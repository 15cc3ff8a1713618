/**
 * How a request reaches a scenario: a client-role case runs on a base URL of its own,
 * `http://127.0.0.1:<port>/s/<scenario id>`, so every path it calls carries the
 * prefix `/s/<scenario id>`. The gateway strips it, records under the id, and plays the
 * scenario the id names (a function or a map id → {@link Scenario}); an id no scenario
 * has gets the plain gateway, still recorded under its id. Paths without the prefix are
 * the plain gateway, recorded under the plain record.
 * @module
 */
import type { Scenario } from '../vectors/scenario.js';

/** Where scenarios come from: a function, a Map or a plain object, id → scenario. */
export type ScenarioSource =
  ((id: string) => Scenario | undefined) | ReadonlyMap<string, Scenario> | Readonly<Record<string, Scenario>>;

/** A request path split at the scenario prefix. */
export interface ScenarioPath {
  /** The scenario id, percent-decoded; undefined for a plain path. */
  readonly id: string | undefined;
  /** The prefix as sent, e.g. `/s/client.happy-pdf`; '' for a plain path. */
  readonly prefix: string;
  /** The rest of the path, e.g. `/pg/v2/file/generateUploadUrl`. */
  readonly rest: string;
}

/**
 * Splits a path (no query) at the `/s/<id>` prefix.
 * @param path - the path as sent
 * @returns the id, prefix and rest; a path whose id is not valid percent-encoding is plain
 * @example
 * splitScenarioPath(
 *   '/s/client.x/pg/v2/payment/create',
 * ) // { id: 'client.x', prefix: '/s/client.x', rest: '/pg/v2/payment/create' }
 */
export function splitScenarioPath(path: string): ScenarioPath {
  const m = /^\/s\/([^/]+)(.*)$/s.exec(path);
  const id = m ? decodeSegment(m[1] as string) : undefined;
  if (!m || id === undefined) return { id: undefined, prefix: '', rest: path };
  return { id, prefix: `/s/${m[1] as string}`, rest: m[2] as string };
}

/**
 * The path prefix of a scenario id.
 * @param id - the scenario id
 * @returns `/s/<id>`, the id percent-encoded
 * @example scenarioPrefix('client.happy-pdf') // '/s/client.happy-pdf'
 */
export function scenarioPrefix(id: string): string {
  if (typeof id !== 'string' || id === '') throw new RangeError('a scenario id must be a non-empty string');
  return `/s/${encodeURIComponent(id)}`;
}

/**
 * The scenario an id names.
 * @param source - the scenarios (absent: none)
 * @param id - the scenario id (undefined for a plain path)
 * @returns the scenario, or the plain one ({}) when the id names none
 * @throws {RangeError} when the scenario found is not valid ({@link checkScenario})
 * @example lookupScenario(new Map([['a', { upload: { expired: true } }]]), 'a').upload?.expired // true
 */
export function lookupScenario(source: ScenarioSource | undefined, id: string | undefined): Scenario {
  if (source === undefined || id === undefined) return PLAIN;
  const found =
    typeof source === 'function'
      ? source(id)
      : source instanceof Map
        ? source.get(id)
        : Object.hasOwn(source, id)
          ? (source as Record<string, Scenario>)[id]
          : undefined;
  if (found === undefined || found === null) return PLAIN;
  checkScenario(found, id);
  return found;
}

/**
 * Checks a scenario's values (the vectors' schema does the same for vector files).
 * @param scenario - the scenario
 * @param id - its id, for the message
 * @throws {RangeError} for an unknown bytes or signature style, a vendor that is not
 *   lower-case letters and digits, or an extra entry that is not a [string, string] pair
 * @example checkScenario({ formFields: { vendor: 'goog' } }, 'x')
 */
export function checkScenario(scenario: Scenario, id: string): void {
  const bad = (what: string): never => {
    throw new RangeError(`scenario ${JSON.stringify(id)}: ${what}`);
  };
  const { response, formFields } = scenario;
  if (response?.bytes !== undefined && !BYTES.includes(response.bytes))
    bad(`unknown response bytes ${JSON.stringify(response.bytes)}`);
  if (response?.signature !== undefined && !SIGNATURES.includes(response.signature))
    bad(`unknown response signature ${JSON.stringify(response.signature)}`);
  if (formFields?.vendor !== undefined) checkVendor(formFields.vendor, `scenario ${JSON.stringify(id)}`);
  if (formFields?.extra !== undefined) checkExtraFields(formFields.extra, `scenario ${JSON.stringify(id)}`);
}

/**
 * Checks a formFields vendor: lower-case letters and digits (x-<vendor>-algorithm …).
 * @param vendor - the vendor
 * @param where - what it belongs to, for the message
 * @throws {RangeError} when it is not
 * @example checkVendor('amz', 'options')
 */
export function checkVendor(vendor: string, where: string): void {
  if (typeof vendor !== 'string' || !/^[a-z0-9]+$/.test(vendor))
    throw new RangeError(`${where}: vendor must be lower-case letters and digits, not ${JSON.stringify(vendor)}`);
}

/**
 * Checks extra formFields entries: [string, string] pairs whose names are none of the
 * usual entries', `file`, or each other's.
 * @param extra - the entries
 * @param where - what they belong to, for the message
 * @throws {RangeError} when they are not
 * @example checkExtraFields([['x-trace', '1']], 'options')
 */
export function checkExtraFields(extra: ReadonlyArray<readonly [string, string]>, where: string): void {
  const names = new Set<string>();
  if (!Array.isArray(extra)) throw new RangeError(`${where}: extra formFields must be an array of [name, value] pairs`);
  for (const pair of extra as unknown[]) {
    if (
      !Array.isArray(pair) ||
      pair.length !== 2 ||
      typeof pair[0] !== 'string' ||
      typeof pair[1] !== 'string' ||
      pair[0] === ''
    ) {
      throw new RangeError(`${where}: extra formFields must be [name, value] pairs of strings with a non-empty name`);
    }
    const name = pair[0];
    if (RESERVED.test(name) || names.has(name))
      throw new RangeError(
        `${where}: extra formFields entry ${JSON.stringify(name)} repeats an issued name or is reserved`,
      );
    names.add(name);
  }
}

// --- internal ---

const PLAIN: Scenario = Object.freeze({});
const BYTES: readonly string[] = ['compact', 'pretty', 'reordered', 'unicode-escapes', 'null-fields', 'extra-fields'];
const SIGNATURES: readonly string[] = ['valid', 'tampered', 'foreign-app-id', 'wrong-secret', 'missing'];
const RESERVED =
  /^(?:bucket|key|Content-Type|tagging|policy|file|x-[a-z0-9]+-(?:algorithm|credential|date|signature))$/;

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
