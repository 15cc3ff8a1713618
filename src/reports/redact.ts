/**
 * Secret masking for reports: every text a report writes passes through a
 * {@link Redactor} — the kit's one masker (src/scheme/mask.ts, which the terminal, `--json`
 * and error messages use too) with the same rule: each secret of 6 characters or more in any
 * ASCII case, JSON-escaped, percent-encoded or HTML-escaped; any run of 12 bytes of a secret
 * (ASCII case ignored: a trimmed, truncated or re-cased secret; shorter shared runs such as
 * `-gateway` stay readable); base64 and base64url runs that decode to secret material, in free
 * text and in contents alike. It adds
 * content carried as `contentB64` (decoded, masked, stored as `contentText`). The model is
 * masked as data before any page is rendered; nothing rewrites a rendered document.
 * @module
 */
import { fromBase64 } from '../scheme/bytes.js';
import { Masker } from '../scheme/mask.js';
import type { Json } from '../subjects/subject.js';

export { BASE64_MASK, FRAGMENT_BYTES, MIN_SECRET_LENGTH, type MaskRange } from '../scheme/mask.js';

/**
 * Masks secrets in texts, bytes and protocol JSON values: the kit's one {@link Masker} (its rule:
 * src/scheme/mask.ts), plus `…B64` JSON contents.
 */
export class Redactor extends Masker {
  /**
   * A protocol JSON value with secrets masked and keys sorted: `contentB64` becomes
   * `contentText` (the decoded content, masked); any other `…B64` whose bytes hold
   * secret material becomes `…Text` the same way; every string is masked as text.
   * @param value - an expected or got value
   * @returns the clean value
   */
  json(value: Json): Json {
    if (typeof value === 'string') return this.text(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value)) {
      const v = value[key] as Json;
      const bytes = key.endsWith('B64') && typeof v === 'string' ? decodeBase64(v) : undefined;
      if (bytes && (key === 'contentB64' || this.holdsSecret(bytes)))
        out[this.text(`${key.slice(0, -3)}Text`)] = this.plain(bytes);
      else out[this.text(key)] = this.json(v);
    }
    return sortKeys(out);
  }
}

/**
 * The redactor of a set of secrets, shared by every writer of one process: a text masked once (building the
 * model) is then known as masked when a writer masks it again as a safety net (results.json's data), so that pass
 * costs a look-up, not a scan. A few sets are kept (a command meets one or two).
 * @param secrets - the secrets
 * @returns the redactor of exactly those secrets
 * @example redactorFor(['s3cret-value']) === redactorFor(['s3cret-value']) // true
 */
export function redactorFor(secrets: readonly string[]): Redactor {
  const key = JSON.stringify(secrets);
  let r = REDACTORS.get(key);
  if (!r) {
    if (REDACTORS.size >= 8) REDACTORS.clear();
    r = new Redactor(secrets);
    REDACTORS.set(key, r);
  }
  return r;
}

const REDACTORS = new Map<string, Redactor>();

/**
 * Decodes canonical base64 (the protocol's `…B64` form).
 * @param b64 - base64 text
 * @returns the bytes, or undefined when the text is not canonical base64
 * @example decodeBase64('aGk=') // utf8('hi')
 */
export function decodeBase64(b64: string): Uint8Array | undefined {
  try {
    return fromBase64(b64);
  } catch {
    return undefined;
  }
}

// --- internal ---

function sortKeys(o: { [key: string]: Json }): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const key of Object.keys(o).sort()) out[key] = o[key] as Json;
  return out;
}
