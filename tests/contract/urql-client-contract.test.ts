import { MOUNTS, subgraphUrlEnv, warmUp } from '@fedgw/test-support';
import {
  type Client,
  cacheExchange,
  createClient,
  fetchExchange,
  gql,
  type OperationResult,
  subscriptionExchange,
} from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * urql (`@urql/core`) as an app uses it, on every mount, with its defaults: its fetch exchange
 * sends `Accept: application/graphql-response+json, application/graphql+json, application/json,
 * text/event-stream, multipart/mixed` for queries and mutations (and `text/event-stream,
 * multipart/mixed` for subscriptions over fetch), which must get JSON for a query, multipart
 * for @defer and an event stream for a subscription: the transport the client prefers among
 * those the operation can have, as Apollo Router answers. Subscriptions also run through
 * `subscriptionExchange` with graphql-sse's client, and over multipart when a client asks for it.
 */
const subgraphs = subgraphsForFile();
const SECRET = 'urql-contract-secret-of-at-least-32-bytes';

const USER = gql`
  query GetUser($id: ID!) {
    user(id: $id) {
      id
      name
      orders {
        id
        product {
          id
          name
        }
      }
    }
  }
`;
const DEFERRED = gql`
  query Deferred($id: ID!) {
    user(id: $id) {
      id
      name
      ... @defer(label: "orders") {
        orders {
          id
          product {
            id
            name
          }
        }
      }
    }
  }
`;
const ADD_REVIEW = gql`
  mutation Add($productId: ID!, $comment: String!) {
    addReview(productId: $productId, rating: 5, comment: $comment) {
      id
      comment
      author {
        id
      }
    }
  }
`;
const REVIEW_ADDED = gql`
  subscription OnReview($productId: ID) {
    reviewAdded(productId: $productId) {
      comment
      product {
        name
      }
    }
  }
`;

interface UserData {
  user: { id: string; name: string; orders?: { id: string; product: { name: string } }[] } | null;
}

async function bearer(subject: string): Promise<string> {
  return `Bearer ${await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET))}`;
}

/** Every result the source gives until it completes (`hasNext: false`), within 10 s. */
function allResults<T>(source: { subscribe(next: (result: OperationResult<T>) => void): { unsubscribe(): void } }) {
  return new Promise<OperationResult<T>[]>((resolve, reject) => {
    const results: OperationResult<T>[] = [];
    const timer = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`no final result after 10 s: ${JSON.stringify(results)}`));
    }, 10_000);
    const subscription = source.subscribe((result) => {
      results.push(result);
      if (!result.hasNext) {
        clearTimeout(timer);
        resolve(results);
      }
    });
  });
}

/** Subscribes through `client`, adds reviews until one arrives, then unsubscribes. */
async function receivesReview(client: Client, productId: string, comment: string): Promise<string[]> {
  const comments: string[] = [];
  const errors: unknown[] = [];
  const subscription = client
    .subscription<{ reviewAdded: { comment: string } }>(REVIEW_ADDED, { productId })
    .subscribe((result) => {
      if (result.error) errors.push(result.error);
      if (result.data?.reviewAdded) comments.push(result.data.reviewAdded.comment);
    });
  try {
    // The subscription is live at the subgraph only a moment after urql opens it: one of test-support's
    // warm-ups (the review itself, added again until it comes back), never a fixed wait.
    await warmUp({
      reviewsUrl: subgraphs().reviews.url,
      productId,
      comment,
      live: () => comments.includes(comment),
      ended: () => errors[0] && `subscription failed: ${String(errors[0])}`,
    });
  } finally {
    subscription.unsubscribe();
  }
  return comments;
}

describe.each(MOUNTS)('urql on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({
    ...subgraphUrlEnv(subgraphs()),
    GATEWAY_PLUGINS: 'jwt',
    JWT_SECRET: SECRET,
    JWT_ALGORITHMS: 'HS256',
    JWT_REQUIRED: 'false',
    JWT_CLAIM_HEADERS: 'sub:x-user-id',
  }));
  const plainClient = (options: { fetchSubscriptions?: boolean; headers?: Record<string, string> } = {}) =>
    createClient({
      url: gateway().url,
      exchanges: [cacheExchange, fetchExchange],
      preferGetMethod: false,
      ...(options.fetchSubscriptions && { fetchSubscriptions: true }),
      ...(options.headers && { fetchOptions: { headers: options.headers } }),
    });

  it('a federated query, answered as JSON', async () => {
    const result = await plainClient().query<UserData>(USER, { id: 'user-2' }).toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.user).toMatchObject({ id: 'user-2', name: expect.any(String) });
    expect(result.data?.user?.orders?.length).toBeGreaterThan(0);
  });

  it('a mutation, signed in', async () => {
    const comment = `from urql on ${mount}`;
    const client = plainClient({ headers: { authorization: await bearer('user-4') } });
    const result = await client
      .mutation<{ addReview: { comment: string; author: { id: string } } }>(ADD_REVIEW, {
        productId: 'product-2',
        comment,
      })
      .toPromise();
    expect(result.error).toBeUndefined();
    expect(result.data?.addReview).toMatchObject({ comment, author: { id: 'user-4' } });
  });

  it('a refused operation reaches urql as its coded error', async () => {
    const result = await plainClient()
      .query(
        gql`
          {
            user(id: "user-1") {
              nope
            }
          }
        `,
        {},
      )
      .toPromise();
    expect(result.error?.graphQLErrors[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('@defer: the initial part first, then the deferred fragment, merged by urql', async () => {
    const results = await allResults(plainClient().query<UserData>(DEFERRED, { id: 'user-2' }));
    const [first] = results;
    const last = results.at(-1);
    expect(results.length).toBeGreaterThan(1);
    expect(first?.error).toBeUndefined();
    expect(first?.data?.user).toMatchObject({ id: 'user-2', name: expect.any(String) });
    expect(first?.data?.user?.orders).toBeUndefined();
    expect(first?.hasNext).toBe(true);
    expect(last?.error).toBeUndefined();
    expect(last?.data?.user?.orders?.length).toBeGreaterThan(0);
  });

  it("a subscription over fetch (urql's fetchSubscriptions): graphql-sse's event stream, its preference", async () => {
    const client = plainClient({ fetchSubscriptions: true });
    const productId = `product-${MOUNTS.indexOf(mount) + 40}`;
    expect(await receivesReview(client, productId, 'from urql over sse')).toContain('from urql over sse');
  });

  it('a subscription over multipart HTTP, when the client asks for multipart/mixed', async () => {
    const client = plainClient({ fetchSubscriptions: true, headers: { accept: 'multipart/mixed' } });
    const productId = `product-${MOUNTS.indexOf(mount) + 50}`;
    expect(await receivesReview(client, productId, 'from urql over multipart')).toContain('from urql over multipart');
  });

  it("a subscription through subscriptionExchange and graphql-sse's client", async () => {
    const sse = createSseClient({ url: gateway().url, retryAttempts: 0 });
    const client = createClient({
      url: gateway().url,
      exchanges: [
        cacheExchange,
        fetchExchange,
        subscriptionExchange({
          forwardSubscription: (request) => ({
            subscribe: (sink) => ({
              unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink as never),
            }),
          }),
        }),
      ],
    });
    const productId = `product-${MOUNTS.indexOf(mount) + 60}`;
    try {
      expect(await receivesReview(client, productId, 'from urql via graphql-sse')).toContain(
        'from urql via graphql-sse',
      );
    } finally {
      sse.dispose();
    }
  });
});
