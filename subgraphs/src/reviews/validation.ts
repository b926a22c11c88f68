import { isProductId, isUserId } from '../dataset.js';
import { badUserInput, unauthenticated } from '../errors.js';
import type { NewReview } from './data.js';

/** The arguments of `Mutation.addReview`. */
export interface AddReviewArgs {
  productId: string;
  rating: number;
  comment: string;
}

export const MAX_COMMENT_LENGTH = 2_000;

/**
 * Turns the caller's identity and addReview's arguments into a review to store, or throws a GraphQLError:
 * UNAUTHENTICATED without a known identity, BAD_USER_INPUT naming the first bad field.
 * Product existence is checked against the fixed catalogue id range, because the reviews
 * subgraph does not own products.
 */
export function validateNewReview(authorId: string | null, args: AddReviewArgs): NewReview {
  if (authorId === null) throw unauthenticated('addReview needs the x-user-id header');
  // An unknown author would make `Review.author: User!` unresolvable in the gateway.
  if (!isUserId(authorId)) throw unauthenticated(`unknown user ${authorId}`);
  if (!isProductId(args.productId)) {
    throw badUserInput(`productId: no product ${args.productId}`, 'productId');
  }
  if (!Number.isInteger(args.rating) || args.rating < 1 || args.rating > 5) {
    throw badUserInput('rating must be an integer from 1 to 5', 'rating');
  }
  const comment = args.comment.trim();
  // Counted in code points so an emoji is one character, as a user would count it.
  const length = [...comment].length;
  if (length < 1 || length > MAX_COMMENT_LENGTH) {
    throw badUserInput(`comment must be 1 to ${MAX_COMMENT_LENGTH} characters`, 'comment');
  }
  return {
    rating: args.rating,
    comment,
    author: { id: authorId },
    product: { id: args.productId },
  };
}
