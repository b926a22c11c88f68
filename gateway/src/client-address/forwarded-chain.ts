import type { IncomingHttpHeaders } from 'node:http';
import type { ClientAddressHeader } from './trusted-proxies.js';

/**
 * The hops a request passed, as the chosen header lists them, nearest last (each proxy appends
 * the address it received the request from). Several headers of the same name count as one
 * list, in order (RFC 9110 §5.3; Node joins them with ", "). Entries are raw text: a proxy's
 * `unknown` or obfuscated `_name`, and whatever a client wrote, are kept so the walk stops on them.
 */
export function forwardedChain(headers: IncomingHttpHeaders, header: ClientAddressHeader): string[] {
  const raw = headers[header];
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!value) return [];
  if (header === 'x-forwarded-for') return value.split(',').map((entry) => entry.trim());
  return splitOutsideQuotes(value, ',').map(forOf);
}

/** The `for=` parameter of one `Forwarded` element (RFC 7239), unquoted; '' when it has none. */
function forOf(element: string): string {
  for (const pair of splitOutsideQuotes(element, ';')) {
    const equals = pair.indexOf('=');
    if (equals < 0 || pair.slice(0, equals).trim().toLowerCase() !== 'for') continue;
    const value = pair.slice(equals + 1).trim();
    return value.startsWith('"') && value.endsWith('"') && value.length >= 2
      ? value.slice(1, -1).replace(/\\(.)/g, '$1')
      : value;
  }
  return '';
}

/** Splits on `separator` where it is not inside a quoted string. */
function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && quoted) i++;
    else if (char === '"') quoted = !quoted;
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
