import { describe, expect, it } from 'vitest';
import { addressNetwork, clientKey, clientKeyResolver } from '../src/client-address/index.js';

describe('addressNetwork', () => {
  it.each([
    // IPv4 counts address by address, however it is written.
    ['203.0.113.7', 64, '203.0.113.7'],
    ['::ffff:203.0.113.7', 64, '203.0.113.7'],
    ['::ffff:cb00:7107', 1, '203.0.113.7'],
    // IPv6 by its first `prefix` bits, in canonical text.
    ['2001:db8:1:2:a:b:c:d', 64, '2001:db8:1:2::/64'],
    ['2001:DB8:1:2::ffff', 64, '2001:db8:1:2::/64'],
    ['[2001:db8:1:2::1]:443', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2:a:b:c:d', 48, '2001:db8:1::/48'],
    ['2001:db8:1:2:a:b:c:d', 56, '2001:db8:1::/56'],
    ['2001:db8:1:2ff:a:b:c:d', 56, '2001:db8:1:200::/56'],
    ['2001:db8:1:2:a:b:c:d', 60, '2001:db8:1::/60'],
    ['2001:db8:1:1f:a:b:c:d', 60, '2001:db8:1:10::/60'],
    ['2001:db8:1:2:a:b:c:d', 127, '2001:db8:1:2:a:b:c:c/127'],
    ['2001:db8:1:2:a:b:c:d', 128, '2001:db8:1:2:a:b:c:d'],
    ['ffff:ffff::1', 1, '8000::/1'],
    ['::1', 64, '::/64'],
    // An embedded IPv4 that is not IPv4-mapped is an IPv6 address like any other.
    ['64:ff9b::203.0.113.7', 96, '64:ff9b::/96'],
  ])('%s with /%i is %s', (address, prefix, network) => expect(addressNetwork(address, prefix)).toBe(network));

  it('addresses of one /64 are one network, the next /64 another', () => {
    const networks = ['2001:db8::1', '2001:db8::a:b:c:d', '2001:db8:0:0:ffff::'].map((a) => addressNetwork(a, 64));
    expect(new Set(networks).size).toBe(1);
    expect(addressNetwork('2001:db8:0:1::1', 64)).not.toBe(networks[0]);
  });

  it('keeps text that is not an address as it is (a socket without a peer)', () => {
    expect(addressNetwork('', 64)).toBe('');
    expect(addressNetwork('unknown', 64)).toBe('unknown');
  });
});

describe('clientKey', () => {
  it('a verified subject is the key alone, from any address: one person, one budget', () => {
    expect(clientKey('203.0.113.1', { subject: 'alice', consumer: 'app' })).toBe('sub:alice');
    expect(clientKey('2001:db8::1', { subject: 'alice' })).toBe(clientKey('198.51.100.9', { subject: 'alice' }));
  });

  it('two people behind one address are two clients', () => {
    expect(clientKey('10.0.0.1', { subject: 'alice' })).not.toBe(clientKey('10.0.0.1', { subject: 'bob' }));
  });

  it('an API key is shared by its users: never the only key, each user counted by its network', () => {
    expect(clientKey('203.0.113.1', { consumer: 'app' })).toBe('api-key:app@203.0.113.1');
    expect(clientKey('203.0.113.1', { consumer: 'app' })).not.toBe(clientKey('203.0.113.2', { consumer: 'app' }));
    expect(clientKey('2001:db8::1', { consumer: 'app' })).toBe(clientKey('2001:db8::2', { consumer: 'app' }));
    // Not the same client as an anonymous caller at that address, nor another app's user.
    expect(clientKey('203.0.113.1', { consumer: 'app' })).not.toBe(clientKey('203.0.113.1', undefined));
    expect(clientKey('203.0.113.1', { consumer: 'app' })).not.toBe(clientKey('203.0.113.1', { consumer: 'web' }));
  });

  it('anyone else is their network', () => {
    expect(clientKey('::ffff:198.51.100.4', undefined)).toBe('ip:198.51.100.4');
    expect(clientKey('2001:db8:1:2::7', {})).toBe('ip:2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2::7', {}, 128)).toBe('ip:2001:db8:1:2::7');
  });

  it('keeps the kinds apart: a subject, a consumer and an address spelled alike are different clients', () => {
    const keys = new Set([clientKey('x', { subject: 'x' }), clientKey('x', { consumer: 'x' }), clientKey('x', {})]);
    expect(keys.size).toBe(3);
  });
});

describe('clientKeyResolver', () => {
  it('applies CLIENT_IPV6_PREFIX, 64 when unset', () => {
    expect(clientKeyResolver({})('2001:db8:1:2::7')).toBe('ip:2001:db8:1:2::/64');
    expect(clientKeyResolver({ clientIpv6Prefix: 48 })('2001:db8:1:2::7')).toBe('ip:2001:db8:1::/48');
  });
});
