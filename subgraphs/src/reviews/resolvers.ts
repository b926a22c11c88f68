import type { GraphQLResolverMap } from '@apollo/subgraph';
import { identityOf, type SubgraphContext } from '../context.js';
import { type ReviewStore, reviewStore } from './data.js';
import { type AddReviewInput, validateNewReview } from './validation.js';

/**
 * Resolvers over a given store, so tests can mutate a private store. Product and User
 * need no __resolveReference: the reference `{ id }` is all their `reviews` field needs,
 * and an unknown id simply has no reviews.
 */
export function createReviewsResolvers(store: ReviewStore): GraphQLResolverMap<SubgraphContext> {
  return {
    Query: {
      review: (_root, args: { id: string }) => store.get(args.id),
    },
    Mutation: {
      addReview: (_root, args: { input: AddReviewInput }, context: SubgraphContext) =>
        store.add(validateNewReview(identityOf(context), args.input)),
    },
    Product: { reviews: (product: { id: string }) => store.forProduct(product.id) },
    User: { reviews: (user: { id: string }) => store.forAuthor(user.id) },
  };
}

export const reviewsResolvers = createReviewsResolvers(reviewStore);
