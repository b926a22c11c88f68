import type { SubgraphDefinition, SubgraphName } from './definition.js';
import { productsSubgraph } from './products/subgraph.js';
import { reviewsSubgraph } from './reviews/subgraph.js';
import { usersSubgraph } from './users/subgraph.js';

/** Every subgraph of catalog.ts by name, in composition order (a test holds the two equal). */
export const subgraphDefinitions: Readonly<Record<SubgraphName, SubgraphDefinition>> = Object.freeze({
  users: usersSubgraph,
  products: productsSubgraph,
  reviews: reviewsSubgraph,
});
