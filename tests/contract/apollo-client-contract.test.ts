import { ApolloClient, gql, HttpLink, InMemoryCache, type TypedDocumentNode } from '@apollo/client';
import { GraphQLWsLink } from '@apollo/client/link/subscriptions';
import { MOUNTS, subgraphUrlEnv, warmUp } from '@fedgw/test-support';
import { createClient } from 'graphql-ws';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * Apollo Client 4 as an app uses it, on every mount: `HttpLink` for queries and mutations
 * (through the CSRF rule: Apollo Client's requests are preflighted, `application/json`) and
 * `GraphQLWsLink` for a federated subscription. Batching (`BatchHttpLink`) is in
 * batching-contract.test.ts, multipart subscriptions in multipart-subscriptions-contract.test.ts.
 */
const subgraphs = subgraphsForFile();

interface UserData {
  user: { id: string; name: string; orders: { id: string; product: { id: string; name: string } }[] } | null;
}
interface ReviewData {
  reviewAdded: { comment: string; author: { name: string }; product: { name: string } };
}

const USER: TypedDocumentNode<UserData> = gql`
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
const REVIEW_ADDED: TypedDocumentNode<ReviewData> = gql`
  subscription OnReview($productId: ID) {
    reviewAdded(productId: $productId) {
      comment
      author {
        name
      }
      product {
        name
      }
    }
  }
`;

describe.each(MOUNTS)('Apollo Client 4 on %s', (mount) => {
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()) }));

  it('HttpLink: a federated query, cached and normalized by the client', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: gateway().url }), cache: new InMemoryCache() });
    const { data, error } = await client.query({ query: USER, variables: { id: 'user-2' } });
    expect(error).toBeUndefined();
    expect(data?.user).toMatchObject({ id: 'user-2', name: expect.any(String) });
    expect(data?.user?.orders.length).toBeGreaterThan(0);
    expect(client.cache.extract()).toHaveProperty('User:user-2');
  });

  it('HttpLink: a refused operation reaches the client as its coded error', async () => {
    const client = new ApolloClient({ link: new HttpLink({ uri: gateway().url }), cache: new InMemoryCache() });
    const { error } = await client.query({
      query: gql`
        {
          user(id: "user-1") {
            nope
          }
        }
      `,
      errorPolicy: 'all',
    });
    expect(JSON.stringify(error)).toContain('GRAPHQL_VALIDATION_FAILED');
  });

  it('GraphQLWsLink: a federated subscription receives its events', async () => {
    const wsClient = createClient({ url: gateway().url.replace(/^http/, 'ws'), webSocketImpl: WebSocket });
    const client = new ApolloClient({ link: new GraphQLWsLink(wsClient), cache: new InMemoryCache() });
    const comments: string[] = [];
    const productId = `product-${mount.length + 30}`;
    const subscription = client.subscribe({ query: REVIEW_ADDED, variables: { productId } }).subscribe({
      next: ({ data }) => {
        if (data?.reviewAdded) comments.push(data.reviewAdded.comment);
      },
    });
    try {
      await warmUp({
        reviewsUrl: subgraphs().reviews.url,
        productId,
        comment: 'from apollo client',
        live: () => comments.includes('from apollo client'),
      });
    } finally {
      subscription.unsubscribe();
      await wsClient.dispose();
    }
    expect(comments).toContain('from apollo client');
  });
});
