import { closedPortUrl, MOUNTS, type RunningGateway, send, startGateway } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Class: unbounded recursion over client JSON. Variables and extensions are walked
// recursively after parsing (the inbound-dedup key, logs, plugins); nested past the limit
// they are refused with a coded 400 before any of that, on every mount.

const LIMIT = 64;
// JSON text, built as text: a client's bytes, not an object this process would have to walk.
const nestedObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedArray = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`;

describe.each(MOUNTS)('client JSON nested deep, on %s with inbound dedup on', (mount) => {
  let gateway: RunningGateway;
  const post = (body: string) =>
    send(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  beforeAll(async () => {
    gateway = await startGateway(mount, {
      INBOUND_DEDUPLICATE: 'true',
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const query = '"query":"{ __typename }"';
  const deep: Array<[string, string]> = [
    ['extensions, objects 5,000 deep', `{${query},"extensions":{"x":${nestedObject(5_000)}}}`],
    ['extensions, arrays 5,000 deep', `{${query},"extensions":{"x":${nestedArray(5_000)}}}`],
    ['variables, objects 5,000 deep', `{${query},"variables":{"x":${nestedObject(5_000)}}}`],
    ['variables, just over the limit', `{${query},"variables":{"x":${nestedObject(LIMIT)}}}`],
  ];

  it.each(deep)('%s: 400 BAD_REQUEST, no 500, nothing logged at error', async (_name, body) => {
    const result = await post(body);
    expect(result.status).toBe(400);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('BAD_REQUEST');
    expect(gateway.logLines().filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('nesting within the limit is served', async () => {
    const result = await post(`{${query},"extensions":{"x":${nestedObject(LIMIT - 2)}}}`);
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ __typename: 'Query' });
  });
});
