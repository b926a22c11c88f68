import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { readTrustedProxies, requestSchemeResolver, type TrustedProxies } from '../src/client-address/index.js';

const PROXY = '10.0.0.5';

function proxies(raw: string): TrustedProxies {
  const read = readTrustedProxies(raw);
  if (!read.ok) throw new Error(read.message);
  return read.value;
}

const request = (socketAddress: string, headers: IncomingHttpHeaders = {}, encrypted = false) => ({
  encrypted,
  socketAddress,
  headers,
});

describe('requestSchemeResolver', () => {
  it('without trusted proxies: https only over TLS, whatever the headers say', () => {
    const schemeOf = requestSchemeResolver({});
    expect(schemeOf(request(PROXY, { 'x-forwarded-proto': 'https' }))).toBe('http');
    expect(schemeOf(request(PROXY, {}, true))).toBe('https');
  });

  it("believes a trusted proxy's X-Forwarded-Proto, its first value (the edge's)", () => {
    const schemeOf = requestSchemeResolver({ trustedProxies: proxies('10.0.0.0/8') });
    expect(schemeOf(request(`::ffff:${PROXY}`, { 'x-forwarded-proto': 'https' }))).toBe('https');
    expect(schemeOf(request(PROXY, { 'x-forwarded-proto': 'HTTPS, http' }))).toBe('https');
    expect(schemeOf(request(PROXY, { 'x-forwarded-proto': 'http' }))).toBe('http');
    expect(schemeOf(request(PROXY, { 'x-forwarded-proto': 'gopher' }))).toBe('http');
    expect(schemeOf(request(PROXY))).toBe('http');
  });

  it('ignores it from a peer that is not a trusted proxy', () => {
    const schemeOf = requestSchemeResolver({ trustedProxies: proxies('10.0.0.0/8') });
    expect(schemeOf(request('203.0.113.7', { 'x-forwarded-proto': 'https' }))).toBe('http');
  });

  it('with a hop count, believes the nearest hop', () => {
    const schemeOf = requestSchemeResolver({ trustedProxies: proxies('1') });
    expect(schemeOf(request('203.0.113.7', { 'x-forwarded-proto': 'https' }))).toBe('https');
  });

  it('with CLIENT_ADDRESS_HEADER=forwarded, reads proto= of Forwarded and never X-Forwarded-Proto', () => {
    const schemeOf = requestSchemeResolver({ trustedProxies: proxies(PROXY), clientAddressHeader: 'forwarded' });
    expect(schemeOf(request(PROXY, { forwarded: 'for=203.0.113.7;proto=https;host=api.example' }))).toBe('https');
    expect(schemeOf(request(PROXY, { forwarded: 'for="[2001:db8::1]";Proto="HTTPS", for=10.0.0.9;proto=http' }))).toBe(
      'https',
    );
    expect(schemeOf(request(PROXY, { 'x-forwarded-proto': 'https' }))).toBe('http');
  });
});
