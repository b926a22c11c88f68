import type { ListeningServer } from '@fedgw/adapters';
import { listenExpress } from '@fedgw/adapters/express';
import { listenFastify } from '@fedgw/adapters/fastify';
import { createGatewayFromConfig, createLogger, type Gateway, parseConfig } from '@fedgw/gateway';
import { closedPortUrl, SUPERGRAPH_PATH, startTestHttpServer, type TestHttpServer } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Header rules end to end, in process, on both platforms: what reaches a subgraph, and
 * which subgraph response headers reach the client (several set-cookie headers included,
 * which only the adapters' appendResponseHeader can carry).
 */
describe.each([
  ['fastify', listenFastify],
  ['express', listenExpress],
] as const)('header rules over HTTP on %s', (_platform, listen) => {
  let users: TestHttpServer;
  let gateway: Gateway;
  let server: ListeningServer;

  beforeAll(async () => {
    users = await startTestHttpServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.setHeader('cache-control', 'public, max-age=60');
      response.setHeader('set-cookie', ['a=1; Path=/', 'b=2; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT']);
      response.end(JSON.stringify({ data: { user: { id: 'user-1', name: 'Ada' } } }));
    });
    const config = parseConfig({
      SUPERGRAPH_PATH,
      SUBGRAPH_USERS_URL: users.url,
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      GATEWAY_PLUGINS: 'header-rules',
      GATEWAY_HEADER_RULES: JSON.stringify({
        all: [
          { propagate: { named: 'x-tenant', rename: 'x-tenant-id' } },
          { insert: { name: 'source', value: 'gateway' } },
        ],
        response: [{ name: 'cache-control' }, { name: 'set-cookie' }],
      }),
    });
    gateway = await createGatewayFromConfig(config, {
      logger: createLogger({ log: { level: 'silent', pretty: false } }),
    });
    await gateway.start();
    server = await listen(gateway, { port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await server?.close();
    await gateway?.stop();
    await users?.close();
  });

  it('sends the rule headers to the subgraph and passes its response headers back', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'acme', connection: 'keep-alive' },
      body: JSON.stringify({ query: '{ user(id: "user-1") { id name } }' }),
    });
    expect(await response.json()).toEqual({ data: { user: { id: 'user-1', name: 'Ada' } } });
    const sent = users.requests.at(-1)?.headers;
    expect(sent?.['x-tenant-id']).toBe('acme');
    expect(sent?.source).toBe('gateway');
    expect(sent?.['x-tenant']).toBeUndefined();
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.getSetCookie()).toEqual([
      'a=1; Path=/',
      'b=2; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT',
    ]);
  });
});
