import { getProduct } from './products/data.js';
import { reviewStore } from './reviews/data.js';
import { getUser } from './users/data.js';

/** The two queries of docs/reference/published-benchmarks.md §A, verbatim in shape. */
export const GET_USER_WITH_PRODUCTS = `query GetUserWithProducts($userId: ID!) {
  user(id: $userId) { id name email orders { id product { id name price } } }
}`;

export const COMPLEX_QUERY = `query ComplexQuery($userId: ID!) {
  user(id: $userId) { id name orders { id product { id name
    reviews { rating comment author { name } } } } }
}`;

/** §B's trivial query: no subgraph is called, so the HTTP adapter's cost dominates. */
export const TYPENAME_QUERY = '{ __typename }';

/** What GetUserWithProducts must answer, built from the generated data, not through any server. */
export function expectedUserWithProducts(userId: string) {
  const user = getUser(userId);
  if (!user) return { user: null };
  return {
    user: {
      id: user.id,
      name: user.name,
      email: user.email,
      orders: user.orders.map((order) => {
        const product = getProduct(order.product.id);
        return { id: order.id, product: { id: order.product.id, name: product?.name, price: product?.price } };
      }),
    },
  };
}

/** What ComplexQuery must answer (four hops: users -> products -> reviews -> users). */
export function expectedComplex(userId: string) {
  const user = getUser(userId);
  if (!user) return { user: null };
  return {
    user: {
      id: user.id,
      name: user.name,
      orders: user.orders.map((order) => ({
        id: order.id,
        product: {
          id: order.product.id,
          name: getProduct(order.product.id)?.name,
          reviews: reviewStore.forProduct(order.product.id).map((review) => ({
            rating: review.rating,
            comment: review.comment,
            author: { name: getUser(review.author.id)?.name },
          })),
        },
      })),
    },
  };
}
