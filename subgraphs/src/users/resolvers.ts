import type { GraphQLResolverMap } from '@apollo/subgraph';
import { identityOf, type SubgraphContext } from '../context.js';
import { addressOf, getUser, type OrderRecord, paymentReferenceOf, type UserRecord } from './data.js';
import { paginateUsers } from './pagination.js';
import { search } from './search.js';
import { timelineOf } from './timeline.js';

// Fields not listed here (User.orders, Order.product, ...) are served by default
// resolvers straight from the records, which keeps the subgraph cheap.
export const usersResolvers: GraphQLResolverMap<SubgraphContext> = {
  Query: {
    user: (_root, args: { id: string }) => getUser(args.id),
    users: (_root, args: { first?: number | null; after?: string | null }) => paginateUsers(args.first, args.after),
    me: (_root, _args, context: SubgraphContext) => {
      const id = identityOf(context);
      return id === null ? null : getUser(id);
    },
    search: (_root, args: { text: string }) => search(args.text),
  },
  User: {
    __resolveReference: (reference: { id: string }) => getUser(reference.id),
    address: (user: UserRecord) => addressOf(user.id),
    orderHistory: (user: UserRecord) => user.orders,
    timeline: (user: UserRecord) => timelineOf(user),
  },
  Order: {
    paymentReference: (order: OrderRecord) => paymentReferenceOf(order.id),
  },
};
