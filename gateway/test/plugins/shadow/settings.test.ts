import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/config/parse.js';
import { GatewayConfigError } from '../../../src/errors.js';

describe('SHADOW_* settings', () => {
  it('are off by default, with the defaults the docs state', () => {
    const { shadow } = parseConfig({});
    expect(shadow).toEqual({
      sample: 0.01,
      timeoutMs: 2000,
      maxConcurrency: 8,
      maxResponseBytes: 1024 ** 2,
      forwardHeaders: [],
      logValues: false,
      unorderedPaths: [],
      ignorePaths: [],
    });
  });

  it('read a URL, a supergraph file from the working folder, header names in lower case', () => {
    const { shadow } = parseConfig(
      {
        SHADOW_URL: 'http://router.internal:4000/',
        SHADOW_SUPERGRAPH: 'candidate.graphql',
        SHADOW_FORWARD_HEADERS: 'Authorization, X-Tenant',
        SHADOW_UNORDERED_PATHS: 'topProducts,product.reviews',
      },
      { cwd: '/srv/gateway' },
    );
    expect(shadow).toMatchObject({
      url: 'http://router.internal:4000/',
      supergraph: '/srv/gateway/candidate.graphql',
      forwardHeaders: ['authorization', 'x-tenant'],
      unorderedPaths: ['topProducts', 'product.reviews'],
    });
  });

  it('name every bad one', () => {
    let thrown: unknown;
    try {
      parseConfig({
        SHADOW_URL: 'ftp://x',
        SHADOW_SAMPLE: '2',
        SHADOW_FORWARD_HEADERS: 'bad header',
        SHADOW_IGNORE_PATHS: 'a..b',
      });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayConfigError);
    const fields = (thrown as GatewayConfigError).issues.map((issue) => issue.field).join(' ');
    for (const name of ['SHADOW_URL', 'SHADOW_SAMPLE', 'SHADOW_FORWARD_HEADERS', 'SHADOW_IGNORE_PATHS']) {
      expect(fields).toContain(name);
    }
  });
});
