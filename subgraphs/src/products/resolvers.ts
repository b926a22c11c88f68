import type { GraphQLResolverMap } from '@apollo/subgraph';
import type { SubgraphContext } from '../context.js';
import { reviewsUrl } from '../dataset.js';
import { badUserInput } from '../errors.js';
import { getProduct, products } from './data.js';

export const MAX_TOP_PRODUCTS = 100;

export const productsResolvers: GraphQLResolverMap<SubgraphContext> = {
  Query: {
    product: (_root, args: { id: string }) => getProduct(args.id),
    topProducts: (_root, args: { first?: number | null }) => {
      const first = args.first ?? 5;
      if (first < 1 || first > MAX_TOP_PRODUCTS) {
        throw badUserInput(`first must be between 1 and ${MAX_TOP_PRODUCTS}`, 'first');
      }
      return products.slice(0, first);
    },
  },
  Product: {
    __resolveReference: (reference: { id: string }) => getProduct(reference.id),
    reviewsUrl: (product: { id: string }) => reviewsUrl(product.id),
  },
};
