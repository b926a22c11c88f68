// User.timeline: the demo's interface with one restricted implementation. Each order gives a
// SignIn a minute before it (SignIn is @requiresScopes(audit:read)) and an OrderPlaced.
import type { OrderRecord, UserRecord } from './data.js';

type TimelineEvent =
  | { readonly __typename: 'OrderPlaced'; readonly id: string; readonly at: string; readonly order: OrderRecord }
  | { readonly __typename: 'SignIn'; readonly id: string; readonly at: string; readonly ip: string };

/** A private address derived from the user number (`user-258` → `10.0.1.2`). */
function addressOfUser(userId: string): string {
  const n = Number(userId.replace(/^user-/, '')) || 0;
  return `10.0.${(n >> 8) & 255}.${n & 255}`;
}

/** Oldest first. */
export function timelineOf(user: UserRecord): TimelineEvent[] {
  return user.orders.flatMap((order): TimelineEvent[] => [
    {
      __typename: 'SignIn',
      id: `signin-${order.id}`,
      at: new Date(Date.parse(order.createdAt) - 60_000).toISOString(),
      ip: addressOfUser(user.id),
    },
    { __typename: 'OrderPlaced', id: `placed-${order.id}`, at: order.createdAt, order },
  ]);
}
