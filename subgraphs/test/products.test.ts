import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productsSubgraph } from '../src/products/subgraph.js';
import { codesOf, createOperationRunner } from './helpers.js';

type Runner = Awaited<ReturnType<typeof createOperationRunner>>;
let subgraph: Runner;
beforeAll(async () => {
  subgraph = await createOperationRunner(productsSubgraph.typeDefs, productsSubgraph.resolvers);
});
afterAll(() => subgraph.stop());

const TOP = 'query ($first: Int) { topProducts(first: $first) { id } }';

describe('products', () => {
  it('returns the first products of the catalogue, 5 by default', async () => {
    const ids = (result: Awaited<ReturnType<Runner['run']>>) =>
      ((result.data?.topProducts ?? []) as { id: string }[]).map((p) => p.id);
    expect(ids(await subgraph.run(TOP))).toEqual(['product-1', 'product-2', 'product-3', 'product-4', 'product-5']);
    expect(ids(await subgraph.run(TOP, { first: 100 }))).toHaveLength(100);
  });

  it.each([0, 101])('rejects topProducts(first: %i) with BAD_USER_INPUT', async (first) => {
    expect(codesOf(await subgraph.run(TOP, { first }))).toEqual(['BAD_USER_INPUT']);
  });

  it('resolves products by id and entity reference, null when unknown', async () => {
    const result = await subgraph.run(
      `{ product(id: "product-1") { id upc name price inStock }
         missing: product(id: "product-501") { id }
         _entities(representations: [{ __typename: "Product", id: "product-2" }, { __typename: "Product", id: "x" }]) {
           ... on Product { id }
         } }`,
    );
    expect(result.data).toEqual({
      product: {
        id: 'product-1',
        upc: '885000000001',
        name: 'Rustic Cotton Clock',
        price: 180.87,
        inStock: false,
      },
      missing: null,
      _entities: [{ id: 'product-2' }, null],
    });
  });
});
