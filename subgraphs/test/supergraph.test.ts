import { readFileSync } from 'node:fs';
import { type ConstDirectiveNode, Kind, parse, print } from 'graphql';
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

  it('carries the users authorization directives, their specs linked for: SECURITY', () => {
    const result = composeSupergraph();
    if ('errors' in result) throw new Error('composition failed');
    const document = parse(result.supergraphSdl);
    const links = document.definitions
      .flatMap((d) => (d.kind === Kind.SCHEMA_DEFINITION ? (d.directives ?? []) : []))
      .map((d) => print(d));
    for (const spec of ['authenticated', 'requiresScopes', 'policy']) {
      expect(links).toContain(`@link(url: "https://specs.apollo.dev/${spec}/v0.1", for: SECURITY)`);
    }
    const directivesOf = (type: string, field: string) => {
      const definition = document.definitions.find(
        (d) => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === type,
      );
      if (definition?.kind !== Kind.OBJECT_TYPE_DEFINITION) throw new Error(`no type ${type}`);
      const directives: readonly ConstDirectiveNode[] =
        definition.fields?.find((f) => f.name.value === field)?.directives ?? [];
      return directives.filter((d) => !d.name.value.startsWith('join__')).map((d) => print(d));
    };
    expect(directivesOf('User', 'address')).toEqual(['@authenticated']);
    expect(directivesOf('User', 'orderHistory')).toEqual([
      '@requiresScopes(scopes: [["orders:read"]])',
      '@listSize(assumedSize: 5)',
    ]);
    // What the §A benchmark queries select stays unguarded, so their rows stay comparable.
    expect(directivesOf('User', 'email')).toEqual([]);
    expect(directivesOf('User', 'orders')).toEqual(['@listSize(assumedSize: 5)']);
    expect(directivesOf('Order', 'paymentReference')).toEqual(['@policy(policies: [["support"]])']);
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
