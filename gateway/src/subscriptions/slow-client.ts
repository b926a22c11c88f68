/**
 * What a subscription does when its client falls `SUBSCRIPTION_MAX_BUFFERED_EVENTS` events
 * behind (SUBSCRIPTION_SLOW_CLIENT). `end`: the subscription ends with SUBSCRIPTION_SLOW_CONSUMER,
 * so the client knows it missed events and subscribes again (fetching current state). `drop-oldest`:
 * the oldest waiting event is dropped to make room, as Apollo Router does with its queue; the
 * client keeps the subscription and the latest events, and is not told what it missed.
 */
export const SLOW_CLIENT_POLICIES = ['end', 'drop-oldest'] as const;

export type SlowClientPolicy = (typeof SLOW_CLIENT_POLICIES)[number];
