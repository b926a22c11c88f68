// Waiting until a subscription is live at the reviews subgraph. Nothing announces that: the
// gateway opens its own subscription to the subgraph a moment after the client's, and an event
// published before then reaches nobody. So a warm-up review is added, and another one if no
// event came back within WARM_UP_RETRY_MS; the wait ends at the first event, not after a set time.
import { addReview, type StreamEnd, type TestStream } from './subscriptions.js';

/** The comment of warm-up reviews: tests leave these out of what they compare. */
export const WARM_UP = 'warm-up';
/** How long a warm-up review is given to come back before another is added. */
export const WARM_UP_RETRY_MS = 150;

export interface WarmUpOptions {
  /** The reviews subgraph's URL: warm-ups are added there. */
  reviewsUrl: string;
  productId: string;
  /** True once every subscription waited for has had an event. */
  live: () => boolean;
  /** Resolves at the next event (or when it is time for another warm-up: after `ms` at most). */
  next?: (ms: number) => Promise<unknown>;
  /** How a subscription ended instead of going live (a refusal): reported at once, not waited out. */
  ended?: () => unknown;
  /** Default: 10 s. */
  timeoutMs?: number;
  /** The reviews' comment. Default: WARM_UP. */
  comment?: string;
}

/** Adds warm-up reviews until `live()`. */
export async function warmUp(options: WarmUpOptions): Promise<void> {
  const { reviewsUrl, productId, live, ended = () => undefined, timeoutMs = 10_000, comment = WARM_UP } = options;
  const next = options.next ?? ((ms: number) => until(live, ms));
  const deadline = Date.now() + timeoutMs;
  while (!live()) {
    const end = ended();
    if (end) throw new Error(`ended before its first event: ${JSON.stringify(end)}`);
    if (Date.now() > deadline) throw new Error(`no warm-up event after ${timeoutMs} ms`);
    await addReview(reviewsUrl, { productId, rating: 1, comment });
    await next(WARM_UP_RETRY_MS);
  }
}

/** Until every stream has had an event: each subscription is live at the subgraph. A stream that ends first fails it. */
export async function untilLive(
  reviewsUrl: string,
  streams: readonly TestStream[],
  productId: string,
  timeoutMs?: number,
): Promise<void> {
  const ends = new Map<TestStream, StreamEnd>();
  for (const stream of streams) void stream.ended.then((end) => ends.set(stream, end));
  await warmUp({
    reviewsUrl,
    productId,
    live: () => streams.every((stream) => stream.events.length > 0),
    next: (ms) =>
      Promise.allSettled(streams.filter((stream) => stream.events.length === 0).map((stream) => stream.take(1, ms))),
    ended: () => {
      const [entry] = ends;
      return entry && { end: entry[1], events: entry[0].events };
    },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}

/** Resolves once `check()` holds, or after `ms`. */
async function until(check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10)); // poll: check(), for a client with no event to wait on
  }
}
