import { request as httpRequest } from 'node:http';
import { ApolloClient, type DocumentNode, gql, InMemoryCache } from '@apollo/client';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { getProduct, getUser } from '@fedgw/subgraphs';
import { eventually, MOUNTS, type RunningGateway, send, subgraphUrlEnv } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * Operation batching (BATCHING_MAX_OPERATIONS) on every mount: Apollo Client 4's real
 * `BatchHttpLink` against the started gateway, and raw HTTP for what a client library would
 * not send (an empty, oversized or malformed batch). Each operation is a request of its own
 * to the rate limit and every check; the batch's refusals happen before any of it runs.
 */
const MAX_OPERATIONS = 4;
const USER = gql`
  query User($id: ID!) {
    user(id: $id) {
      id
      name
    }
  }
`;
const PRODUCT = gql`
  query Product($id: ID!) {
    product(id: $id) {
      id
      name
    }
  }
`;
const UNKNOWN_FIELD = gql`
  query Broken {
    noSuchField
  }
`;

const subgraphs = subgraphsForFile();

/** A client whose operations started in the same tick leave in one batch (one HTTP request). */
function batchingClient(url: string, headers: Record<string, string> = {}) {
  return new ApolloClient({
    link: new BatchHttpLink({ uri: url, batchMax: MAX_OPERATIONS + 1, batchInterval: 20, headers }),
    cache: new InMemoryCache(),
  });
}

/** One operation through the client, its errors returned beside its data (not thrown). */
function ask(client: ApolloClient, query: DocumentNode, variables?: Record<string, unknown>) {
  return client.query({ query, ...(variables && { variables }), fetchPolicy: 'no-cache', errorPolicy: 'all' });
}

