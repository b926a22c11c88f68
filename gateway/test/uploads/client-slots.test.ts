import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/client-address/index.js';
import { UploadSlots } from '../../src/uploads/client-slots.js';

const keyOf = (address: string) => clientKey(address, undefined, 64);

describe('UploadSlots (UPLOAD_MAX_PER_CLIENT)', () => {
  it('gives a client at most its share, others theirs, and takes a released slot back once', () => {
    const slots = new UploadSlots(2, keyOf);
    const first = slots.take('203.0.113.7');
    const second = slots.take('203.0.113.7');
    expect(first && second).toBeTruthy();
    expect(slots.take('203.0.113.7')).toBeUndefined();
    expect(slots.take('203.0.113.8')).toBeDefined();
    first?.release();
    first?.release(); // twice is once
    expect(slots.held('203.0.113.7')).toBe(1);
    const third = slots.take('203.0.113.7');
    expect(third).toBeDefined();
    expect(slots.take('203.0.113.7')).toBeUndefined();
  });

  it('counts an IPv6 client by its network, and forgets a client with nothing in flight', () => {
    const slots = new UploadSlots(1, keyOf);
    const held = slots.take('2001:db8::1');
    expect(slots.take('2001:db8::2')).toBeUndefined(); // the same /64
    expect(slots.take('2001:db8:0:1::1')).toBeDefined(); // another /64
    held?.release();
    expect(slots.held('2001:db8::1')).toBe(0);
    expect(slots.clients).toBe(1);
  });
});
