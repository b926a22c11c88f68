/**
 * The shared shape of the generated data. Users, products and reviews are generated in
 * separate processes; they agree on cross-references only through these constants.
 */
export const SEED = 42;
export const USER_COUNT = 1_000;
export const PRODUCT_COUNT = 500;
export const REVIEW_COUNT = 5_000;
/** Products above this number get no generated reviews, so the empty-list path is real. */
export const REVIEWED_PRODUCT_COUNT = 480;
/** Order timestamps are spread over the year starting here. */
export const ORDERS_EPOCH_MS = Date.UTC(2026, 0, 1);

export const userId = (n: number): string => `user-${n}`;
export const productId = (n: number): string => `product-${n}`;

/**
 * Where a product's reviews are read on the shop's site: `Product.reviewsUrl`, which products
 * served and reviews takes over under a progressive `@override` (docs/progressive-override.md).
 * Both build it here, so the answer is the same whichever subgraph serves it.
 */
export const reviewsUrl = (id: string): string => `https://shop.example/products/${encodeURIComponent(id)}/reviews`;

/** `product-7` → 7; anything else (`product-07`, `product-0`, `foo`) → null. */
function numberOf(id: string, prefix: string, count: number): number | null {
  if (!id.startsWith(prefix)) return null;
  const digits = id.slice(prefix.length);
  if (!/^[1-9]\d{0,8}$/.test(digits)) return null;
  const n = Number(digits);
  return n <= count ? n : null;
}

export const isUserId = (id: string): boolean => numberOf(id, 'user-', USER_COUNT) !== null;
export const isProductId = (id: string): boolean => numberOf(id, 'product-', PRODUCT_COUNT) !== null;
