import { getProduct, getUser, mulberry32, PRODUCT_COUNT, reviewStore } from '@fedgw/subgraphs';
import type { AnswerSample, LoadPhase, RequestSpec, Workload } from './workload.js';
import { zipfSampler } from './zipf.js';

/** §G's shape: how skewed product popularity is, and how many requests come from signed-in users. */
export const CATALOGUE = {
  /** Zipf exponent over the demo's products (rank k = product-k): s = 1 puts ≈ 15% of views on product-1. */
  zipfExponent: 1,
  signedInShare: 0.2,
  /** Signed-in users, each with a token, picked uniformly: user-1, user-11, …, user-991. */
  signedInUsers: 100,
} as const;

const PRODUCT_FIELDS = 'id name price inStock reviews { id rating comment author { id } }';

/** A product page, anonymous: products (public, 60 s) then its reviews (public, 5 s). */
export const PRODUCT_PAGE_QUERY = `query ProductPage($productId: ID!) {
  product(id: $productId) { ${PRODUCT_FIELDS} }
}`;

/** The same page for a signed-in user, with their profile beside it: users answer `private`. */
export const PRODUCT_PAGE_SIGNED_IN_QUERY = `query ProductPageSignedIn($productId: ID!, $userId: ID!) {
  product(id: $productId) { ${PRODUCT_FIELDS} }
  user(id: $userId) { id name email }
}`;

/** Fixed seeds: the warm-up and the measured window each replay one sequence on every row. */
const SEEDS: Readonly<Record<LoadPhase, number>> = { warmup: 0x5eed_0001, measure: 0x5eed_0002 };
const SAMPLE_SEED = 0x5eed_0003;

export interface SignedInUser {
  readonly userId: string;
  /** `Bearer <JWT>`: subject userId, signed with the run's HS256 secret. */
  readonly authorization: string;
}

/** The signed-in users' ids (the tokens are signed by the caller, with the run's secret). */
export function signedInUserIds(count: number = CATALOGUE.signedInUsers): string[] {
  return Array.from({ length: count }, (_, i) => `user-${1 + i * 10}`);
}

export function productPageExpected(productId: string, userId?: string): unknown {
  const product = getProduct(productId);
  const page = product && {
    id: product.id,
    name: product.name,
    price: product.price,
    inStock: product.inStock,
    reviews: reviewStore.forProduct(productId).map((review) => ({
      id: review.id,
      rating: review.rating,
      comment: review.comment,
      author: { id: review.author.id },
    })),
  };
  if (userId === undefined) return { product: page };
  const user = getUser(userId);
  return { product: page, user: user && { id: user.id, name: user.name, email: user.email } };
}

export function productPageRequest(productId: string, user?: SignedInUser): RequestSpec {
  if (!user) return { body: JSON.stringify({ query: PRODUCT_PAGE_QUERY, variables: { productId } }), headers: {} };
  return {
    body: JSON.stringify({ query: PRODUCT_PAGE_SIGNED_IN_QUERY, variables: { productId, userId: user.userId } }),
    headers: { authorization: user.authorization },
  };
}

/**
 * §G's workload: a product page per request, the product drawn by Zipf over the catalogue, a
 * share of requests from signed-in users (a token each) who also ask for their own profile.
 */
export function catalogueWorkload(users: readonly SignedInUser[], shape = CATALOGUE): Workload {
  if (users.length === 0) throw new Error('catalogueWorkload: no signed-in users');
  const draw = (random: () => number) => {
    const product = zipfSampler(PRODUCT_COUNT, shape.zipfExponent, random);
    return () => {
      const signedIn = random() < shape.signedInShare;
      const productId = `product-${product()}`;
      const user = signedIn ? users[Math.floor(random() * users.length)] : undefined;
      return { productId, user };
    };
  };
  return {
    stream(phase) {
      const next = draw(mulberry32(SEEDS[phase]));
      return () => {
        const { productId, user } = next();
        return productPageRequest(productId, user);
      };
    },
    samples() {
      // The edges (most popular, last, last with reviews) and Zipf draws; each product asked
      // anonymously then by two users in a row (the second must not get the first's profile),
      // and the whole list twice, so the second pass checks answers a cache served.
      const ids = new Set(['product-1', `product-${PRODUCT_COUNT}`, 'product-480', 'product-481']);
      const next = draw(mulberry32(SAMPLE_SEED));
      while (ids.size < 12) ids.add(next().productId);
      const [first, second] = [users[0] as SignedInUser, users[users.length - 1] as SignedInUser];
      const once = [...ids].flatMap((productId): AnswerSample[] => [
        {
          label: `ProductPage ${productId}`,
          request: productPageRequest(productId),
          expected: productPageExpected(productId),
        },
        ...[first, second].map((user) => ({
          label: `ProductPageSignedIn ${productId} as ${user.userId}`,
          request: productPageRequest(productId, user),
          expected: productPageExpected(productId, user.userId),
        })),
      ]);
      return [...once, ...once];
    },
  };
}
