import { defaultPortOf } from '../catalog.js';
import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { reviewsResolvers } from './resolvers.js';

export const reviewsSubgraph: SubgraphDefinition = {
  name: 'reviews',
  typeDefs: loadTypeDefs(new URL('../../src/reviews/schema.graphql', import.meta.url)),
  resolvers: reviewsResolvers,
  defaultPort: defaultPortOf('reviews'),
};
