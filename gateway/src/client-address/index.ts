import type { ClientAddressOf } from '../contract/index.js';
import { DEFAULT_IPV6_PREFIX } from './address-network.js';
import { type ClientKeyOf, clientKey } from './client-key.js';
import { forwardedChain } from './forwarded-chain.js';
import { normalizeAddress } from './ip-address.js';
import { type ClientAddressHeader, type TrustedProxies, trustedNetworks } from './trusted-proxies.js';

export { addressNetwork, DEFAULT_IPV6_PREFIX } from './address-network.js';
export { type ClientKeyOf, clientKey } from './client-key.js';
export { type RequestSchemeOf, requestSchemeResolver, type Scheme, type SchemeFacts } from './request-scheme.js';
export {
  CLIENT_ADDRESS_HEADERS,
  type ClientAddressHeader,
  readTrustedProxies,
  TRUSTED_PROXIES_FORMAT,
  type TrustedProxies,
} from './trusted-proxies.js';

/** Who a request comes from, from its socket's peer and its headers (a contract type). */
export type { ClientAddressOf };

export interface ClientAddressSettings {
  /** TRUSTED_PROXIES; unset: no hop is trusted. */
  readonly trustedProxies?: TrustedProxies | undefined;
  /** CLIENT_ADDRESS_HEADER. Default: `x-forwarded-for`. */
  readonly clientAddressHeader?: ClientAddressHeader;
  /** CLIENT_IPV6_PREFIX: the IPv6 network one client is counted by. Default: 64. */
  readonly clientIpv6Prefix?: number;
}

/** `clientKey` with the settings' IPv6 prefix: what every per-client cap of one gateway keys on. */
export function clientKeyResolver(settings: ClientAddressSettings): ClientKeyOf {
  const prefix = settings.clientIpv6Prefix ?? DEFAULT_IPV6_PREFIX;
  return (address, identity) => clientKey(address, identity, prefix);
}

/**
 * The one place the client's address is decided, for every per-client cap (rate limit,
 * subscription and connection caps, unread answers; each keys on it through `clientKey`) and the
 * log line, on every mount.
 *
 * The socket's peer is the client unless it is a trusted proxy. Then the forwarded chain is read
 * right to left, nearest hop first: each trusted hop's entry names the hop before it, and the
 * first address that is not a trusted proxy is the client. Entries left of it were written by
 * whoever sent the request and are never read, so a client cannot pick its own address. An entry
 * that is not an address (`unknown`, garbage) ends the walk at the last trusted hop. With a hop
 * count, the client is the entry that many hops in, or the farthest there is.
 */
export function clientAddressResolver(settings: ClientAddressSettings): ClientAddressOf {
  const { trustedProxies } = settings;
  const header = settings.clientAddressHeader ?? 'x-forwarded-for';
  const peerOf = (socketAddress: string | undefined) => normalizeAddress(socketAddress ?? '') ?? socketAddress ?? '';
  if (!trustedProxies) return peerOf;
  if ('hops' in trustedProxies) {
    const { hops } = trustedProxies;
    return (socketAddress, headers) => {
      const chain = forwardedChain(headers, header);
      let address = peerOf(socketAddress);
      for (let hop = 1; hop <= hops && hop <= chain.length; hop++) {
        const entry = normalizeAddress(chain[chain.length - hop] ?? '');
        if (!entry) break;
        address = entry;
      }
      return address;
    };
  }
  const trusted = trustedNetworks(trustedProxies.cidrs);
  return (socketAddress, headers) => {
    let address = peerOf(socketAddress);
    if (!trusted(address)) return address;
    const chain = forwardedChain(headers, header);
    for (let index = chain.length - 1; index >= 0; index--) {
      const entry = normalizeAddress(chain[index] ?? '');
      if (!entry) break;
      address = entry;
      if (!trusted(entry)) break;
    }
    return address;
  };
}
