import { describe, expect, it } from 'vitest';
import { SUBGRAPH_NAMES, SUBGRAPHS } from '../src/catalog.js';
import { subgraphDefinitions } from '../src/definitions.js';
import { composeSupergraph } from '../src/supergraph.js';

describe('the one list of subgraphs (catalog.ts)', () => {
  it('has a definition for each name, with its port, and nothing else', () => {
    expect(Object.keys(subgraphDefinitions)).toEqual(SUBGRAPH_NAMES);
    for (const { name, port } of SUBGRAPHS) {
      expect(subgraphDefinitions[name].name).toBe(name);
      expect(subgraphDefinitions[name].defaultPort).toBe(port);
    }
  });

  it('gives the supergraph its subgraphs and URLs', () => {
    const result = composeSupergraph();
    if (!('supergraphSdl' in result)) throw new Error('composition failed');
    for (const { name, port } of SUBGRAPHS) {
      expect(result.supergraphSdl).toContain(`url: "http://127.0.0.1:${port}/graphql"`);
      expect(result.supergraphSdl).toMatch(new RegExp(`${name.toUpperCase()} @join__graph\\(name: "${name}"`));
    }
  });
});
