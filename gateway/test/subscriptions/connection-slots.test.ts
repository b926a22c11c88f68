import { describe, expect, it } from 'vitest';
import { clientKeyResolver } from '../../src/client-address/index.js';
import type { ConnectionGrant } from '../../src/contract/index.js';
import { ConnectionSlots } from '../../src/subscriptions/connection-slots.js';
import { connectionsPerClient } from '../../src/subscriptions/settings.js';

const refusal = (grant: ConnectionGrant) =>
  grant.granted ? undefined : { status: grant.status, code: grant.error.extensions?.code };

describe('ConnectionSlots', () => {
  it('refuses an address its share past SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT with 429; another address still gets one', () => {
    const slots = new ConnectionSlots(10, 2);
    const held = [slots.open('10.0.0.1'), slots.open('10.0.0.1')];
    expect(held.map(refusal)).toEqual([undefined, undefined]);
    expect(refusal(slots.open('10.0.0.1'))).toEqual({ status: 429, code: 'SUBSCRIPTION_MAX_LIMIT' });
    expect(refusal(slots.open('10.0.0.2'))).toBeUndefined();
    // A released slot is the address's again, once (a second release changes nothing).
    const [first] = held;
    if (first?.granted) {
      first.release();
      first.release();
    }
    expect(refusal(slots.open('10.0.0.1'))).toBeUndefined();
    expect(refusal(slots.open('10.0.0.1'))).toEqual({ status: 429, code: 'SUBSCRIPTION_MAX_LIMIT' });
  });

  it('counts an IPv6 client by its network (CLIENT_IPV6_PREFIX), an IPv4-mapped peer as its IPv4 address', () => {
    const slots = new ConnectionSlots(10, 1);
    expect(refusal(slots.open('2001:db8:1:2::1'))).toBeUndefined();
    expect(refusal(slots.open('2001:db8:1:2:a:b:c:d'))).toEqual({ status: 429, code: 'SUBSCRIPTION_MAX_LIMIT' });
    expect(refusal(slots.open('2001:db8:1:3::1'))).toBeUndefined();
    expect(refusal(slots.open('203.0.113.9'))).toBeUndefined();
    expect(refusal(slots.open('::ffff:203.0.113.9'))).toEqual({ status: 429, code: 'SUBSCRIPTION_MAX_LIMIT' });
    const perAddress = new ConnectionSlots(10, 1, clientKeyResolver({ clientIpv6Prefix: 128 }));
    expect(refusal(perAddress.open('2001:db8:1:2::1'))).toBeUndefined();
    expect(refusal(perAddress.open('2001:db8:1:2::2'))).toBeUndefined();
  });

  it('refuses everyone with 503 once all SUBSCRIPTION_MAX_CONNECTIONS are open, and with 503 SHUTTING_DOWN while draining', () => {
    const slots = new ConnectionSlots(2, 2);
    const first = slots.open('10.0.0.1');
    slots.open('10.0.0.2');
    expect(refusal(slots.open('10.0.0.3'))).toEqual({ status: 503, code: 'SUBSCRIPTION_MAX_LIMIT' });
    if (first.granted) first.release();
    expect(refusal(slots.open('10.0.0.3'))).toBeUndefined();
    slots.drain();
    expect(refusal(slots.open('10.0.0.4'))).toEqual({ status: 503, code: 'SHUTTING_DOWN' });
  });
});

describe('connectionsPerClient (the SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT default)', () => {
  it('is the setting when set, else a tenth of SUBSCRIPTION_MAX_CONNECTIONS, at least 1', () => {
    expect(connectionsPerClient(10_000, undefined)).toBe(1000);
    expect(connectionsPerClient(35, undefined)).toBe(3);
    expect(connectionsPerClient(5, undefined)).toBe(1);
    expect(connectionsPerClient(10_000, 7)).toBe(7);
  });
});
