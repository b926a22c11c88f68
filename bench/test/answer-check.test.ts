import { expectedUserWithProducts } from '@fedgw/subgraphs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers } from '../src/load/answer-check.js';
import { firstDifference } from '../src/load/diff.js';
import { postJson } from '../src/load/http-post.js';
import { COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, requestBody, sampleUserIds, TYPENAME } from '../src/load/queries.js';
import { Progress } from '../src/run/progress.js';
import { runScenario } from '../src/run/run-scenario.js';
import { createSetups } from '../src/targets/setups.js';
import { type RunningSubgraphs, startSubgraphs } from '../src/targets/subgraph-processes.js';
import { type FakeServer, sendJson, startFakeServer } from './fake-server.js';
import { freeConsecutivePorts } from './ports.js';

let subgraphs: RunningSubgraphs;

beforeAll(async () => {
  subgraphs = await startSubgraphs(await freeConsecutivePorts(3), undefined);
});

afterAll(async () => {
  await subgraphs?.stop();
});

describe('reference answers', () => {
  it('match what the real users subgraph serves for the sampled users', async () => {
    for (const userId of sampleUserIds(20)) {
      const response = await postJson(
        subgraphs.urls.users,
        JSON.stringify({
          query: 'query ($id: ID!) { user(id: $id) { id name email orders { id product { id } } } }',
          variables: { id: userId },
        }),
      );
      const expected = expectedUserWithProducts(userId).user;
      const answer = JSON.parse(response.text).data.user;
      const shape = expected && {
        id: expected.id,
        name: expected.name,
        email: expected.email,
        orders: expected.orders.map((order) => ({ id: order.id, product: { id: order.product.id } })),
      };
      expect(answer, userId).toEqual(shape);
    }
  });

  it('match what the real products subgraph serves for their products', async () => {
    const { user } = expectedUserWithProducts('user-7');
    const representations = (user?.orders ?? []).map((order) => ({ __typename: 'Product', id: order.product.id }));
    const response = await postJson(
      subgraphs.urls.products,
      JSON.stringify({
        query: 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Product { id name price } } }',
        variables: { r: representations },
      }),
    );
    expect(JSON.parse(response.text).data._entities).toEqual(user?.orders.map((order) => order.product));
  });
});

describe('answer checking', () => {
  let wrong: FakeServer;

  beforeAll(async () => {
    // Plays a target that is fast but wrong: every user's name is off.
    wrong = await startFakeServer((body, _i, res) => {
      const { query, variables } = JSON.parse(body) as { query: string; variables?: { userId: string } };
      if (query.includes('__typename')) return sendJson(res, 200, { data: { __typename: 'Query' } });
      const data = expectedUserWithProducts(variables?.userId ?? '');
      sendJson(res, 200, { data: data.user ? { user: { ...data.user, name: 'Nobody' } } : data });
    });
  });

  afterAll(async () => {
    await wrong.close();
  });

  it('names the first difference of a wrong answer', async () => {
    const check = await checkAnswers({
      url: wrong.url,
      queries: [GET_USER_WITH_PRODUCTS_QUERY],
      userIds: ['user-1'],
    });
    expect(check.ok).toBe(false);
    if (!check.ok)
      expect(check.message).toMatch(
        /^GetUserWithProducts for user-1: at data\.user\.name: expected ".+", got "Nobody"$/,
      );
  });

  it('marks a wrong target as wrong-answer and never measures it', async () => {
    const setups = await createSetups();
    const lines: string[] = [];
    const result = await runScenario(
      {
        id: 'A',
        title: 'A',
        description: '',
        kind: 'closed-loop',
        rows: [
          {
            target: { name: 'wrong', kind: 'external', url: wrong.url },
            setup: setups.none,
            variant: GET_USER_WITH_PRODUCTS_QUERY.name,
            query: GET_USER_WITH_PRODUCTS_QUERY,
            load: { kind: 'closed', connections: 1 },
            durationSec: 1,
            warmupSec: 0,
          },
        ],
      },
      {
        targetEnvironment: async () => {
          throw new Error('an external target needs no environment');
        },
        otherGroups: () => [],
        targetGroup: () => null,
        cpusIn: () => 1,
        userIds: ['user-3', 'user-4'],
        progress: new Progress(1, 1, (line) => lines.push(line)),
      },
    );
    expect(result.rows).toHaveLength(1);
    expect(result.rows[0]).toMatchObject({ target: 'wrong', status: 'wrong-answer' });
    expect(result.rows[0]?.message).toContain('at data.user.name');
    expect(result.rows[0]?.rps).toBeUndefined();
    expect(lines.join('\n')).toContain('wrong-answer');
  });

  it('reports a non-JSON or non-200 answer', async () => {
    const broken = await startFakeServer((_body, _i, res) => {
      res.writeHead(502).end('<html>bad gateway</html>');
    });
    try {
      const check = await checkAnswers({ url: broken.url, queries: [TYPENAME], userIds: [] });
      expect(check).toEqual({ ok: false, message: '{ __typename }: HTTP 502: <html>bad gateway</html>' });
    } finally {
      await broken.close();
    }
  });

  it('builds request bodies with the user and the query text', () => {
    expect(JSON.parse(requestBody(COMPLEX, 'user-9'))).toEqual({
      query: COMPLEX.text,
      variables: { userId: 'user-9' },
    });
    expect(JSON.parse(requestBody(TYPENAME))).toEqual({ query: '{ __typename }' });
  });
});

describe('firstDifference', () => {
  it('finds nothing in equal values, and the first path otherwise', () => {
    expect(firstDifference({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] })).toBeNull();
    expect(firstDifference({ a: [1, { b: 'y' }] }, { a: [1, { b: 'x' }] })).toBe('at a[1].b: expected "x", got "y"');
    expect(firstDifference({ a: [1] }, { a: [1, 2] })).toBe('at a: expected 2 items, got 1');
    expect(firstDifference({ a: 1, errors: [] }, { a: 1 })).toBe('at errors: unexpected []');
    expect(firstDifference({}, { a: null })).toBe('at a: missing (expected null)');
  });
});
