import { defaultPortOf } from '../catalog.js';
import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { reviewsResolvers } from './resolvers.js';

export const reviewsSubgraph: SubgraphDefinition = {
  name: 'reviews',
  typeDefs: loadTypeDefs(new URL('../../src/reviews/schema.graphql', import.meta.url)),
  resolvers: reviewsResolvers,
  defaultPort: defaultPortOf('reviews'),
  // New reviews arrive all the time; addReview also invalidates what it changes.
  cacheControl: 'public, max-age=5',
};
