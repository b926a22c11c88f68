import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeCursor } from '../src/users/pagination.js';
import { usersSubgraph } from '../src/users/subgraph.js';
import { codesOf, createOperationRunner } from './helpers.js';

type Runner = Awaited<ReturnType<typeof createOperationRunner>>;
let subgraph: Runner;
beforeAll(async () => {
  subgraph = await createOperationRunner(usersSubgraph.typeDefs, usersSubgraph.resolvers);
});
afterAll(() => subgraph.stop());

const PAGE = `query ($first: Int, $after: String) {
  users(first: $first, after: $after) {
    edges { cursor node { id } }
    pageInfo { hasNextPage endCursor }
    totalCount
  }
}`;

interface Page {
  users: {
    edges: { cursor: string; node: { id: string } }[];
    pageInfo: { hasNextPage: boolean; endCursor: string | null };
    totalCount: number;
  };
}

describe('users pagination', () => {
  it('walks all 1,000 users exactly once, in order', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const result = await subgraph.run(PAGE, { first: 100, after });
      expect(result.errors).toBeUndefined();
      const { users } = result.data as unknown as Page;
      expect(users.totalCount).toBe(1_000);
      seen.push(...users.edges.map((e) => e.node.id));
      pages++;
      if (!users.pageInfo.hasNextPage) break;
      after = users.pageInfo.endCursor;
    }
    expect(pages).toBe(10);
    expect(new Set(seen).size).toBe(1_000);
    expect(seen[0]).toBe('user-1');
    expect(seen.at(-1)).toBe('user-1000');
  });

  it('defaults to 10 and continues after the given cursor', async () => {
    const first = (await subgraph.run(PAGE)).data as unknown as Page;
    expect(first.users.edges).toHaveLength(10);
    const next = (await subgraph.run(PAGE, { first: 3, after: first.users.pageInfo.endCursor }))
      .data as unknown as Page;
    expect(next.users.edges.map((e) => e.node.id)).toEqual(['user-11', 'user-12', 'user-13']);
  });

  it('returns an empty last page after the final cursor', async () => {
    const page = (await subgraph.run(PAGE, { after: encodeCursor('user-1000') })).data as unknown as Page;
    expect(page.users.edges).toEqual([]);
    expect(page.users.pageInfo).toEqual({ hasNextPage: false, endCursor: null });
  });

  it.each([0, -1, 101])('rejects first: %i with BAD_USER_INPUT', async (first) => {
    const result = await subgraph.run(PAGE, { first });
    expect(codesOf(result)).toEqual(['BAD_USER_INPUT']);
    expect(result.errors?.[0]?.extensions?.field).toBe('first');
  });

  it.each(['not a cursor', encodeCursor('user-1001'), `${encodeCursor('user-5')}=`, ''])(
    'rejects the malformed cursor %j with BAD_USER_INPUT',
    async (after) => {
      const result = await subgraph.run(PAGE, { after });
      expect(codesOf(result)).toEqual(['BAD_USER_INPUT']);
      expect(result.errors?.[0]?.extensions?.field).toBe('after');
    },
  );
});

