import { productId, REVIEW_COUNT, REVIEWED_PRODUCT_COUNT, SEED, USER_COUNT, userId } from '../dataset.js';
import { createRandom, pick, randomInt } from '../random.js';

export interface ReviewRecord {
  readonly id: string;
  readonly rating: number;
  readonly comment: string;
  /** Stored as entity references so default resolvers serve `author` and `product`. */
  readonly author: { readonly id: string };
  readonly product: { readonly id: string };
}

export type NewReview = Omit<ReviewRecord, 'id'>;

// Skewed towards good ratings, like real shops.
const RATINGS = [1, 2, 3, 3, 4, 4, 4, 5, 5, 5] as const;
const OPENERS = [
  'Great value.',
  'Not what I expected.',
  'Works as described.',
  'Would buy again.',
  'Arrived late but fine.',
  'Solid build quality.',
  'Too expensive for what it is.',
  'My second one.',
];
const DETAILS = [
  'Setup took five minutes.',
  'The finish scratches easily.',
  'Customer support was helpful.',
  'Smaller than the photos suggest.',
  'Daily use for a month, no issues.',
  'Packaging was excessive.',
];

/** Pure: the same seed always yields the same reviews, numbered review-1..review-N. */
export function generateReviews(seed: number = SEED): ReviewRecord[] {
  const random = createRandom(seed, 'reviews');
  return Array.from({ length: REVIEW_COUNT }, (_, i) => ({
    id: `review-${i + 1}`,
    rating: pick(random, RATINGS),
    comment: `${pick(random, OPENERS)} ${pick(random, DETAILS)}`,
    author: { id: userId(randomInt(random, 1, USER_COUNT)) },
    // Only products 1..REVIEWED_PRODUCT_COUNT get reviews (see dataset.ts).
    product: { id: productId(randomInt(random, 1, REVIEWED_PRODUCT_COUNT)) },
  }));
}

const NONE: readonly ReviewRecord[] = Object.freeze([]);

/** In-memory reviews with O(1) lookups by id, product and author; `add` keeps all three in step. */
export class ReviewStore {
  readonly #byId = new Map<string, ReviewRecord>();
  readonly #byProduct = new Map<string, ReviewRecord[]>();
  readonly #byAuthor = new Map<string, ReviewRecord[]>();
  #lastNumber = 0;

  constructor(reviews: Iterable<ReviewRecord>) {
    for (const review of reviews) this.#index(review);
  }

  get size(): number {
    return this.#byId.size;
  }

  get(id: string): ReviewRecord | null {
    return this.#byId.get(id) ?? null;
  }

  forProduct(productId: string): readonly ReviewRecord[] {
    return this.#byProduct.get(productId) ?? NONE;
  }

  forAuthor(authorId: string): readonly ReviewRecord[] {
    return this.#byAuthor.get(authorId) ?? NONE;
  }

  /** Stores a new review under the next free `review-<n>` id. */
  add(review: NewReview): ReviewRecord {
    const record = Object.freeze({ id: `review-${this.#lastNumber + 1}`, ...review });
    this.#index(record);
    return record;
  }

  #index(review: ReviewRecord): void {
    this.#byId.set(review.id, review);
    append(this.#byProduct, review.product.id, review);
    append(this.#byAuthor, review.author.id, review);
    const n = Number(review.id.slice('review-'.length));
    if (Number.isInteger(n) && n > this.#lastNumber) this.#lastNumber = n;
  }
}

function append(index: Map<string, ReviewRecord[]>, key: string, review: ReviewRecord): void {
  const list = index.get(key);
  if (list) list.push(review);
  else index.set(key, [review]);
}

export const createReviewStore = (): ReviewStore => new ReviewStore(generateReviews());

/** The process-wide store the served subgraph uses; tests build their own with createReviewStore(). */
export const reviewStore: ReviewStore = createReviewStore();
