import { ORDERS_EPOCH_MS, PRODUCT_COUNT, productId, SEED, USER_COUNT, userId } from '../dataset.js';
import { createRandom, pick, randomInt } from '../random.js';

export interface OrderRecord {
  readonly id: string;
  /** Stored as an entity reference so the default resolver serves `Order.product`. */
  readonly product: { readonly id: string };
  readonly quantity: number;
  readonly createdAt: string;
}

export interface UserRecord {
  readonly id: string;
  readonly name: string;
  readonly email: string;
  readonly orders: readonly OrderRecord[];
}

// Space-separated so the lists stay compact under any formatter.
const FIRST_NAMES = (
  'Ada Alan Barbara Brian Claude Dennis Edsger Frances Grace Guido Hedy Ivan ' +
  'Joan John Ken Linus Margaret Niklaus Radia Rob Shafi Sophie Tim Yukihiro'
).split(' ');
const LAST_NAMES = (
  'Allen Backus Cerf Dijkstra Engelbart Floyd Goldberg Hamilton Hopper Kay Knuth ' +
  'Lamport Liskov Lovelace McCarthy Perlman Ritchie Shannon Thompson Torvalds Turing Wirth'
).split(' ');
const YEAR_SECONDS = 365 * 24 * 60 * 60;

/** Pure: the same seed always yields the same users, orders and order numbers. */
export function generateUsers(seed: number = SEED): UserRecord[] {
  const random = createRandom(seed, 'users');
  const users: UserRecord[] = [];
  let orderNumber = 0;
  for (let n = 1; n <= USER_COUNT; n++) {
    const first = pick(random, FIRST_NAMES);
    const last = pick(random, LAST_NAMES);
    // Offsets are drawn first and sorted so each user's orders read oldest → newest.
    const offsets = Array.from({ length: randomInt(random, 1, 5) }, () => randomInt(random, 0, YEAR_SECONDS - 1)).sort(
      (a, b) => a - b,
    );
    const orders = offsets.map((offset) => ({
      id: `order-${++orderNumber}`,
      product: { id: productId(randomInt(random, 1, PRODUCT_COUNT)) },
      quantity: randomInt(random, 1, 5),
      createdAt: new Date(ORDERS_EPOCH_MS + offset * 1000).toISOString(),
    }));
    users.push({
      id: userId(n),
      name: `${first} ${last}`,
      // The user number keeps emails unique even when names repeat.
      email: `${first}.${last}.${n}@example.com`.toLowerCase(),
      orders,
    });
  }
  return users;
}

/** Generated once per process; read-only afterwards. */
export const users: readonly UserRecord[] = generateUsers();
const positionById = new Map(users.map((user, position) => [user.id, position]));

export function getUser(id: string): UserRecord | null {
  const position = positionById.get(id);
  return position === undefined ? null : (users[position] ?? null);
}

/** A user's postal address (`5 Main Street` for user-5), derived like the payment reference. */
export function addressOf(userId: string): string {
  return `${userId.replace(/^user-/, '')} Main Street`;
}

/**
 * An order's payment reference (`pay_order-1`): derived from the id when asked for, not
 * stored in the records, so the pinned fingerprint of the generated users stays the same.
 */
export function paymentReferenceOf(orderId: string): string {
  return `pay_${orderId}`;
}

/** Position of a user in `users` (used by cursors), or -1 when unknown. */
export function userPosition(id: string): number {
  return positionById.get(id) ?? -1;
}
