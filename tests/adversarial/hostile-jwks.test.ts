import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  closedPortUrl,
  postGraphQL,
  type RunningGateway,
  signingKey,
  startGateway,
  token,
  writeEndlessBody,
} from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';

// Class: a dependency's answer the gateway reads without bound. A hostile or broken JWKS
// endpoint (an endless chunked body, a slow drip) must cost the gateway at most the 1 MB cap
// and JWT_JWKS_TIMEOUT_MS, and its clients a 401, never a hang or a 500.

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server: Server = createServer(handler);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
}

async function gatewayWithJwks(url: string): Promise<RunningGateway> {
  const gateway = await startGateway('fastify', {
    GATEWAY_PLUGINS: 'jwt',
    JWT_JWKS_URL: url,
    JWT_ALGORITHMS: 'RS256',
    JWT_JWKS_TIMEOUT_MS: '1500',
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
  });
  closers.push(() => gateway.stop());
  return gateway;
}

describe('a hostile JWKS endpoint', () => {
  it('an endless chunked body: read up to the 1 MB cap, then dropped; the client gets 401', async () => {
    let written = () => 0;
    let dropped: Promise<unknown> = new Promise(() => {});
    const url = await serve((_req, res) => {
      dropped = new Promise((resolve) => res.once('close', resolve));
      written = writeEndlessBody(res, '{"keys":[{"kty":"RSA","n":"', '"}]}', 500 * 1024 * 1024);
    });
    const gateway = await gatewayWithJwks(url);
    const result = await postGraphQL(
      gateway.url,
      { query: '{ __typename }' },
      { authorization: `Bearer ${await token(await signingKey())}` },
    );
    expect(result.status).toBe(401);
    expect(result.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // Socket buffers hold a few MB at most; reading the body whole would have taken all 500 MB.
    await dropped; // the gateway closed the connection
    expect(written()).toBeLessThan(32 * 1024 * 1024);
  });

  it('a slow drip: the fetch ends at JWT_JWKS_TIMEOUT_MS, body included; the client gets 401', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"keys":[');
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    });
    const gateway = await gatewayWithJwks(url);
    const started = Date.now();
    const result = await postGraphQL(
      gateway.url,
      { query: '{ __typename }' },
      { authorization: `Bearer ${await token(await signingKey())}` },
    );
    expect(result.status).toBe(401);
    // Generous: a hang would be the test's 30 s timeout.
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});
