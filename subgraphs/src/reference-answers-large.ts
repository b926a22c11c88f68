import { getProduct, products } from './products/data.js';
import { type ReviewRecord, reviewStore } from './reviews/data.js';
import { getUser } from './users/data.js';

/** How many products the dashboard asks for: its answer is ≈ 96 KB: 109 reviews, 102 authors, 685 product cards of 328 products. */
export const DASHBOARD_PRODUCTS = 10;

const DASHBOARD_FRAGMENTS = `fragment ProductCard on Product { id name price }
fragment ReviewLine on Review { id rating comment }
fragment Person on User { id name email }`;

/** Dashboard's reviews, their authors, and each author's other reviews, indented by `indent`. */
function dashboardReviews(indent: string): string {
  return [
    'reviews {',
    '  ...ReviewLine',
    '  author {',
    '    ...Person',
    '    reviews { id rating product { ...ProductCard } }',
    '  }',
    '}',
  ].join(`\n${indent}`);
}

/**
 * Bench §F: one large answer in which entities repeat, as a dashboard every client loads the
 * same way. The top products, their reviews, each author, and every other review by that
 * author with its product: authors appear under several products, and the products of their
 * other reviews (often top products themselves) repeat throughout. Five fetches: products →
 * reviews → users → reviews → products. Its demand-control cost stays under our default
 * MAX_COST, so every target runs it with its own defaults.
 */
export const DASHBOARD_QUERY = `query Dashboard {
  topProducts(first: ${DASHBOARD_PRODUCTS}) {
    ...ProductCard
    inStock
    ${dashboardReviews('    ')}
  }
}
${DASHBOARD_FRAGMENTS}`;

/**
 * Dashboard with its reviews block (four of its five fetches) under `@defer`: the first part
 * is the product cards alone; merged, the parts are Dashboard's answer (bench §F's @defer rows).
 */
export const DASHBOARD_DEFERRED_QUERY = `query DashboardDeferred {
  topProducts(first: ${DASHBOARD_PRODUCTS}) {
    ...ProductCard
    inStock
    ... @defer(label: "reviews") {
      ${dashboardReviews('      ')}
    }
  }
}
${DASHBOARD_FRAGMENTS}`;

/** What Dashboard must answer, built from the generated data, not through any server. */
export function expectedDashboard() {
  const productCard = (id: string) => {
    const product = getProduct(id);
    return { id, name: product?.name, price: product?.price };
  };
  const reviewLine = (review: ReviewRecord) => ({ id: review.id, rating: review.rating, comment: review.comment });
  return {
    topProducts: products.slice(0, DASHBOARD_PRODUCTS).map((product) => ({
      ...productCard(product.id),
      inStock: product.inStock,
      reviews: reviewStore.forProduct(product.id).map((review) => {
        const author = getUser(review.author.id);
        return {
          ...reviewLine(review),
          author: {
            id: review.author.id,
            name: author?.name,
            email: author?.email,
            reviews: reviewStore.forAuthor(review.author.id).map((other) => ({
              id: other.id,
              rating: other.rating,
              product: productCard(other.product.id),
            })),
          },
        };
      }),
    })),
  };
}
