import type { GraphQLResolverMap } from '@apollo/subgraph';
import { identityOf, type SubgraphContext } from '../context.js';
import { reviewsUrl } from '../dataset.js';
import { badUserInput } from '../errors.js';
import { digestOf, type PendingUpload, UploadScalar } from '../multipart-request.js';
import { PubSub } from '../pubsub.js';
import { type ReviewRecord, type ReviewStore, reviewStore } from './data.js';
import { type AddReviewArgs, validateNewReview } from './validation.js';

/**
 * The most reviews a product's or a user's list serves: the sizes the schema declares with
 * `@listSize(assumedSize:)`, which the gateway's cost estimate trusts. The seeded data stays
 * below them (at most 20 per product, 13 per author); without the cap, one client adding
 * reviews could make everyone's answers larger than the estimate their queries passed.
 */
export const MAX_REVIEWS_PER_PRODUCT = 25;
export const MAX_REVIEWS_PER_AUTHOR = 15;

/** The `max` most recent, oldest first. */
const latest = (reviews: readonly ReviewRecord[], max: number): readonly ReviewRecord[] =>
  reviews.length > max ? reviews.slice(-max) : reviews;

/**
 * Resolvers over a given store and stream of added reviews, so tests can use private ones.
 * Product and User need no __resolveReference: the reference `{ id }` is all their `reviews`
 * field needs, and an unknown id simply has no reviews.
 */
export function createReviewsResolvers(
  store: ReviewStore,
  added: PubSub<ReviewRecord> = new PubSub(),
): GraphQLResolverMap<SubgraphContext> {
  return {
    Upload: UploadScalar,
    Query: {
      review: (_root, args: { id: string }) => store.get(args.id),
    },
    Mutation: {
      addReview: (_root, args: AddReviewArgs, context: SubgraphContext) => {
        const review = store.add(validateNewReview(identityOf(context), args));
        added.publish(review);
        // The product's and the author's review lists changed: the gateway's cached copies must go.
        // So must `review(id:)` answers: one may have asked for this id before it existed (null).
        // A root entry's key holds its arguments only as a digest, so the root entries go as a
        // type (`Query`): every `review(id:)` kept, none of the products' or users' entries.
        context.invalidate?.push(
          { kind: 'entity', subgraph: 'reviews', type: 'Product', key: { id: review.product.id } },
          { kind: 'entity', subgraph: 'reviews', type: 'User', key: { id: review.author.id } },
          { kind: 'type', subgraph: 'reviews', type: 'Query' },
        );
        return review;
      },
      // The photo is hashed as it streams in, never stored: the answer proves the bytes arrived intact.
      addReviewPhoto: async (_root, args: { reviewId: string; photo: PendingUpload }) => {
        if (!store.get(args.reviewId)) throw badUserInput('No review has this id.', 'reviewId');
        return { reviewId: args.reviewId, ...(await digestOf(args.photo)) };
      },
    },
    Subscription: {
      reviewAdded: {
        subscribe: (_root, args: { productId?: string | null }) => {
          const { productId } = args;
          return added.subscribe(productId == null ? undefined : (review) => review.product.id === productId);
        },
        // Each event is the stored review itself; author and product are its entity references.
        resolve: (review: ReviewRecord) => review,
      },
    },
    Product: {
      reviews: (product: { id: string }) => latest(store.forProduct(product.id), MAX_REVIEWS_PER_PRODUCT),
      reviewsUrl: (product: { id: string }) => reviewsUrl(product.id),
    },
    User: { reviews: (user: { id: string }) => latest(store.forAuthor(user.id), MAX_REVIEWS_PER_AUTHOR) },
  };
}

export const reviewsResolvers = createReviewsResolvers(reviewStore);
