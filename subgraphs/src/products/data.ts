import { PRODUCT_COUNT, productId, SEED } from '../dataset.js';
import { createRandom, pick, randomInt } from '../random.js';

export interface ProductRecord {
  readonly id: string;
  readonly upc: string;
  readonly name: string;
  readonly price: number;
  readonly inStock: boolean;
}

// Space-separated so the lists stay compact under any formatter.
const ADJECTIVES = (
  'Ergonomic Rustic Sleek Compact Durable Handmade Lightweight Modular Refurbished ' +
  'Vintage Wireless Quiet Portable Premium Recycled Smart'
).split(' ');
const MATERIALS = 'Steel Oak Bamboo Cotton Granite Copper Leather Glass Wool Carbon'.split(' ');
const NOUNS = (
  'Chair Desk Lamp Keyboard Mug Backpack Kettle Monitor Notebook Speaker Bottle ' +
  'Headphones Shelf Clock Blanket Toaster'
).split(' ');

/** Pure: the same seed always yields the same catalogue. */
export function generateProducts(seed: number = SEED): ProductRecord[] {
  const random = createRandom(seed, 'products');
  const products: ProductRecord[] = [];
  for (let n = 1; n <= PRODUCT_COUNT; n++) {
    const name = `${pick(random, ADJECTIVES)} ${pick(random, MATERIALS)} ${pick(random, NOUNS)}`;
    products.push({
      id: productId(n),
      // A random 3-digit prefix plus the product number: 12 digits, unique by construction.
      upc: `${randomInt(random, 100, 999)}${String(n).padStart(9, '0')}`,
      name,
      // Whole cents, so the price always has at most 2 decimals.
      price: randomInt(random, 199, 99_999) / 100,
      inStock: random() < 0.85,
    });
  }
  return products;
}

/** Generated once per process; read-only afterwards. Catalogue order is the ranking. */
export const products: readonly ProductRecord[] = generateProducts();
const productsById = new Map(products.map((product) => [product.id, product]));

export function getProduct(id: string): ProductRecord | null {
  return productsById.get(id) ?? null;
}