describe('users queries', () => {
  it('resolves a user with orders pointing at product references', async () => {
    const result = await subgraph.run('{ user(id: "user-1") { id email orders { id quantity product { id } } } }');
    expect(result.data).toEqual({
      user: {
        id: 'user-1',
        email: 'rob.torvalds.1@example.com',
        orders: [
          { id: 'order-1', quantity: 4, product: { id: 'product-340' } },
          { id: 'order-2', quantity: 1, product: { id: 'product-299' } },
          { id: 'order-3', quantity: 5, product: { id: 'product-233' } },
          { id: 'order-4', quantity: 1, product: { id: 'product-199' } },
        ],
      },
    });
  });

  // The subgraph serves the field to anyone who asks: @policy(support) is the gateway's to enforce.
  it('derives each order payment reference from the order id, the same on every call', async () => {
    const query = '{ user(id: "user-2") { orders { id paymentReference } } }';
    const first = await subgraph.run(query);
    expect(first.errors).toBeUndefined();
    const { orders } = (first.data as { user: { orders: { id: string; paymentReference: string }[] } }).user;
    expect(orders.length).toBeGreaterThan(0);
    for (const order of orders) expect(order.paymentReference).toBe(`pay_${order.id}`);
    expect((await subgraph.run(query)).data).toEqual(first.data);
    expect((await subgraph.run('{ user(id: "user-1") { orders { paymentReference } } }')).data?.user).toEqual({
      orders: [
        { paymentReference: 'pay_order-1' },
        { paymentReference: 'pay_order-2' },
        { paymentReference: 'pay_order-3' },
        { paymentReference: 'pay_order-4' },
      ],
    });
  });

  it('derives the address from the id, and the order history is the orders', async () => {
    const result = await subgraph.run('{ user(id: "user-5") { address orders { id } orderHistory { id } } }');
    const user = (result.data as { user: { address: string; orders: unknown[]; orderHistory: unknown[] } }).user;
    expect(user.address).toBe('5 Main Street');
    expect(user.orderHistory).toEqual(user.orders);
  });

  it('returns null for an unknown user, also as an entity', async () => {
    const result = await subgraph.run(
      `{ user(id: "user-0") { id }
         _entities(representations: [{ __typename: "User", id: "user-2" }, { __typename: "User", id: "nope" }]) {
           ... on User { id }
         } }`,
    );
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ user: null, _entities: [{ id: 'user-2' }, null] });
  });

  it('resolves me from x-user-id, null without it or for an unknown id', async () => {
    expect((await subgraph.run('{ me { id } }', {}, { 'x-user-id': 'user-42' })).data).toEqual({
      me: { id: 'user-42' },
    });
    expect((await subgraph.run('{ me { id } }')).data).toEqual({ me: null });
    expect((await subgraph.run('{ me { id } }', {}, { 'x-user-id': 'user-9999' })).data).toEqual({
      me: null,
    });
  });
});

// The demo's abstract types: the subgraph answers every member to anyone; the gateway enforces
// @authenticated on InternalNote and @requiresScopes on SignIn.
describe('search and timeline', () => {
  const SEARCH = `query ($text: String!) { search(text: $text) {
    __typename ... on User { id name } ... on Product { id } ... on InternalNote { id body } } }`;
  type Found = { __typename: string; id: string; name?: string; body?: string };
  const found = async (text: string) => ((await subgraph.run(SEARCH, { text })).data as { search: Found[] }).search;

  it('finds users by name, products by name and notes by body, case-insensitive, at most 20, users first', async () => {
    const rob = await found('ROB torvalds ');
    for (const result of rob) {
      if (result.__typename === 'User') expect(result.name).toBe('Rob Torvalds');
      else expect(result.body).toContain('Rob Torvalds');
    }
    const kinds = rob.map((result) => result.__typename);
    expect(kinds[0]).toBe('User');
    expect(kinds.indexOf('InternalNote')).toBeGreaterThan(kinds.lastIndexOf('User'));
    const kettles = await found('kettle');
    expect(kettles.length).toBeGreaterThan(0);
    expect(kettles.every((result) => result.__typename === 'Product' && result.id.startsWith('product-'))).toBe(true);
    expect(await found('e')).toHaveLength(20);
    expect(await found('   ')).toEqual([]);
  });

  it('a note names a user and one of their orders', async () => {
    const notes = (await found('call')).filter((result) => result.__typename === 'InternalNote');
    expect(notes[0]).toEqual({
      __typename: 'InternalNote',
      id: 'note-1',
      body: 'Call Rob Torvalds back about order-1.',
    });
  });

  it('a timeline: a sign-in then the order, for each order, oldest first', async () => {
    const result = await subgraph.run(
      '{ user(id: "user-1") { timeline { __typename id at ... on SignIn { ip } ... on OrderPlaced { order { id } } } } }',
    );
    const timeline = (result.data as { user: { timeline: Record<string, unknown>[] } }).user.timeline;
    expect(timeline).toHaveLength(8);
    expect(timeline[0]).toMatchObject({ __typename: 'SignIn', id: 'signin-order-1', ip: '10.0.0.1' });
    expect(timeline[1]).toMatchObject({ __typename: 'OrderPlaced', id: 'placed-order-1', order: { id: 'order-1' } });
    const times = timeline.map((event) => Date.parse(event.at as string));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });
});
