import { describe, expect, it } from 'vitest';
import { negotiateCoding } from '../src/compression/negotiate.js';

// RFC 9110 §12.5.3 as the gateway reads Accept-Encoding; every mount answers through this.
describe('negotiateCoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip', 'gzip'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['deflate', undefined],
    ['compress, zstd', undefined],
    // A tie goes to gzip (docs/performance.md#compression); weights decide otherwise.
    ['gzip, br', 'gzip'],
    ['br, gzip', 'gzip'],
    ['br;q=1.0, gzip;q=0.999', 'br'],
    ['gzip;q=0.5, br;q=0.6', 'br'],
    // `*` weighs every coding the header does not name; q=0 refuses.
    ['*', 'gzip'],
    ['gzip;q=0, *', 'br'],
    ['*;q=0', undefined],
    ['gzip;q=0, br;q=0', undefined],
    // Identity is chosen only when weighed above every coding we have.
    ['gzip;q=0.5, identity', undefined],
    ['gzip, identity;q=0.5', 'gzip'],
    ['gzip, identity', 'gzip'],
    // A malformed qvalue drops its entry; spaces and parameter case do not matter.
    ['gzip;q=2, br', 'br'],
    ['gzip;q=0.5000, br;q=0.1', 'br'],
    ['gzip;q=abc', undefined],
    [' gzip ; Q=0.4 , br ; q=0.3 ', 'gzip'],
    [['br;q=0.2', 'gzip;q=0.1'], 'br'],
  ])('%j → %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});
