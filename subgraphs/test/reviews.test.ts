import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReviewStore, type ReviewStore } from '../src/reviews/data.js';
import { createReviewsResolvers, MAX_REVIEWS_PER_AUTHOR, MAX_REVIEWS_PER_PRODUCT } from '../src/reviews/resolvers.js';
import { reviewsSubgraph } from '../src/reviews/subgraph.js';
import { codesOf, createOperationRunner } from './helpers.js';

type Runner = Awaited<ReturnType<typeof createOperationRunner>>;
let store: ReviewStore;
let subgraph: Runner;
beforeAll(async () => {
  // A private store, so mutations here never leak into other tests.
  store = createReviewStore();
  subgraph = await createOperationRunner(reviewsSubgraph.typeDefs, createReviewsResolvers(store));
});
afterAll(() => subgraph.stop());

const ADD = `mutation ($productId: ID!, $rating: Int!, $comment: String!) {
  addReview(productId: $productId, rating: $rating, comment: $comment) { id rating comment author { id } product { id } }
}`;
const AS_USER_3 = { 'x-user-id': 'user-3' };
const valid = { productId: 'product-500', rating: 4, comment: '  Sturdy and quiet.  ' };

describe('addReview', () => {
  it('stores the review under the next id with the caller as author, and indexes it', async () => {
    const before = store.forAuthor('user-3').length;
    const result = await subgraph.run(ADD, valid, AS_USER_3);
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      addReview: {
        id: 'review-5001',
        rating: 4,
        comment: 'Sturdy and quiet.',
        author: { id: 'user-3' },
        product: { id: 'product-500' },
      },
    });
    expect(store.get('review-5001')?.comment).toBe('Sturdy and quiet.');
    expect(store.forProduct('product-500').map((r) => r.id)).toEqual(['review-5001']);
    expect(store.forAuthor('user-3')).toHaveLength(before + 1);

    const fetched = await subgraph.run(
      `{ _entities(representations: [{ __typename: "Product", id: "product-500" }]) {
           ... on Product { reviews { id } } } }`,
    );
    expect(fetched.data).toEqual({ _entities: [{ reviews: [{ id: 'review-5001' }] }] });
  });

  it.each([
    ['no header', {}],
    ['a blank header', { 'x-user-id': '  ' }],
    ['an unknown user', { 'x-user-id': 'user-1001' }],
  ])('is UNAUTHENTICATED with %s', async (_label, headers) => {
    const size = store.size;
    const result = await subgraph.run(ADD, valid, headers);
    expect(codesOf(result)).toEqual(['UNAUTHENTICATED']);
    expect(store.size).toBe(size);
  });

  it.each([
    ['productId', { productId: 'product-501' }],
    ['productId', { productId: 'review-1' }],
    ['rating', { rating: 0 }],
    ['rating', { rating: 6 }],
    ['comment', { comment: '' }],
    ['comment', { comment: '   ' }],
    ['comment', { comment: 'x'.repeat(2_001) }],
  ])('is BAD_USER_INPUT naming %s for %j', async (field, change) => {
    const size = store.size;
    const result = await subgraph.run(ADD, { ...valid, ...change }, AS_USER_3);
    expect(codesOf(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.extensions?.field).toBe(field);
    expect(result.errors?.[0]?.message).toContain(field);
    expect(store.size).toBe(size);
  });

  it('takes its fields as arguments: the AddReviewInput object is gone', async () => {
    const result = await subgraph.run(
      'mutation { addReview(input: { productId: "product-1", rating: 5, comment: "x" }) { id } }',
      {},
      AS_USER_3,
    );
    expect(codesOf(result)).toContain('GRAPHQL_VALIDATION_FAILED');
  });

  it('accepts a comment of exactly 2,000 characters', async () => {
    const result = await subgraph.run(ADD, { ...valid, comment: 'y'.repeat(2_000) }, AS_USER_3);
    expect(result.errors).toBeUndefined();
  });
});

describe('reviews queries', () => {
  it('resolves a review with author and product references', async () => {
    const result = await subgraph.run('{ review(id: "review-1") { id rating author { id } product { id } } }');
    expect(result.data).toEqual({
      review: {
        id: 'review-1',
        rating: 1,
        author: { id: 'user-998' },
        product: { id: 'product-446' },
      },
    });
    expect((await subgraph.run('{ review(id: "review-0") { id } }')).data).toEqual({
      review: null,
    });
  });

  it('resolves [] for reviews of unknown products and users', async () => {
    const result = await subgraph.run(
      `{ _entities(representations: [
           { __typename: "Product", id: "product-9999" },
           { __typename: "User", id: "user-9999" },
           { __typename: "User", id: "user-998" }
         ]) {
           ... on Product { reviews { id } }
           ... on User { reviews { id } }
         } }`,
    );
    const [product, user, known] = (result.data?._entities ?? []) as {
      reviews: { id: string }[];
    }[];
    expect(product).toEqual({ reviews: [] });
    expect(user).toEqual({ reviews: [] });
    expect(known?.reviews.map((r) => r.id)).toContain('review-1');
  });

  it('serves at most the sizes the schema declares (@listSize), the most recent, however many are added', async () => {
    const schema = readFileSync(new URL('../src/reviews/schema.graphql', import.meta.url), 'utf8');
    expect(schema).toMatch(new RegExp(`reviews: \\[Review!\\] @listSize\\(assumedSize: ${MAX_REVIEWS_PER_PRODUCT}\\)`));
    expect(schema).toMatch(new RegExp(`reviews: \\[Review!\\] @listSize\\(assumedSize: ${MAX_REVIEWS_PER_AUTHOR}\\)`));
    const added: string[] = [];
    for (let i = 0; i < 30; i++) {
      const args = { productId: 'product-2', rating: 5, comment: `review ${i}` };
      const result = await subgraph.run(ADD, args, { 'x-user-id': 'user-4' });
      added.push((result.data?.addReview as { id: string } | undefined)?.id as string);
    }
    expect(store.forProduct('product-2').length).toBeGreaterThan(MAX_REVIEWS_PER_PRODUCT);
    const result = await subgraph.run(
      `{ _entities(representations: [{ __typename: "Product", id: "product-2" }, { __typename: "User", id: "user-4" }]) {
           ... on Product { reviews { id } }
           ... on User { reviews { id } }
         } }`,
    );
    const [product, user] = (result.data?._entities ?? []) as { reviews: { id: string }[] }[];
    expect(product?.reviews.map((r) => r.id)).toEqual(added.slice(-MAX_REVIEWS_PER_PRODUCT));
    expect(user?.reviews.map((r) => r.id)).toEqual(added.slice(-MAX_REVIEWS_PER_AUTHOR));
  });
});
