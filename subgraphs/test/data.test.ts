import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isProductId, isUserId, PRODUCT_COUNT, REVIEW_COUNT, USER_COUNT } from '../src/dataset.js';
import { generateProducts, getProduct, products } from '../src/products/data.js';
import { createRandom, mulberry32 } from '../src/random.js';
import { createReviewStore, generateReviews } from '../src/reviews/data.js';
import { generateUsers, getUser, users } from '../src/users/data.js';

const sha256 = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');

describe('random', () => {
  it('repeats the same sequence for the same seed and differs per label', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    expect(first.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(createRandom(42, 'users')()).not.toBe(createRandom(42, 'reviews')());
  });
});

describe('generated data', () => {
  it('has the documented sizes and id ranges', () => {
    expect(users).toHaveLength(USER_COUNT);
    expect(products).toHaveLength(PRODUCT_COUNT);
    expect(generateReviews()).toHaveLength(REVIEW_COUNT);
    expect([USER_COUNT, PRODUCT_COUNT, REVIEW_COUNT]).toEqual([1_000, 500, 5_000]);
    expect(users.map((u) => u.id)).toEqual(Array.from({ length: 1_000 }, (_, i) => `user-${i + 1}`));
    expect(products.at(-1)?.id).toBe('product-500');
    expect(generateReviews().at(-1)?.id).toBe('review-5000');
  });

  // Pinned fingerprints: each subgraph generates its data in its own process, and the
  // bench checks answers against these values, so any drift must be deliberate.
  it('is identical on every run (pinned fingerprints)', () => {
    expect(generateUsers()).toEqual(generateUsers());
    expect(sha256(generateUsers())).toBe('d151fe4cbeb43aed26f4e6a97e431ad1e91d8d7ee9598aa7aa3e81bf1d6a2e76');
    expect(sha256(generateProducts())).toBe('d3c3ec82a1077c511be008b1dde72141275b5d77a247b4f4dced595390e831a3');
    expect(sha256(generateReviews())).toBe('27af08a8b04dde77b2c45697d7a33fedc16f3f7504682172616d3b8c7af71dd2');
    expect(getUser('user-1')?.name).toBe('Rob Torvalds');
  });

  it('gives every user 1-5 orders with globally unique, sequential order ids', () => {
    const orders = users.flatMap((u) => u.orders);
    for (const user of users) expect(user.orders.length).toBeGreaterThanOrEqual(1);
    expect(Math.max(...users.map((u) => u.orders.length))).toBe(5);
    expect(orders.map((o) => o.id)).toEqual(orders.map((_, i) => `order-${i + 1}`));
  });

  it('only references products that exist, with valid quantities and 2026 timestamps', () => {
    for (const order of users.flatMap((u) => u.orders)) {
      expect(getProduct(order.product.id)).not.toBeNull();
      expect(order.quantity).toBeGreaterThanOrEqual(1);
      expect(order.quantity).toBeLessThanOrEqual(5);
      expect(order.createdAt).toMatch(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    }
  });

  it('prices products with at most 2 decimals and unique 12-digit UPCs', () => {
    for (const product of products) {
      expect(Math.round(product.price * 100) / 100).toBe(product.price);
      expect(product.upc).toMatch(/^\d{12}$/);
    }
    expect(new Set(products.map((p) => p.upc)).size).toBe(PRODUCT_COUNT);
  });

  it('only reviews existing users and products, and most products have reviews', () => {
    const reviews = generateReviews();
    for (const review of reviews) {
      expect(getUser(review.author.id)).not.toBeNull();
      expect(getProduct(review.product.id)).not.toBeNull();
      expect(review.rating).toBeGreaterThanOrEqual(1);
      expect(review.rating).toBeLessThanOrEqual(5);
    }
    const reviewed = new Set(reviews.map((r) => r.product.id));
    expect(reviewed.size).toBe(480);
    expect(reviewed.has('product-500')).toBe(false);
  });
});

describe('lookups', () => {
  it('find records by id and return null or [] for unknown ids', () => {
    expect(getUser('user-1000')?.id).toBe('user-1000');
    expect(getProduct('product-1')?.id).toBe('product-1');
    for (const id of ['user-0', 'user-1001', 'user-01', '', 'constructor', '__proto__']) {
      expect(getUser(id)).toBeNull();
    }
    expect(getProduct('product-501')).toBeNull();
    const store = createReviewStore();
    expect(store.get('review-5000')?.id).toBe('review-5000');
    expect(store.get('review-5001')).toBeNull();
    expect(store.forProduct('product-500')).toEqual([]);
    expect(store.forAuthor('nobody')).toEqual([]);
  });

  it('indexes reviews by product and by author consistently', () => {
    const store = createReviewStore();
    const all = generateReviews();
    const forProduct = all.filter((r) => r.product.id === 'product-7');
    expect(store.forProduct('product-7')).toEqual(forProduct);
    expect(store.forAuthor('user-7')).toEqual(all.filter((r) => r.author.id === 'user-7'));
    expect(forProduct.length).toBeGreaterThan(0);
  });

  it('accepts only canonical ids inside the catalogue', () => {
    expect([isUserId('user-1'), isUserId('user-1000'), isUserId('user-1001')]).toEqual([true, true, false]);
    expect([isProductId('product-500'), isProductId('product-007'), isProductId('x')]).toEqual([true, false, false]);
  });
});
