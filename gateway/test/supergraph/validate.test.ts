import { readFileSync } from 'node:fs';
import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { authorization } from '../../src/plugins/authorization/index.js';
import { enforcedFeatures, forApolloGateway } from '../../src/supergraph/security-features.js';
import { validateSupergraph } from '../../src/supergraph/validate.js';

// As the gateway hands it over: the security features its authorization plugin enforces unmarked.
const RAW = readFileSync(SUPERGRAPH_PATH, 'utf8');
const SUPERGRAPH = forApolloGateway(RAW, enforcedFeatures([authorization()]));
const nodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = nodeEnv;
});

describe('validateSupergraph', () => {
  it('refuses security features no plugin enforces, naming each', async () => {
    const result = await validateSupergraph(forApolloGateway(RAW, enforcedFeatures([])));
    expect(result.ok).toBe(false);
    for (const spec of ['authenticated', 'requiresScopes', 'policy']) {
      expect(result.ok ? '' : String((result.error as Error).message)).toContain(
        `https://specs.apollo.dev/${spec}/v0.1 is for: SECURITY but is unsupported`,
      );
    }
  });

  it('accepts the composed supergraph and names its subgraphs', async () => {
    const result = await validateSupergraph(SUPERGRAPH);
    expect(result.ok && [...result.subgraphs].sort()).toEqual(['products', 'reviews', 'users']);
  });

  it.each([
    ['a plain schema', 'type Query { hello: String }'],
    ['text that is not GraphQL', 'this is { not graphql'],
    ['an empty file', ''],
    ['a supergraph cut short (a half-written file)', SUPERGRAPH.slice(0, SUPERGRAPH.length / 2)],
    ['a field of an unknown type', SUPERGRAPH.replace('inStock: Boolean!', 'inStock: Missing!')],
  ])('rejects %s with a one-line reason, without the SDL', async (_name, sdl) => {
    const result = await validateSupergraph(sdl);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).not.toBe('');
    expect(result.reason).not.toContain('\n');
    expect(result.reason.length).toBeLessThanOrEqual(201);
    expect(result.reason).not.toContain('hello: String');
  });

  it('validates under NODE_ENV=production too, where @apollo/gateway would skip it', async () => {
    process.env.NODE_ENV = 'production';
    const result = await validateSupergraph(SUPERGRAPH.replace('inStock: Boolean!', 'inStock: Missing!'));
    expect(result.ok).toBe(false);
  });

  it('rejects a subgraph without a URL unless SUBGRAPH_<NAME>_URL overrides it', async () => {
    const noUrl = SUPERGRAPH.replace('url: "http://127.0.0.1:4002/graphql"', 'url: ""');
    const result = await validateSupergraph(noUrl);
    expect(result).toEqual({ ok: false, reason: 'subgraph without a URL: products' });
    const overridden = await validateSupergraph(noUrl, {
      overrides: { products: { url: 'http://127.0.0.1:9/graphql' } },
    });
    expect(overridden.ok).toBe(true);
  });
});
