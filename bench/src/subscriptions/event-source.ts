import { postJson } from '../load/http-post.js';

/** The product every subscriber watches and every mutation reviews. */
export const PRODUCT_ID = 'product-4';
/** The author the reviews subgraph is told added the review (it needs a known user). */
const AUTHOR = 'user-3';

/** Each event fetches the author from users and the product from products: a federated event. */
export const SUBSCRIPTION_DOCUMENT =
  `subscription { reviewAdded(productId: "${PRODUCT_ID}") ` +
  '{ id rating comment author { name } product { name price } } }';

const MUTATION = `mutation Add($comment: String!) { addReview(productId: "${PRODUCT_ID}", rating: 4, comment: $comment) { id } }`;

/**
 * Publishes one event: `addReview` sent straight to the reviews subgraph (the event source),
 * so the gateway under test only fans the event out. Resolves to the new review's id once the
 * answer has arrived; throws on any error.
 */
export async function publishReview(reviewsUrl: string, comment: string): Promise<string> {
  const body = JSON.stringify({ query: MUTATION, variables: { comment } });
  const response = await postJson(reviewsUrl, body, { 'x-user-id': AUTHOR });
  const parsed = JSON.parse(response.text) as { data?: { addReview?: { id?: string } }; errors?: unknown[] };
  const id = parsed.data?.addReview?.id;
  if (response.status !== 200 || typeof id !== 'string') {
    throw new Error(`addReview on ${reviewsUrl}: HTTP ${response.status}: ${response.text.slice(0, 300)}`);
  }
  return id;
}
