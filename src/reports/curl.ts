/**
 * The curl command of an HTTP call, byte-exact: pasted into any POSIX shell, it sends the method,
 * the URL, the headers in order and the body bytes the kit sent — nothing more that the kit did
 * not send (curl's own `Accept`, `User-Agent`, a form `Content-Type`), nothing changed on the way
 * (the URL as the kit's HTTP client sent it: parsed as a WHATWG URL, its `/../` resolved, its
 * non-ASCII percent-encoded; curl's globbing of `[` and `{` off). A body outside printable ASCII (an LF, a CR, a BOM,
 * non-ASCII text) is written by `printf` into `--data-binary @-`; `-d` is never used (it strips
 * newlines).
 * @module
 */
import { isPrintableAscii, shellPrintf, shellQuote } from '../shell-quote.js';

/** The longest body a curl command carries; a longer one is named, not written (results.json has it). */
export const CURL_MAX_BODY = 4000;

/**
 * A curl command that sends an HTTP request again as it went on the wire: method, URL, every
 * header in order, the body. A gateway may refuse it now for its timestamp or its nonce, used once.
 * @param sent - the request, as a step's answer records it (`sent` of the gateway role, `call` of
 *   the merchant role): `method`, `url`, `headers` as `[name, value]` pairs, `body` sent as its UTF-8
 * @returns the command, or undefined when `sent` is not a request
 * @example
 * curlCommand({
 *   method: 'POST',
 *   url: 'http://127.0.0.1:8080/n',
 *   headers: [['Content-Type', 'application/json']],
 *   body: '{}\n',
 * })
 * // "printf '{}\\n' | curl -sS -i --globoff -X POST http://127.0.0.1:8080/n -H 'Content-Type: application/json' \
 * //   -H Accept: -H User-Agent: --data-binary @-"
 */
export function curlCommand(sent: unknown): string | undefined {
  if (typeof sent !== 'object' || sent === null) return undefined;
  const {
    method,
    url,
    headers,
    body,
    parts: multipart,
  } = sent as {
    method?: unknown;
    url?: unknown;
    headers?: unknown;
    body?: unknown;
    parts?: unknown;
  };
  if (typeof method !== 'string' || typeof url !== 'string' || !Array.isArray(headers)) return undefined;
  const pairs = headers.filter(
    (h): h is [string, string] => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string',
  );
  if (Array.isArray(multipart)) return multipartCurl(method, url, pairs, multipart);
  // a body recorded by its size alone (an upload's raw bytes): no command can send it again from the record
  const { bodySize } = sent as { bodySize?: unknown };
  if (body === undefined && typeof bodySize === 'number' && bodySize > 0) return undefined;
  // Host, Content-Length and Connection are curl's to write, as they were undici's
  const sentHeaders = pairs.filter(([name]) => !/^(content-length|host|connection)$/i.test(name));
  const has = (name: string): boolean => pairs.some(([n]) => n.toLowerCase() === name);
  const hasBody = typeof body === 'string' && body !== '';
  const parts = ['curl', '-sS', '-i', '--globoff', '-X', word(method), word(wireUrl(url))];
  // `-H 'Name:'` would remove the header: an empty value is written `Name;`
  for (const [name, value] of sentHeaders) parts.push('-H', word(value === '' ? `${name};` : `${name}: ${value}`));
  // what curl adds of its own, the kit did not send
  // (and curl before 8 sends `Expect: 100-continue` with a body over 1 KiB)
  const added = ['Accept', 'User-Agent', ...(hasBody ? ['Content-Type'] : [])];
  if (hasBody && Buffer.byteLength(body) > 1024) added.push('Expect');
  for (const name of added) if (!has(name.toLowerCase())) parts.push('-H', `${name}:`);
  if (!hasBody) return parts.join(' ');
  if (body.length > CURL_MAX_BODY) return [...parts, '--data-binary', "'<the body: see results.json>'"].join(' ');
  if (isPrintableAscii(body)) return [...parts, '--data-binary', shellQuote(body)].join(' ');
  return `${shellPrintf(body)} | ${[...parts, '--data-binary', '@-'].join(' ')}`;
}

// --- internal ---

/** A part of a multipart upload as the gateway role records it: a text part's value, or a file part's size. */
interface SentPart {
  readonly name: string;
  readonly value?: string;
  readonly filename?: string;
  readonly contentType?: string;
  readonly size?: number;
}

/**
 * The curl command of a multipart upload: each part in order (`--form-string` for a text part, so a value
 * starting with `@` or `<` is sent as written; `-F name=@…;filename=…;type=…` for a file part), the file's
 * bytes (byte i is i mod 256, the kit's test file) made by node. curl writes its own boundary and
 * Content-Type: the recorded one is left out.
 */
function multipartCurl(
  method: string,
  url: string,
  headers: ReadonlyArray<readonly [string, string]>,
  raw: readonly unknown[],
): string | undefined {
  const parts = raw.filter(
    (p): p is SentPart => typeof p === 'object' && p !== null && typeof (p as SentPart).name === 'string',
  );
  if (parts.length !== raw.length) return undefined;
  const files = parts.filter((p) => p.value === undefined);
  const source = files.length === 1 ? '-' : 'pgv2kit-upload.bin';
  const out = ['curl', '-sS', '-i', '--globoff', '-X', word(method), word(wireUrl(url))];
  for (const [name, value] of headers)
    if (!/^(content-length|content-type|host|connection)$/i.test(name))
      out.push('-H', word(value === '' ? `${name};` : `${name}: ${value}`));
  for (const name of ['Accept', 'User-Agent'])
    if (!headers.some(([n]) => n.toLowerCase() === name.toLowerCase())) out.push('-H', `${name}:`);
  for (const p of parts) {
    if (p.value !== undefined) {
      out.push('--form-string', word(`${p.name}=${p.value}`));
      continue;
    }
    const filename = p.filename !== undefined ? `;filename=${formValue(p.filename)}` : '';
    const type = p.contentType !== undefined ? `;type=${formValue(p.contentType)}` : '';
    out.push('-F', word(`${p.name}=@${source}${filename}${type}`));
  }
  if (files.length === 0) return out.join(' ');
  const size = Math.max(0, ...files.map((f) => f.size ?? 0));
  const script = `process.stdout.write(Buffer.from(Array.from({ length: ${size} }, (_, i) => i % 256)))`;
  const bytes = `node -e ${shellQuote(script)}`;
  return source === '-' ? `${bytes} | ${out.join(' ')}` : `${bytes} > ${source} && ${out.join(' ')}`;
}

/** A filename or type in curl's -F syntax: double-quoted when it holds what the syntax reads (`;`, `,`, `"`). */
function formValue(text: string): string {
  return /[;,"\\]/.test(text) ? `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"` : text;
}

/**
 * The URL as undici sends it (a WHATWG URL: dot segments resolved, non-ASCII percent-encoded, no fragment); else
 * as it is.
 */
function wireUrl(url: string): string {
  try {
    const u = new URL(url);
    u.hash = '';
    return u.href;
  } catch {
    return url;
  }
}

/**
 * A word of the command: quoted when it is printable ASCII; else its bytes by printf (a URL or header has no
 * trailing LF to lose).
 */
function word(text: string): string {
  return isPrintableAscii(text) ? shellQuote(text) : `"$(${shellPrintf(text)})"`;
}
