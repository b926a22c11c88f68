import { describe, expect, it } from 'vitest';
import { clientAddressResolver, readTrustedProxies } from '../src/client-address/index.js';
import { normalizeAddress } from '../src/client-address/ip-address.js';

const PROXY = '10.0.0.5';

describe('normalizeAddress', () => {
  it.each([
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['203.0.113.7:52100', '203.0.113.7'],
    ['[2001:DB8:0::1]:443', '2001:db8::1'],
    ['2001:db8:0:0:0:0:0:1', '2001:db8::1'],
  ])('%s is %s', (raw, address) => expect(normalizeAddress(raw)).toBe(address));

  it.each(['unknown', '_hidden', 'garbage', '1.2.3.4.5', '300.1.1.1', 'fe80::1%eth0', '', '1.2.3.4, 5.6.7.8'])(
    '%j is not an address',
    (raw) => expect(normalizeAddress(raw)).toBeUndefined(),
  );
});

describe('readTrustedProxies', () => {
  it('reads a hop count, or addresses and CIDRs of both families', () => {
    expect(readTrustedProxies('2')).toEqual({ ok: true, value: { hops: 2 } });
    expect(readTrustedProxies(' 10.0.0.0/8, ::1 ,fd00::/8,192.168.1.1')).toEqual({
      ok: true,
      value: { cidrs: ['10.0.0.0/8', '::1/128', 'fd00::/8', '192.168.1.1/32'] },
    });
    expect(readTrustedProxies(['10.0.0.0/8'])).toEqual({ ok: true, value: { cidrs: ['10.0.0.0/8'] } });
  });

  it.each(['0', '11', '10.0.0.0/33', '::/129', 'example.com', '10.0.0.0/8,', '10.0.0.1:80', '10.0.0.0/8/1', ''])(
    'refuses %j, naming the format',
    (raw) => {
      const read = readTrustedProxies(raw);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.message).toMatch(/a number of proxies from 1 to 10/);
    },
  );
});

describe('clientAddressResolver', () => {
  it('without TRUSTED_PROXIES: the socket peer, normalised, whatever the headers say', () => {
    const addressOf = clientAddressResolver({});
    expect(addressOf('::ffff:127.0.0.1', { 'x-forwarded-for': '198.51.100.1' })).toBe('127.0.0.1');
    expect(addressOf(undefined, {})).toBe('');
  });

  const cidrs = clientAddressResolver({ trustedProxies: { cidrs: ['10.0.0.0/8', 'fd00::/8'] } });

  it('a peer that is not a trusted proxy is the client: its X-Forwarded-For is ignored', () => {
    expect(cidrs('203.0.113.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('203.0.113.9');
  });

  it('behind trusted proxies: the first hop from the right that is not one of them', () => {
    expect(cidrs(PROXY, { 'x-forwarded-for': '198.51.100.1' })).toBe('198.51.100.1');
    expect(cidrs(PROXY, { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.1.1.1' })).toBe('198.51.100.1');
    expect(cidrs('fd00::9', { 'x-forwarded-for': '2001:DB8::7' })).toBe('2001:db8::7');
    expect(cidrs(`::ffff:${PROXY}`, { 'x-forwarded-for': '::ffff:198.51.100.1' })).toBe('198.51.100.1');
  });

  it('several headers are one list in order (Node joins them): the rightmost still wins', () => {
    expect(cidrs(PROXY, { 'x-forwarded-for': ['6.6.6.6', '198.51.100.1'] as unknown as string })).toBe('198.51.100.1');
  });

  it('garbage or `unknown` stops the walk at the last trusted hop; no header: the proxy', () => {
    expect(cidrs(PROXY, { 'x-forwarded-for': '198.51.100.1, garbage' })).toBe(PROXY);
    expect(cidrs(PROXY, { 'x-forwarded-for': '198.51.100.1, unknown, 10.2.2.2' })).toBe('10.2.2.2');
    expect(cidrs(PROXY, {})).toBe(PROXY);
    expect(cidrs(PROXY, { 'x-forwarded-for': '' })).toBe(PROXY);
  });

  it('reads only the chosen header: Forwarded, with quoting, ports and brackets', () => {
    const forwarded = clientAddressResolver({
      trustedProxies: { cidrs: ['10.0.0.0/8'] },
      clientAddressHeader: 'forwarded',
    });
    const headers = {
      forwarded: 'for=6.6.6.6, for="[2001:db8::1]:4711";proto=https;by=10.0.0.5, For="10.3.3.3:80"',
      'x-forwarded-for': '7.7.7.7',
    };
    expect(forwarded(PROXY, headers)).toBe('2001:db8::1');
    expect(forwarded(PROXY, { 'x-forwarded-for': '7.7.7.7' })).toBe(PROXY);
    expect(forwarded(PROXY, { forwarded: 'for=unknown' })).toBe(PROXY);
    expect(forwarded(PROXY, { forwarded: 'proto=https;host="a,b"' })).toBe(PROXY);
    // The default header: a Forwarded a client sent past an X-Forwarded-For proxy is not read.
    expect(cidrs(PROXY, headers)).toBe('7.7.7.7');
  });

  it('with a hop count: the entry that many proxies in, never further left', () => {
    const one = clientAddressResolver({ trustedProxies: { hops: 1 } });
    const two = clientAddressResolver({ trustedProxies: { hops: 2 } });
    const chain = { 'x-forwarded-for': '6.6.6.6, 198.51.100.1, 10.1.1.1' };
    expect(one('10.9.9.9', chain)).toBe('10.1.1.1');
    expect(two('10.9.9.9', chain)).toBe('198.51.100.1');
    expect(two('10.9.9.9', { 'x-forwarded-for': '198.51.100.1' })).toBe('198.51.100.1');
    expect(two('10.9.9.9', { 'x-forwarded-for': '198.51.100.1, nonsense' })).toBe('10.9.9.9');
    expect(one('10.9.9.9', {})).toBe('10.9.9.9');
  });
});
