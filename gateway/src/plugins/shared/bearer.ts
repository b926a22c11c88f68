// Reading a bearer token out of a request, with the RFC 6750 / RFC 7235 distinctions the
// JWT plugin turns into 400 vs 401: no credential, another scheme, a header that does not
// parse, or a token (which may still be invalid).
import type { IncomingHttpHeaders } from 'node:http';

/** RFC 6750 `b64token`: what a bearer credential may contain. A JWT always matches. */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
/** `<scheme> <credentials>`: the scheme, then the rest after a run of spaces/tabs. */
const SCHEME_AND_REST = /^(\S+)(?:[ \t]+([\s\S]*))?$/;

export type Credential =
  /** Nothing was sent (absent or empty header and cookie). */
  | { readonly kind: 'none' }
  /** The header uses another auth scheme (`Basic x`, `Digest ...`, `garbage`). */
  | { readonly kind: 'other-scheme' }
  /** The header names our scheme but its value does not parse (`Bearer`, `Bearer a b`). */
  | { readonly kind: 'malformed' }
  | { readonly kind: 'token'; readonly token: string };

export interface TokenSource {
  /** Lower-case header name. */
  readonly header: string;
  /** Auth scheme, matched case-insensitively; `''` means the header holds the bare token. */
  readonly scheme: string;
  /** Cookie read when the header is absent. */
  readonly cookieName?: string | undefined;
}

const NONE: Credential = { kind: 'none' };

export function readCredential(headers: IncomingHttpHeaders, source: TokenSource): Credential {
  const raw = headers[source.header];
  // Node keeps arrays only for headers it does not join; two values cannot be one credential.
  if (Array.isArray(raw)) return { kind: 'malformed' };
  const value = raw?.trim();
  if (value) return parseHeader(value, source.scheme);
  if (source.cookieName) {
    const token = readCookie(headers.cookie, source.cookieName);
    // A cookie has no scheme to get wrong; any non-empty value is verified (and fails with 401).
    if (token) return { kind: 'token', token };
  }
  return NONE;
}

function parseHeader(value: string, scheme: string): Credential {
  if (scheme === '') return B64TOKEN.test(value) ? { kind: 'token', token: value } : { kind: 'malformed' };
  const match = SCHEME_AND_REST.exec(value);
  if (!match || match[1]?.toLowerCase() !== scheme.toLowerCase()) return { kind: 'other-scheme' };
  const rest = match[2]?.trim() ?? '';
  return B64TOKEN.test(rest) ? { kind: 'token', token: rest } : { kind: 'malformed' };
}

/** The value of cookie `name` (surrounding double quotes removed), or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1 || pair.slice(0, eq).trim() !== name) continue;
    let value = pair.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    return value || undefined;
  }
  return undefined;
}
