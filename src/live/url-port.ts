/**
 * What is wrong with the port of a URL the proxies are given to connect to (`--upstream`, `--merchant`), in words
 * for their messages: a port past 65535 (which the URL parser refuses without saying why) or port 0 (which parses,
 * and which nothing can be reached at).
 * @module
 */

/**
 * The problem with a URL's port, if any.
 * @param text - the URL as given
 * @returns `its port 70000 is not from 1 to 65535`, or undefined when the port is fine or there is none
 * @example urlPortProblem('http://127.0.0.1:70000') // 'its port 70000 is not from 1 to 65535'
 * @example urlPortProblem('http://127.0.0.1:8080') // undefined
 */
export function urlPortProblem(text: string): string | undefined {
  const port = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*:(\d+)(?:[/?#]|$)/i.exec(text)?.[1];
  if (port === undefined) return undefined;
  return Number(port) === 0 || Number(port) > 65535 ? `its port ${port} is not from 1 to 65535` : undefined;
}
