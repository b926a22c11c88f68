import { defaultPortOf } from '../catalog.js';
import { loadTypeDefs, type SubgraphDefinition } from '../definition.js';
import { usersResolvers } from './resolvers.js';

export const usersSubgraph: SubgraphDefinition = {
  name: 'users',
  typeDefs: loadTypeDefs(new URL('../../src/users/schema.graphql', import.meta.url)),
  resolvers: usersResolvers,
  defaultPort: defaultPortOf('users'),
  // Profiles (and `me`) are a caller's own: a shared cache keeps them per identity only.
  cacheControl: 'private, max-age=30',
};