const postJson = (url: string, body: unknown) =>
  send(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The request-log lines of batched requests. */
const batchLines = (gateway: RunningGateway) =>
  gateway.logLines().filter((line) => line.msg === 'request completed' && Array.isArray(line.batch));

const codesOf = (error: unknown): unknown[] =>
  ((error as { errors?: { extensions?: { code?: unknown } }[] } | undefined)?.errors ?? []).map(
    (entry) => entry.extensions?.code,
  );

describe.each(MOUNTS)('operation batching on %s', (mount) => {
  describe(`BATCHING_MAX_OPERATIONS=${MAX_OPERATIONS}`, () => {
    const gateway = gatewayForBlock(mount, () => ({
      ...subgraphUrlEnv(subgraphs()),
      BATCHING_MAX_OPERATIONS: String(MAX_OPERATIONS),
      INBOUND_DEDUPLICATE: 'true',
    }));

    it("serves Apollo Client's BatchHttpLink: one HTTP request, each answer to its operation", async () => {
      const client = batchingClient(gateway().url);
      const before = batchLines(gateway()).length;
      const [first, second, third] = await Promise.all([
        ask(client, USER, { id: 'user-1' }),
        ask(client, PRODUCT, { id: 'product-2' }),
        ask(client, USER, { id: 'user-3' }),
      ]);
      expect(first.error).toBeUndefined();
      expect(first.data).toEqual({ user: { __typename: 'User', id: 'user-1', name: userName('user-1') } });
      expect(second.data).toEqual({
        product: { __typename: 'Product', id: 'product-2', name: getProduct('product-2')?.name },
      });
      expect(third.data).toEqual({ user: { __typename: 'User', id: 'user-3', name: userName('user-3') } });
      // One request carried the three: its log line names each operation, in order.
      // (written once the response is sent, so read once it arrived)
      await eventually(() => expect(batchLines(gateway()).slice(before)).toHaveLength(1));
      expect(batchLines(gateway()).slice(before)[0]).toMatchObject({
        status: 200,
        operationName: null,
        batch: ['User', 'Product', 'User'],
      });
    });

    it('one invalid operation fails alone: the others are answered and the batch is 200', async () => {
      const client = batchingClient(gateway().url);
      const [good, broken, alsoGood] = await Promise.all([
        ask(client, USER, { id: 'user-2' }),
        ask(client, UNKNOWN_FIELD),
        ask(client, PRODUCT, { id: 'product-1' }),
      ]);
      expect(good.error).toBeUndefined();
      expect(good.data).toMatchObject({ user: { id: 'user-2' } });
      expect(codesOf(broken.error)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
      expect(alsoGood.data).toMatchObject({ product: { id: 'product-1' } });

      // The same over raw HTTP: answers in order, the status of the operations that ran.
      const raw = await postJson(gateway().url, [
        { query: '{ __typename }' },
        { query: '{ noSuchField }' },
        { query: 'query Named { __typename }' },
      ]);
      expect(raw.status).toBe(200);
      const answers = JSON.parse(raw.text) as { data?: unknown; errors?: { extensions: { code: string } }[] }[];
      expect(answers).toHaveLength(3);
      expect(answers[0]).toEqual({ data: { __typename: 'Query' } });
      expect(answers[1]?.data).toBeUndefined();
      expect(answers[1]?.errors?.[0]?.extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
      expect(answers[2]).toEqual({ data: { __typename: 'Query' } });
    });

    it('a batch where no operation ran keeps the refusal status', async () => {
      const raw = await postJson(gateway().url, [{ query: '{ noSuchField }' }, { query: '{ alsoMissing }' }]);
      expect(raw.status).toBe(400);
      const answers = JSON.parse(raw.text) as { errors: { extensions: { code: string } }[] }[];
      expect(answers.map((answer) => answer.errors[0]?.extensions.code)).toEqual([
        'GRAPHQL_VALIDATION_FAILED',
        'GRAPHQL_VALIDATION_FAILED',
      ]);
    });

    it('identical queries of one batch are both answered (inbound deduplication on)', async () => {
      const query = 'query Same { topProducts(first: 2) { id name } }';
      const raw = await postJson(gateway().url, [{ query }, { query }]);
      expect(raw.status).toBe(200);
      const [a, b] = JSON.parse(raw.text) as { data: { topProducts: unknown[] } }[];
      expect(a?.data.topProducts).toHaveLength(2);
      expect(b).toEqual(a);
    });

    it(`refuses a batch over ${MAX_OPERATIONS} with 400 BATCH_TOO_LARGE before parsing any of it`, async () => {
      // The last operation does not parse: refused for its size, nothing of the batch was read.
      const operations = [...Array.from({ length: MAX_OPERATIONS }, () => ({ query: '{ __typename }' }))];
      const result = await postJson(gateway().url, [...operations, { query: '{ not a document' }]);
      expect(result.status).toBe(400);
      expect(result.body.errors?.[0]?.extensions?.code).toBe('BATCH_TOO_LARGE');
      expect(result.body.errors?.[0]?.message).toContain(`at most ${MAX_OPERATIONS}`);
      // Exactly the limit is served.
      const atLimit = await postJson(gateway().url, operations);
      expect(atLimit.status).toBe(200);
      expect(JSON.parse(atLimit.text)).toHaveLength(MAX_OPERATIONS);
    });

    it('refuses an empty batch and a malformed operation with 400 BAD_REQUEST', async () => {
      const empty = await postJson(gateway().url, []);
      expect(empty.status).toBe(400);
      expect(empty.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
      for (const malformed of [42, {}, { query: { kind: 'Document' } }, { query: '{ __typename }', variables: 'x' }]) {
        const result = await postJson(gateway().url, [{ query: '{ __typename }' }, malformed]);
        expect(result.status, JSON.stringify(malformed)).toBe(400);
        expect(result.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
        expect(result.body.errors?.[0]?.message).toContain('Operation 1 of the batch');
      }
    });

    it('a GET is never a batch: a GET with a JSON array body is refused whole (400 BAD_REQUEST)', async () => {
      const query = encodeURIComponent('{ __typename }');
      const result = await getWithBody(
        `${gateway().url}?query=${query}`,
        JSON.stringify([{ query: '{ a: __typename }' }, { query: '{ b: __typename }' }]),
      );
      expect(result.status, result.text).toBe(400);
      const answer = JSON.parse(result.text) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
      expect(answer.data).toBeUndefined();
      expect(answer.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_REQUEST']);
    });
  });

  describe('with RATE_LIMIT_MAX=3: each operation of a batch is charged on its own', () => {
    const gateway = gatewayForBlock(mount, () => ({
      ...subgraphUrlEnv(subgraphs()),
      BATCHING_MAX_OPERATIONS: '5',
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_WINDOW: '5m',
    }));

    it('refused batches cost nothing; a batch of 5 gets 3 answers, then 2 REQUEST_RATE_LIMITED, in order', async () => {
      // Refused before running: none of these is charged (else fewer than 3 would be answered below).
      const tooLarge = await postJson(
        gateway().url,
        Array.from({ length: 6 }, () => ({ query: '{ __typename }' })),
      );
      expect(tooLarge.body.errors?.[0]?.extensions?.code).toBe('BATCH_TOO_LARGE');
      const malformed = await postJson(gateway().url, [{ query: '{ __typename }' }, 7]);
      expect(malformed.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');

      const client = batchingClient(gateway().url);
      const ids = ['user-1', 'user-2', 'user-3', 'user-4', 'user-5'];
      const results = await Promise.all(ids.map((id) => ask(client, USER, { id })));
      for (const [index, result] of results.slice(0, 3).entries()) {
        expect(result.error, `operation ${index}`).toBeUndefined();
        expect(result.data).toMatchObject({ user: { id: ids[index] } });
      }
      for (const result of results.slice(3)) {
        expect(result.data).toBeUndefined();
        expect(codesOf(result.error)).toEqual(['REQUEST_RATE_LIMITED']);
      }
      // Three ran, so the batch is 200; the two refused were never parsed (no name).
      await eventually(() => expect(batchLines(gateway())).toHaveLength(1));
      expect(batchLines(gateway())[0]).toMatchObject({ status: 200, batch: ['User', 'User', 'User', null, null] });
    });
  });
});

function userName(id: string): string | undefined {
  return getUser(id)?.name;
}

/** fetch() cannot send a GET with a body; node:http can. */
function getWithBody(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'GET',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'apollo-require-preflight': 'true',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
