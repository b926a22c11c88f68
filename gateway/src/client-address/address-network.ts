import { isIPv6 } from 'node:net';
import { normalizeAddress } from './ip-address.js';

/** CLIENT_IPV6_PREFIX's default: the /64 an ISP or a cloud gives one subscriber or one host. */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * The network an address stands for, as address-keyed caps count clients: an IPv4 address is
 * itself; an IPv6 address is its first `ipv6Prefix` bits (`2001:db8:1:2::/64`), because one IPv6
 * client holds a whole /64 or more and may pick a new address in it for every request (privacy
 * addresses). An IPv4-mapped address counts as IPv4. A peer on one of the gateway's links, which
 * Node reports with the link's zone (`fe80::1%eth0`), is its network on that link
 * (`fe80::/64%eth0`): the zone is the gateway's interface, the address the client's choice. Text
 * that is not an address is kept as it is.
 */
export function addressNetwork(raw: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  const zone = /^([0-9A-Fa-f:.]+)(%[^%]+)$/.exec(raw.trim());
  if (zone && isIPv6(zone[1] ?? '')) return `${addressNetwork(zone[1] ?? '', ipv6Prefix)}${zone[2]}`;
  const address = normalizeAddress(raw);
  if (address === undefined) return raw;
  if (!isIPv6(address) || ipv6Prefix >= 128) return address;
  const groups = expand(address);
  let bits = ipv6Prefix;
  const masked = groups.map((group) => {
    const keep = Math.max(0, Math.min(16, bits));
    bits -= 16;
    return keep === 0 ? 0 : group & (0xffff << (16 - keep)) & 0xffff;
  });
  // The URL parser writes the network in the same canonical text normalizeAddress does.
  const text = masked.map((group) => group.toString(16)).join(':');
  return `${new URL(`http://[${text}]/`).hostname.slice(1, -1)}/${ipv6Prefix}`;
}

/** The eight 16-bit groups of a canonical IPv6 address (no embedded IPv4: normalizeAddress wrote it in hex). */
function expand(address: string): number[] {
  const [head = '', tail] = address.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}
