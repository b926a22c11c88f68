import type { RequestSchemeOf } from '../contract/index.js';
import { normalizeAddress } from './ip-address.js';
import { type ClientAddressHeader, type TrustedProxies, trustedNetworks } from './trusted-proxies.js';

/** How a request reached the gateway's listener, or the trusted proxy in front of it: declared in the contract. */
export type { RequestSchemeOf, Scheme, SchemeFacts } from '../contract/index.js';

/**
 * The scheme of the gateway's own origin for one request, which the origin check compares a
 * page's origin with: `https` over TLS; behind a trusted proxy (TRUSTED_PROXIES, the same trust
 * as for the client address), what the proxy says in the header it writes beside the chosen
 * client-address header (`X-Forwarded-Proto`, or `proto=` in `Forwarded`); else `http`. The
 * first value is read, the one the proxy that terminated the client's connection wrote (the
 * proxies behind it pass it on or append theirs). From a peer that is not a trusted proxy the
 * header is the client's word and is ignored.
 */
export function requestSchemeResolver(settings: {
  readonly trustedProxies?: TrustedProxies | undefined;
  readonly clientAddressHeader?: ClientAddressHeader;
}): RequestSchemeOf {
  const { trustedProxies } = settings;
  const header = settings.clientAddressHeader ?? 'x-forwarded-for';
  if (!trustedProxies) return ({ encrypted }) => (encrypted ? 'https' : 'http');
  // With a hop count the nearest hop is believed, as for the client address.
  const networks = 'hops' in trustedProxies ? undefined : trustedNetworks(trustedProxies.cidrs);
  return ({ encrypted, socketAddress, headers }) => {
    if (encrypted) return 'https';
    if (networks && !networks(normalizeAddress(socketAddress ?? '') ?? '')) return 'http';
    const said = header === 'forwarded' ? forwardedProto(headers.forwarded) : firstValue(headers['x-forwarded-proto']);
    return said === 'https' ? 'https' : 'http';
  };
}

function firstValue(raw: string | string[] | undefined): string | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value?.split(',')[0]?.trim().toLowerCase();
}

/** The first `proto=` of a `Forwarded` header (RFC 7239), unquoted and lower case. */
function forwardedProto(raw: string | string[] | undefined): string | undefined {
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  const match = /(?:^|[;,\s])proto\s*=\s*"?([A-Za-z][A-Za-z0-9+.-]*)"?/i.exec(value ?? '');
  return match?.[1]?.toLowerCase();
}
