import { parse } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { identityOf, type SubgraphContext } from '../src/context.js';
import { PubSub } from '../src/pubsub.js';
import { createReviewStore, type ReviewRecord } from '../src/reviews/data.js';
import { createReviewsResolvers } from '../src/reviews/resolvers.js';
import { reviewsSubgraph } from '../src/reviews/subgraph.js';
import { type RunningSubgraph, startSubgraph } from '../src/serve.js';
import { usersSubgraph } from '../src/users/subgraph.js';
import { eventually } from './helpers.js';

const REVIEW_ADDED = `subscription ($productId: ID) {
  reviewAdded(productId: $productId) { id rating comment author { __typename id } product { __typename id } }
}`;
const ADD = `mutation ($productId: ID!, $rating: Int!, $comment: String!) {
  addReview(productId: $productId, rating: $rating, comment: $comment) { id }
}`;

type Event = { data?: { reviewAdded: { id: string; product: { id: string } } } | null; errors?: unknown };

// A real reviews subgraph over a private store and stream, so the test can count subscribers.
let reviews: RunningSubgraph;
let added: PubSub<ReviewRecord>;
const clients: Client[] = [];
beforeAll(async () => {
  added = new PubSub();
  reviews = await startSubgraph({
    ...reviewsSubgraph,
    resolvers: createReviewsResolvers(createReviewStore(), added),
  });
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
});
afterAll(() => reviews?.close());

function connect(url: string, options: Partial<Parameters<typeof createClient>[0]> = {}): Client {
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, ...options });
  clients.push(client);
  return client;
}

async function addReview(productId: string, rating: number, comment: string, user = 'user-3') {
  const response = await fetch(reviews.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-id': user },
    body: JSON.stringify({ query: ADD, variables: { productId, rating, comment } }),
  });
  const body = (await response.json()) as { data?: { addReview: { id: string } } | null; errors?: unknown[] };
  return body.data?.addReview.id ?? null;
}

/** The next `count` events of a subscription, as an array. */
async function take(events: AsyncIterator<Event>, count: number): Promise<Event[]> {
  const taken: Event[] = [];
  while (taken.length < count) {
    const next = await events.next();
    if (next.done) throw new Error(`the subscription ended after ${taken.length} events`);
    taken.push(next.value);
  }
  return taken;
}

describe('Subscription.reviewAdded over graphql-ws', () => {
  it('is served on the HTTP port and path', () => {
    expect(reviews.subscriptionUrl).toBe(`ws://127.0.0.1:${reviews.port}/graphql`);
  });

  it('sends one event per review added after subscribing, in order, with entity references', async () => {
    await addReview('product-1', 5, 'before subscribing');
    const events = connect(reviews.subscriptionUrl as string).iterate({ query: REVIEW_ADDED }) as AsyncIterator<Event>;
    const received = take(events, 3);
    await eventually(() => expect(added.subscriberCount).toBe(1));

    const ids = [
      await addReview('product-4', 4, 'first'),
      await addReview('product-4', 9, 'refused: rating out of range'),
      await addReview('product-5', 2, '  second  ', 'user-7'),
      await addReview('product-6', 3, 'third'),
    ];
    expect(ids[1]).toBeNull();
    expect(await received).toEqual([
      {
        data: {
          reviewAdded: {
            id: ids[0],
            rating: 4,
            comment: 'first',
            author: { __typename: 'User', id: 'user-3' },
            product: { __typename: 'Product', id: 'product-4' },
          },
        },
      },
      {
        data: {
          reviewAdded: {
            id: ids[2],
            rating: 2,
            comment: 'second',
            author: { __typename: 'User', id: 'user-7' },
            product: { __typename: 'Product', id: 'product-5' },
          },
        },
      },
      {
        data: {
          reviewAdded: {
            id: ids[3],
            rating: 3,
            comment: 'third',
            author: { __typename: 'User', id: 'user-3' },
            product: { __typename: 'Product', id: 'product-6' },
          },
        },
      },
    ]);
  });

  it('filters by productId when given, and sends every product without it', async () => {
    const client = connect(reviews.subscriptionUrl as string);
    const one = client.iterate({ query: REVIEW_ADDED, variables: { productId: 'product-7' } }) as AsyncIterator<Event>;
    const all = client.iterate({ query: REVIEW_ADDED }) as AsyncIterator<Event>;
    const [fromOne, fromAll] = [take(one, 2), take(all, 3)];
    await eventually(() => expect(added.subscriberCount).toBe(2));

    const ids = [
      await addReview('product-7', 5, 'a'),
      await addReview('product-8', 5, 'b'),
      await addReview('product-7', 1, 'c'),
    ];
    const idsOf = (events: Event[]) => events.map((event) => event.data?.reviewAdded.id);
    expect(idsOf(await fromOne)).toEqual([ids[0], ids[2]]);
    expect(idsOf(await fromAll)).toEqual(ids);
  });

  it('ends the server-side subscription when the client unsubscribes or disconnects', async () => {
    const client = connect(reviews.subscriptionUrl as string);
    const events = client.iterate({ query: REVIEW_ADDED }) as AsyncIterator<Event>;
    const first = events.next();
    await eventually(() => expect(added.subscriberCount).toBe(1));
    await addReview('product-9', 5, 'seen');
    expect((await first).done).toBe(false);
    await events.return?.();
    await eventually(() => expect(added.subscriberCount).toBe(0));

    const other = client.iterate({ query: REVIEW_ADDED }) as AsyncIterator<Event>;
    void other.next();
    await eventually(() => expect(added.subscriberCount).toBe(1));
    await client.dispose();
    await eventually(() => expect(added.subscriberCount).toBe(0));
  });

  it('answers a subscription with a validation error as an error, not an event', async () => {
    const events = connect(reviews.subscriptionUrl as string).iterate({
      query: 'subscription { reviewAdded { nope } }',
    }) as AsyncIterator<Event>;
    await expect(events.next()).rejects.toEqual([
      expect.objectContaining({ message: expect.stringContaining('nope') }),
    ]);
    expect(added.subscriberCount).toBe(0);
  });
});

