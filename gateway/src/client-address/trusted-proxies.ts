import { BlockList } from 'node:net';
import type { Parsed } from '../settings/kinds.js';
import { normalizeAddress } from './ip-address.js';

/**
 * TRUSTED_PROXIES: which hops in front of the gateway may say who the client is. Either the
 * proxies' addresses (`cidrs`: IPv4 and IPv6 networks or single addresses), checked hop by hop,
 * or how many proxies there are (`hops`), when their addresses are not known in advance. Unset:
 * no hop is trusted and the client is the socket's peer, whatever the headers say.
 */
export type TrustedProxies = { readonly cidrs: readonly string[] } | { readonly hops: number };

/** The headers a trusted proxy may name the client in (CLIENT_ADDRESS_HEADER); only the one chosen is read. */
export const CLIENT_ADDRESS_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type ClientAddressHeader = (typeof CLIENT_ADDRESS_HEADERS)[number];

export const TRUSTED_PROXIES_FORMAT =
  'a number of proxies from 1 to 10, or a comma-separated list of IPv4/IPv6 addresses and CIDRs (10.0.0.0/8, fd00::/8)';

const MAX_HOPS = 10;

/** Reads TRUSTED_PROXIES from the environment (`"2"`, `"10.0.0.0/8, ::1"`) or the file (`2`, `["10.0.0.0/8"]`). */
export function readTrustedProxies(raw: unknown): Parsed<TrustedProxies> {
  const text = Array.isArray(raw) ? raw.join(',') : typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || text.trim() === '') return failed(raw);
  if (/^\s*\d+\s*$/.test(text)) {
    const hops = Number(text);
    return hops >= 1 && hops <= MAX_HOPS ? { ok: true, value: { hops } } : failed(raw);
  }
  const cidrs: string[] = [];
  for (const part of text.split(',')) {
    const cidr = normalizeCidr(part);
    if (!cidr)
      return { ok: false, message: `expected ${TRUSTED_PROXIES_FORMAT}; ${JSON.stringify(part.trim())} is not one` };
    cidrs.push(cidr);
  }
  return { ok: true, value: { cidrs } };
}

function failed(raw: unknown): Parsed<TrustedProxies> {
  return { ok: false, message: `expected ${TRUSTED_PROXIES_FORMAT}, got ${JSON.stringify(raw)}` };
}

/** `10.0.0.0/8` or a single address (`/32`, `/128`) in canonical form, or undefined. */
function normalizeCidr(raw: string): string | undefined {
  const [address = '', prefix, extra] = raw.trim().split('/');
  if (extra !== undefined) return undefined;
  const network = normalizeAddress(address);
  if (!network || /[[\]]/.test(address) || /^\d{1,3}(?:\.\d{1,3}){3}:/.test(address)) return undefined;
  const max = network.includes(':') ? 128 : 32;
  if (prefix === undefined) return `${network}/${max}`;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max) return undefined;
  return `${network}/${Number(prefix)}`;
}

/** The trusted networks as a set that answers "is this address one of them?". */
export function trustedNetworks(cidrs: readonly string[]): (address: string) => boolean {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = '', prefix = ''] = cidr.split('/');
    list.addSubnet(network, Number(prefix), network.includes(':') ? 'ipv6' : 'ipv4');
  }
  return (address) => list.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
}
