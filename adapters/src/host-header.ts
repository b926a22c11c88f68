/**
 * Whether a request's Host header can be used: exactly one (RFC 9112 §3.2: a request with
 * several gets 400; Node keeps the first and drops the rest, so a proxy and the gateway could
 * each read a different one), non-empty, and a host a URL can hold (the Apollo integrations
 * build a URL from it and would throw, 500, without one).
 */
export function isUsableHost(host: string | undefined, rawHeaders: readonly string[]): boolean {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]?.toLowerCase() === 'host') count++;
  return count === 1 && typeof host === 'string' && host !== '' && URL.canParse(`http://${host}/`);
}
