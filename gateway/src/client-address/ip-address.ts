import { isIPv4, isIPv6 } from 'node:net';

/**
 * One address in a comparable form, or undefined when `raw` is not an address: IPv6 in its
 * canonical text (lower case, zeros compressed), an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`,
 * what a dual-stack socket reports for an IPv4 peer) as the IPv4 address, a port or brackets
 * (`1.2.3.4:5678`, `[2001:db8::1]:443`, as some proxies write them) dropped. Zone ids (`%eth0`)
 * are refused: they name a link, not a client.
 */
export function normalizeAddress(raw: string): string | undefined {
  let text = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1] ?? '';
  else if (/^\d{1,3}(?:\.\d{1,3}){3}:\d{1,5}$/.test(text)) text = text.slice(0, text.lastIndexOf(':'));
  if (isIPv4(text)) return text;
  if (text.includes('%') || !isIPv6(text)) return undefined;
  // The URL parser writes IPv6 canonically, an IPv4-mapped address's last 32 bits in hex (`::ffff:7f00:1`).
  const canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!mapped) return canonical;
  const high = Number.parseInt(mapped[1] ?? '0', 16);
  const low = Number.parseInt(mapped[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}
