import { defaultPortOf } from '../catalog.js';
import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { productsResolvers } from './resolvers.js';

export const productsSubgraph: SubgraphDefinition = {
  name: 'products',
  typeDefs: loadTypeDefs(new URL('../../src/products/schema.graphql', import.meta.url)),
  resolvers: productsResolvers,
  defaultPort: defaultPortOf('products'),
  // The catalogue changes rarely and is the same for everyone.
  cacheControl: 'public, max-age=60',
};
