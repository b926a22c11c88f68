import { describe, expect, it } from 'vitest';
import { LogThrottle } from '../src/log-throttle.js';

describe('LogThrottle', () => {
  it('lets `limit` lines through per interval and reports how many it held back', () => {
    let now = 0;
    const throttle = new LogThrottle(2, 1000, () => now);
    expect([throttle.take(), throttle.take(), throttle.take(), throttle.take()]).toEqual([0, 0, undefined, undefined]);
    now = 999;
    expect(throttle.take()).toBeUndefined();
    now = 1000;
    expect(throttle.take()).toBe(3);
    expect(throttle.take()).toBe(0);
    expect(throttle.take()).toBeUndefined();
  });
});
