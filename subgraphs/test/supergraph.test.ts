import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { subgraphDefinitions } from '../src/definitions.js';
import { composeSupergraph, SUPERGRAPH_PATH } from '../src/supergraph.js';

describe('supergraph.graphql', () => {
  it('composes without errors and matches the checked-in file (run `pnpm supergraph` if not)', () => {
    const result = composeSupergraph();
    if ('errors' in result) {
      throw new Error(result.errors.map((e) => `${e.code}: ${e.message}`).join('\n'));
    }
    expect(result.supergraphSdl).toContain('USERS @join__graph(name: "users", url: "http://127.0.0.1:4001/graphql")');
    expect(result.supergraphSdl).toBe(readFileSync(SUPERGRAPH_PATH, 'utf8'));
  });

  it('reports composition errors with their codes instead of throwing', () => {
    // products and a second subgraph both resolve Product.name without @shareable.
    const clash = {
      ...subgraphDefinitions.reviews,
      typeDefs: parse(`
        extend schema @link(url: "https://specs.apollo.dev/federation/v2.7", import: ["@key"])
        type Query { other: Product }
        type Product @key(fields: "id") { id: ID! name: String! }`),
    };
    const result = composeSupergraph([subgraphDefinitions.products, clash]);
    expect('errors' in result && result.errors.map((e) => e.code)).toContain('INVALID_FIELD_SHARING');
  });
});
