import { describe, expect, it } from 'vitest';
import { mostRestrictiveCacheControl } from '../../../src/plugins/header-rules/cache-control.js';

describe('mostRestrictiveCacheControl', () => {
  it('computes the most restrictive cache-control', () => {
    expect(mostRestrictiveCacheControl(['public, max-age=60', 'no-store'])).toBe('no-store');
    expect(mostRestrictiveCacheControl(['public, max-age=60, s-maxage=120', 'public, max-age=10, s-maxage=5'])).toBe(
      'public, max-age=10, s-maxage=5',
    );
    expect(mostRestrictiveCacheControl(['public, max-age=60', 'public'])).toBe('public, max-age=0');
    expect(mostRestrictiveCacheControl(['public, max-age=60', 'no-cache'])).toBe('no-cache, public, max-age=0');
  });
});
