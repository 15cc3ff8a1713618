/**
 * The S3-like XML error body of the upload address.
 * @module
 */

/**
 * An S3-style error document: `<Error><Code>…</Code><Message>…</Message>…</Error>`,
 * each further element in the order given, text escaped.
 * @param code - the S3 error code, e.g. AccessDenied
 * @param message - the message
 * @param more - further elements, [name, text], e.g. [['Rule', 'field-changed'], ['Field', 'x-amz-date']]
 * @returns the XML text
 * @example
 * const xml = s3ErrorXml('AccessDenied', 'formFields entry key changed');
 * xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>') // true
 * xml.endsWith('<Message>formFields entry key changed</Message></Error>\n') // true
 */
export function s3ErrorXml(code: string, message: string, more: ReadonlyArray<readonly [string, string]> = []): string {
  const elements = [['Code', code], ['Message', message], ...more].map(
    ([name, text]) => `<${name}>${escapeXml(text as string)}</${name}>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error>${elements.join('')}</Error>\n`;
}

/**
 * Escapes text for an XML element: & < > " and control characters XML 1.0 cannot hold (as U+FFFD).
 * @param text - the text
 * @returns the escaped text
 * @example escapeXml('a<b') // 'a&lt;b'
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|\p{Cs}/gu, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
