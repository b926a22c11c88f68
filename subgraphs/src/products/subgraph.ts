import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { productsResolvers } from './resolvers.js';

export const productsSubgraph: SubgraphDefinition = {
  name: 'products',
  typeDefs: loadTypeDefs(new URL('../../src/products/schema.graphql', import.meta.url)),
  resolvers: productsResolvers,
  defaultPort: 4002,
};
