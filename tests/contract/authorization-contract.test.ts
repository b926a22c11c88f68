import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChaosSubgraph,
  eventually,
  MOUNTS,
  postGraphQL,
  SUPERGRAPH_PATH,
  send,
  startChaosSubgraph,
  subgraphUrlEnv,
} from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldNamesIn } from '../support/field-names.js';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * The supergraph's authorization directives over real HTTP on every mount: `User.address`
 * (@authenticated), `User.orderHistory` (@requiresScopes orders:read), `Order.paymentReference`
 * (@policy support, granted by AUTHORIZATION_POLICIES to a `role: support` claim), the union
 * member `InternalNote` (@authenticated) of `search`, and the interface `TimelineEvent` of
 * `User.timeline` (its implementation `SignIn` is @requiresScopes audit:read, which
 * composition copies onto the interface). Error paths are Apollo Router's. The users
 * subgraph sits behind a recording proxy, to prove it is never asked for a filtered field.
 * Shapes this supergraph lacks (an interface left unrestricted by composition) are tested
 * beside the plugin (gateway/test/plugins/authorization).
 */
const SECRET = 'authorization-test-secret-long-enough-0123456789';
const subgraphs = subgraphsForFile();
let users: ChaosSubgraph;
beforeAll(async () => {
  users = await startChaosSubgraph({ target: subgraphs().users.url });
});
afterAll(async () => {
  await users?.close();
});

/** A token for `claims`; `subject: null` leaves `sub` out (a machine-to-machine token). */
async function bearer(
  claims: Record<string, unknown>,
  subject: string | null = 'user-3',
): Promise<Record<string, string>> {
  const unsigned = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' });
  if (subject !== null) unsigned.setSubject(subject);
  const token = await unsigned.setExpirationTime('5m').sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}
const signedIn = () => bearer({});
const withScope = () => bearer({ scope: 'profile orders:read' });
const support = () => bearer({ scope: 'orders:read', role: 'support' });

/** Reads a field of an answer's object (answers are untyped JSON). */
const field = (value: unknown, name: string): unknown => (value as Record<string, unknown> | null | undefined)?.[name];

const unauthorized = (...path: (string | number)[]) => ({
  message: 'Unauthorized field or type',
  path,
  extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
});

/** The field names the users subgraph was asked for during `action`. */
async function sentToUsers(action: () => Promise<unknown>): Promise<string[]> {
  users.resetCounts();
  await action();
  return fieldNamesIn(users.requests);
}

const env = (extra: Record<string, string> = {}) => ({
  ...subgraphUrlEnv(subgraphs()),
  SUBGRAPH_USERS_URL: users.url,
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: SECRET,
  JWT_ALGORITHMS: 'HS256',
  JWT_REQUIRED: 'false',
  AUTHORIZATION_POLICIES: 'support:role=support',
  ...extra,
});

