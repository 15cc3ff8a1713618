/**
 * Masks a secret for output: its length and at most its first two characters,
 * never more (a secret of four characters or fewer shows none).
 * @param secret - the application secret
 * @returns a masked form such as `sk******** (10 chars)`
 * @example maskSecret('sk_live_123456') // 'sk************ (14 chars)'
 */
export function maskSecret(secret: string): string {
  const chars = [...secret];
  const shown = chars.length > 4 ? chars.slice(0, 2).join('') : '';
  return `${shown}${'*'.repeat(Math.max(chars.length - [...shown].length, 0))} (${chars.length} chars)`;
}

/**
 * Replaces every occurrence of each secret in a text with its mask.
 * Used on everything the kit prints or writes (messages, logs, reports).
 * @param text - the text to clean
 * @param secrets - the secrets to hide (empty strings are ignored)
 * @returns the text with each secret masked
 * @example redact('secret=abcdef', ['abcdef']) // 'secret=ab**** (6 chars)'
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join(maskSecret(s));
  }
  return out;
}
