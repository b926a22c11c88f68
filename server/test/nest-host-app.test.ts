// GatewayModule in a user's own Nest application (docs/examples/nest-host-app), created with
// Nest's defaults: the app's own JSON controller keeps working beside the gateway, the
// gateway's route keeps its own body limit and error shape, and no response says X-Powered-By.

import { closedPortUrl, SUPERGRAPH_PATH } from '@fedgw/test-support';
import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp } from '../../docs/examples/nest-host-app/main.js';

const BODY_LIMIT = 4096;

describe.each(['express', 'fastify'] as const)('a Nest host app on %s with GatewayModule', (platform) => {
  let app: INestApplication;
  let origin: string;

  beforeAll(async () => {
    app = await createHostApp(platform, {
      SUPERGRAPH_PATH,
      SUBGRAPH_USERS_URL: await closedPortUrl(),
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      BODY_LIMIT: String(BODY_LIMIT),
      GATEWAY_LOG_LEVEL: 'silent',
    });
    await app.listen(0, '127.0.0.1');
    origin = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  afterAll(() => app?.close());

  const post = (path: string, body: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

  it("the app's own JSON POST controller gets its parsed body", async () => {
    const response = await post('/orders', JSON.stringify({ item: 'book', quantity: 2 }));
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ accepted: true, order: { item: 'book', quantity: 2 } });
  });

  it('the gateway answers beside it', async () => {
    const response = await post('/graphql', JSON.stringify({ query: '{ __typename }' }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it("the gateway's route keeps the gateway's body limit (not Nest's), with its coded error", async () => {
    const query = `{ __typename ${' '.repeat(BODY_LIMIT)} }`;
    const response = await post('/graphql', JSON.stringify({ query }));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
  });

  it("malformed JSON to the gateway gets the gateway's coded 400", async () => {
    const response = await post('/graphql', '{"query": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('no response carries X-Powered-By', async () => {
    const responses = await Promise.all([
      post('/orders', '{}'),
      post('/graphql', JSON.stringify({ query: '{ __typename }' })),
      fetch(`${origin}/health`),
      fetch(`${origin}/no-such-route`),
    ]);
    for (const response of responses) {
      await response.arrayBuffer();
      expect(response.headers.get('x-powered-by'), response.url).toBeNull();
    }
  });
});