describe.each(MOUNTS)('authorization directives on %s', (mount) => {
  // Filtering happens before planning, so each planner (ADR 061) must plan the filtered document:
  // planning the text the client sent once sent every denied field to the subgraph.
  describe.each([
    [
      'filter (the default), with inbound and subgraph deduplication on',
      { INBOUND_DEDUPLICATE: 'true', SUBGRAPH_DEDUPLICATE: 'true' },
    ],
    ['filter, planned by QUERY_PLANNER=hive', { QUERY_PLANNER: 'hive' }],
  ])('%s', (_name, extra: Record<string, string>) => {
    const gateway = gatewayForBlock(mount, () => env(extra));

    it('anonymous: @authenticated is null, propagated to the nullable parent, one coded error; never sent', async () => {
      let result: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        result = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id name address } }' });
      });
      expect(result?.status).toBe(200);
      expect(result?.body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'address')] });
      expect(sent).toContain('name');
      expect(sent).not.toContain('address');
    });

    it('signed in: @authenticated is answered; @requiresScopes without the scope is not, never sent', async () => {
      const headers = await signedIn();
      const address = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { address } }' }, headers);
      expect(address.body.errors).toBeUndefined();
      expect(field(address.body.data?.user, 'address')).toMatch(/Main Street$/);
      let orderHistory: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        orderHistory = await postGraphQL(
          gateway().url,
          { query: '{ user(id: "user-1") { name orderHistory { id } } }' },
          headers,
        );
      });
      // A list field's path ends in `@`, as Apollo Router writes it.
      expect(orderHistory?.body).toEqual({
        data: { user: null },
        errors: [unauthorized('user', 'orderHistory', '@')],
      });
      expect(sent).not.toContain('orderHistory');
    });

    it('with the scope: the order history is answered; @policy refused inside the list is one error, never sent', async () => {
      const headers = await withScope();
      const orderHistory = await postGraphQL(
        gateway().url,
        { query: '{ user(id: "user-1") { orderHistory { id } } }' },
        headers,
      );
      expect(orderHistory.body.errors).toBeUndefined();
      expect((field(orderHistory.body.data?.user, 'orderHistory') as unknown[]).length).toBeGreaterThan(0);
      let refused: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        refused = await postGraphQL(
          gateway().url,
          { query: '{ user(id: "user-1") { orderHistory { id paymentReference } } }' },
          headers,
        );
      });
      expect(refused?.body).toEqual({
        data: { user: null },
        errors: [unauthorized('user', 'orderHistory', '@', 'paymentReference')],
      });
      expect(sent).not.toContain('paymentReference');
    });

    it('the policy granted by a claim: answered', async () => {
      const result = await postGraphQL(
        gateway().url,
        { query: '{ user(id: "user-1") { orderHistory { id paymentReference } } }' },
        await support(),
      );
      expect(result.body.errors).toBeUndefined();
      for (const order of (field(result.body.data?.user, 'orderHistory') ?? []) as {
        id: string;
        paymentReference: string;
      }[])
        expect(order.paymentReference).toBe(`pay_${order.id}`);
    });

    it('fragment spreads, inline fragments and aliases: filtered where they select; the path names fields and inline fragments, as the Router writes it', async () => {
      const result = await postGraphQL(gateway().url, {
        query:
          'query { u: user(id: "user-2") { ...Names } } fragment Names on User { id ... on User { place: address } }',
      });
      expect(result.body).toEqual({ data: { u: null }, errors: [unauthorized('user', '... on User', 'address')] });
    });

    it('a refusal under a null parent or in an empty list is still reported (paths come from the operation)', async () => {
      const result = await postGraphQL(gateway().url, {
        query:
          '{ user(id: "user-0") { name address } search(text: "zzz") { __typename ... on InternalNote { body } } product(id: "product-1") { id } }',
      });
      expect(result.body).toEqual({
        data: { user: null, search: [], product: { id: 'product-1' } },
        errors: [unauthorized('user', 'address'), unauthorized('search', '@', '... on InternalNote')],
      });
    });

    it('every selected field refused: data is null and no subgraph is asked', async () => {
      let result: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        result = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { address } }' });
      });
      expect(result?.body).toEqual({ data: null, errors: [unauthorized('user', 'address')] });
      expect(sent).toEqual([]);
    });

    it('a union with an @authenticated member: anonymous gets the other members, one error, the note never asked for', async () => {
      const query =
        '{ search(text: "rob torvalds") { __typename ... on User { id name } ... on InternalNote { id body } } }';
      let result: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        result = await postGraphQL(gateway().url, { query });
      });
      const found = field(result?.body.data, 'search') as Record<string, unknown>[];
      expect(found.filter((item) => item.__typename === 'User').length).toBeGreaterThan(0);
      for (const item of found) {
        if (item.__typename === 'User') expect(item.name).toBe('Rob Torvalds');
        else expect(item).toEqual({ __typename: 'InternalNote' });
      }
      expect(found).toContainEqual({ __typename: 'InternalNote' });
      expect(result?.body.errors).toEqual([unauthorized('search', '@', '... on InternalNote')]);
      expect(sent).not.toContain('body');
      // Any verified token is signed in, with or without `sub` (a machine-to-machine token).
      const machine = await postGraphQL(gateway().url, { query }, await bearer({ azp: 'billing' }, null));
      expect(machine.body.errors).toBeUndefined();
      expect(field(machine.body.data, 'search')).toContainEqual({
        __typename: 'InternalNote',
        id: 'note-1',
        body: 'Call Rob Torvalds back about order-1.',
      });
    });

    it('a named fragment on the restricted member: removed, reported where it is spread', async () => {
      const result = await postGraphQL(gateway().url, {
        query: '{ search(text: "kettle") { ...Note ... on Product { id } } } fragment Note on InternalNote { body }',
      });
      expect(result.body.errors).toEqual([unauthorized('search', '@')]);
      expect((field(result.body.data, 'search') as unknown[]).length).toBeGreaterThan(0);
    });

    it('an interface one implementation of which needs a scope: the field is refused whole without it, answered with it', async () => {
      const query =
        '{ user(id: "user-1") { name timeline { __typename ... on OrderPlaced { id } ... on SignIn { ip } } } }';
      const without = await postGraphQL(gateway().url, { query }, await withScope());
      expect(without.body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'timeline', '@')] });
      const auditor = await postGraphQL(gateway().url, { query }, await bearer({ scope: 'audit:read' }, null));
      expect(auditor.body.errors).toBeUndefined();
      expect(field(auditor.body.data?.user, 'timeline')).toContainEqual({ __typename: 'SignIn', ip: '10.0.0.1' });
    });

    it('the same operation with other rights gets its own plan and answer, even sent at once', async () => {
      const query = '{ user(id: "user-4") { name address } }';
      const [anonymous, signed, again] = await Promise.all([
        postGraphQL(gateway().url, { query }),
        postGraphQL(gateway().url, { query }, await signedIn()),
        postGraphQL(gateway().url, { query }),
      ]);
      expect(anonymous.body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'address')] });
      expect(again.body).toEqual(anonymous.body);
      expect(signed.body.errors).toBeUndefined();
      expect(field(signed.body.data?.user, 'address')).toMatch(/Main Street$/);
    });

    it('a query without guarded fields is untouched', async () => {
      const result = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id name } }' });
      expect(result.body.errors).toBeUndefined();
      expect(field(result.body.data?.user, 'id')).toBe('user-1');
    });
  });

  describe('AUTHORIZATION_MODE=reject', () => {
    const gateway = gatewayForBlock(mount, () => env({ AUTHORIZATION_MODE: 'reject' }));

    it('a restricted union member or interface refuses the whole request; a token without sub is signed in', async () => {
      const search = '{ search(text: "call") { ... on Product { id } ... on InternalNote { body } } }';
      const anonymous = await postGraphQL(gateway().url, { query: search });
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED_OPERATION');
      const machine = await postGraphQL(gateway().url, { query: search }, await bearer({}, null));
      expect(machine.status).toBe(200);
      expect(field(machine.body.data, 'search')).toContainEqual({ body: expect.stringMatching(/^Call /) });
      const timeline = await postGraphQL(
        gateway().url,
        { query: '{ user(id: "user-1") { timeline { id } } }' },
        await withScope(),
      );
      expect(timeline.status).toBe(403);
    });

    it('refuses the whole request with 403, before any subgraph is asked', async () => {
      let result: Awaited<ReturnType<typeof postGraphQL>> | undefined;
      const sent = await sentToUsers(async () => {
        result = await postGraphQL(gateway().url, { query: '{ user(id: "user-1") { id name address } }' });
      });
      expect(result?.status).toBe(403);
      expect(result?.body.errors?.[0]?.extensions?.code).toBe('UNAUTHORIZED_OPERATION');
      expect(result?.body.data).toBeUndefined();
      expect(sent).toEqual([]);
      const allowed = await postGraphQL(
        gateway().url,
        { query: '{ user(id: "user-1") { address } }' },
        await signedIn(),
      );
      expect(allowed.status).toBe(200);
      expect(field(allowed.body.data?.user, 'address')).toMatch(/Main Street$/);
    });
  });
});

