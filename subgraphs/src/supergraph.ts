import { composeServices } from '@apollo/composition';
import type { SubgraphDefinition } from './definition.js';
import { subgraphDefinitions } from './definitions.js';

/** The checked-in supergraph at the repository root (same path from src/ and dist/). */
export const SUPERGRAPH_PATH = new URL('../../supergraph.graphql', import.meta.url);

export interface CompositionError {
  code: string;
  message: string;
}

export type CompositionResult = { supergraphSdl: string } | { errors: CompositionError[] };

/**
 * Composes the subgraph SDLs (all three unless a test passes others). Routing URLs are
 * the default local ports, i.e. what `pnpm subgraphs` serves.
 */
export function composeSupergraph(
  definitions: readonly SubgraphDefinition[] = Object.values(subgraphDefinitions),
): CompositionResult {
  const result = composeServices(
    definitions.map(({ name, typeDefs, defaultPort }) => ({
      name,
      typeDefs,
      url: `http://127.0.0.1:${defaultPort}/graphql`,
    })),
  );
  if (result.errors) {
    return {
      errors: result.errors.map((error) => ({
        code: String(error.extensions.code ?? 'COMPOSITION_ERROR'),
        message: error.message,
      })),
    };
  }
  return { supergraphSdl: `${result.supergraphSdl.trimEnd()}\n` };
}
