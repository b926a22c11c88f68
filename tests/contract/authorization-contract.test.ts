import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type ChaosSubgraph,
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
 * (@policy support, granted by AUTHORIZATION_POLICIES to a `role: support` claim). The users
 * subgraph sits behind a recording proxy, to prove it is never asked for a filtered field.
 * Filtering on shapes this supergraph lacks (interfaces, unions, types) is tested beside the
 * plugin (gateway/test/plugins/authorization).
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

async function bearer(claims: Record<string, unknown>, subject = 'user-3'): Promise<Record<string, string>> {
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
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
  describe('filter (the default), with inbound and subgraph deduplication on', () => {
    const gateway = gatewayForBlock(mount, () => env({ INBOUND_DEDUPLICATE: 'true', SUBGRAPH_DEDUPLICATE: 'true' }));

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
      expect(orderHistory?.body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'orderHistory')] });
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

    it('fragment spreads, inline fragments and aliases: filtered where they select, errors under the alias', async () => {
      const result = await postGraphQL(gateway().url, {
        query:
          'query { u: user(id: "user-2") { ...Names } } fragment Names on User { id ... on User { place: address } }',
      });
      expect(result.body).toEqual({ data: { u: null }, errors: [unauthorized('u', 'place')] });
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
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the reload was not applied');
  };

  it('a trusted document is filtered like any other', async () => {
    expect((await byId()).body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'address')] });
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
    expect((await byId()).body).toEqual({ data: { user: null }, errors: [unauthorized('user', 'address')] });
  });
});
