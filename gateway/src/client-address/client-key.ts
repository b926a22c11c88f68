import type { ClientKeyOf, Identity } from '../contract/index.js';
import { addressNetwork, DEFAULT_IPV6_PREFIX } from './address-network.js';

/** The key a per-client cap counts a request under, from its client address and, once known, who sent it. */
export type { ClientKeyOf };

/**
 * The one rule for every per-client cap (subscriptions per client, streaming connections, unread
 * answers, the rate limit's address buckets), so that no key many clients share is ever a cap's
 * only key:
 *
 * - A verified JWT subject is one person, a chosen identity: it alone is the key (`sub:<subject>`),
 *   wherever that person connects from, so a person's budget does not grow with their addresses,
 *   and people behind one address (an office, a carrier's NAT) keep theirs apart.
 * - An API key's consumer is an application, whose key ships in every copy of it: its users are
 *   told apart by their network (`api-key:<consumer>@<network>`), so one user holding the cap
 *   locks out no other.
 * - Anyone else is their network (`ip:<network>`): an IPv4 address, or an IPv6 address's first
 *   `ipv6Prefix` bits (CLIENT_IPV6_PREFIX), which one client holds whole.
 */
export function clientKey(address: string, identity: Identity | undefined, ipv6Prefix = DEFAULT_IPV6_PREFIX): string {
  if (identity?.subject) return `sub:${identity.subject}`;
  const network = addressNetwork(address, ipv6Prefix);
  if (identity?.consumer) return `api-key:${identity.consumer}@${network}`;
  return `ip:${network}`;
}
