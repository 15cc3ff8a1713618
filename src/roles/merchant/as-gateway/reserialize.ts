/**
 * What a merchant's framework writes when it re-serializes a parsed JSON body before verifying
 * (a mistake: §5.5, R3 sign the bytes received): the forged webhooks of `webhook.reserialized`
 * are signed over these texts, so a merchant that verifies a re-serialization accepts one of
 * them whatever its language — seed-independent, one forged call per common serializer.
 * @module
 */

import type { MerchantInputs } from '../../../vectors/types.js';

/** The serializers: JavaScript's `JSON.stringify`, PHP's `json_encode` (defaults), Python's `json.dumps` (defaults). */
export type Reserializer = NonNullable<NonNullable<MerchantInputs['signed']>['body']>;

/**
 * The text each serializer writes for a parsed JSON value.
 * @example RESERIALIZE['python-json-dumps']({ a: 'é/', b: [1, 2] }) // '{"a": "\\u00e9/", "b": [1, 2]}'
 */
export const RESERIALIZE: Readonly<Record<Reserializer, (value: unknown) => string>> = {
  'compact-re-serialization': (value) => JSON.stringify(value),
  // json_encode($v): no white space, "/" escaped as "\/", every non-ASCII character as \uXXXX (UTF-16 units)
  'php-json-encode': (value) => write(value, ',', ':', (s) => asciiString(s).replace(/\//g, '\\/')),
  // json.dumps(v): ", " and ": " between items, ensure_ascii (every non-ASCII character as \uXXXX)
  'python-json-dumps': (value) => write(value, ', ', ': ', asciiString),
};

// --- internal ---

function write(value: unknown, comma: string, colon: string, str: (s: string) => string): string {
  const go = (v: unknown): string => {
    if (typeof v === 'string') return str(v);
    if (Array.isArray(v)) return `[${v.map(go).join(comma)}]`;
    if (v !== null && typeof v === 'object')
      return `{${Object.entries(v)
        .map(([k, x]) => `${str(k)}${colon}${go(x)}`)
        .join(comma)}}`;
    return JSON.stringify(v);
  };
  return go(value);
}

/** A JSON string with every character above U+007F written as a lower-case \uXXXX escape. */
function asciiString(s: string): string {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