describe('WebSocket context', () => {
  // A subgraph whose one subscription answers with the caller the context names.
  const typeDefs = parse(`
    extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: [])
    type Query { ok: Boolean }
    type Subscription { caller: String }`);
  const resolvers = {
    Subscription: {
      caller: {
        subscribe: async function* (_root: unknown, _args: unknown, context: SubgraphContext) {
          yield identityOf(context);
        },
        resolve: (caller: string | null) => caller,
      },
    },
  };
  let subgraph: RunningSubgraph;
  beforeAll(async () => {
    subgraph = await startSubgraph({ name: 'reviews', typeDefs, resolvers });
  });
  afterAll(() => subgraph?.close());

  /** A ws WebSocket that sends `headers` with its upgrade request, as the gateway does. */
  const withUpgradeHeaders = (headers: Record<string, string>) =>
    class extends WebSocket {
      constructor(url: string, protocols: string | string[]) {
        super(url, protocols, { headers });
      }
    };

  async function callerSeen(options: Partial<Parameters<typeof createClient>[0]>): Promise<unknown> {
    const events = connect(subgraph.subscriptionUrl as string, options).iterate({ query: 'subscription { caller }' });
    const first = await events.next();
    return first.value?.data?.caller;
  }

  it('reads x-user-id from the upgrade request or the connection_init payload; the request wins', async () => {
    expect(await callerSeen({})).toBeNull();
    expect(await callerSeen({ webSocketImpl: withUpgradeHeaders({ 'x-user-id': 'user-5' }) })).toBe('user-5');
    expect(await callerSeen({ connectionParams: { headers: { 'X-User-Id': 'user-6' } } })).toBe('user-6');
    expect(
      await callerSeen({
        webSocketImpl: withUpgradeHeaders({ 'x-user-id': 'user-5' }),
        connectionParams: { headers: { 'x-user-id': 'user-6' } },
      }),
    ).toBe('user-5');
  });
});

describe('WebSocket lifecycle', () => {
  it('close() closes WebSocket clients with 1001 and resolves', async () => {
    const subgraph = await startSubgraph({
      ...reviewsSubgraph,
      resolvers: createReviewsResolvers(createReviewStore()),
    });
    let closedWith: number | undefined;
    const client = connect(subgraph.subscriptionUrl as string, {
      on: { closed: (event) => (closedWith = (event as { code: number }).code) },
    });
    const events = client.iterate({ query: REVIEW_ADDED }) as AsyncIterator<Event>;
    // Settled now, so its rejection is never unhandled while close() runs.
    const ended = events.next().then(
      () => 'an event',
      (error: unknown) => error,
    );
    // Subscribed (the server acknowledged and runs it) once the connection is open.
    await new Promise<void>((resolve) => client.on('connected', () => resolve()));
    const started = performance.now();
    await subgraph.close();
    expect(performance.now() - started).toBeLessThan(2_000);
    await eventually(() => expect(closedWith).toBe(1001));
    expect(await ended).toMatchObject({ code: 1001, reason: 'Going away' });
  });

  it('refuses upgrades to other paths, and a subgraph without subscriptions has no WebSocket server', async () => {
    const users = await startSubgraph({ ...usersSubgraph });
    try {
      expect(users.subscriptionUrl).toBeUndefined();
      expect(await upgradeOutcome(users.url.replace('http:', 'ws:'))).toMatch(/^refused/);
      expect(await upgradeOutcome(`ws://127.0.0.1:${reviews.port}/other`)).toBe('refused 400');
      expect(await upgradeOutcome(reviews.subscriptionUrl as string)).toBe('open');
      // Still plain HTTP for everything else.
      const health = await fetch(new URL('/health', users.url));
      expect(health.status).toBe(200);
    } finally {
      await users.close();
    }
  });
});

/** 'open', or how the upgrade was refused. */
function upgradeOutcome(url: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, 'graphql-transport-ws');
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => {
      resolve(`refused ${response.statusCode}`);
      response.resume();
      socket.terminate();
    });
    socket.on('error', () => resolve('refused'));
  });
}