describe('authorization across a hot reload and with trusted documents', () => {
  let path = '';
  const original = () => readFile(SUPERGRAPH_PATH, 'utf8');
  beforeAll(async () => {
    path = join(await mkdtemp(join(tmpdir(), 'authz-')), 'supergraph.graphql');
    await writeFile(path, await original());
    manifestPath = await manifest();
  });
  const ADDRESS = '{ user(id: "user-1") { address } }';
  const manifest = async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'authz-docs-')), 'manifest.json');
    await writeFile(file, JSON.stringify({ 'address-v1': ADDRESS }));
    return file;
  };
  let manifestPath = '';
  const gateway = gatewayForBlock('fastify', () =>
    env({
      SUPERGRAPH_PATH: path,
      SUPERGRAPH_POLL_INTERVAL_MS: '100',
      TRUSTED_DOCUMENTS: manifestPath,
      TRUSTED_DOCUMENTS_MODE: 'allow-ids',
    }),
  );
  const byId = () =>
    send(gateway().url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ documentId: 'address-v1' }),
    });
  const waitFor = (check: () => Promise<boolean>) =>
    eventually(async () => expect(await check(), 'the reload was not applied').toBe(true));

  it('a trusted document is filtered like any other', async () => {
    expect((await byId()).body).toEqual({ data: null, errors: [unauthorized('user', 'address')] });
  });

  it('a reload that drops the directive opens the field; one that adds it back closes it, no restart', async () => {
    await writeFile(
      path,
      (await original()).replace(/(address: String! @join__field\(graph: USERS\)) @authenticated/, '$1'),
    );
    await waitFor(async () => (await byId()).body.errors === undefined);
    expect(field((await byId()).body.data?.user, 'address')).toMatch(/Main Street$/);
    await writeFile(path, await original());
    await waitFor(async () => (await byId()).body.errors !== undefined);
    expect((await byId()).body).toEqual({ data: null, errors: [unauthorized('user', 'address')] });
  });
});
