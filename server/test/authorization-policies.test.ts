// A `@policy` decider given in code (createGateway's / GatewayModule's `policies`), over real
// HTTP and the real subgraphs: it decides per request from the verified identity, is asked only
// about the policies an operation uses, and a decider that throws refuses the request (logged).
import { createLogger, type PolicyDecider } from '@fedgw/gateway';
import { captureLines, postGraphQL, startSubgraphs } from '@fedgw/test-support';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServedGateway, serveGateway } from './helpers/serve-gateway.js';

const SECRET = 'policy-decider-test-secret-long-enough-0123456789';
let subgraphs: Awaited<ReturnType<typeof startSubgraphs>>;
const served: ServedGateway[] = [];

beforeAll(async () => {
  subgraphs = await startSubgraphs();
}, 60_000);
afterAll(async () => {
  await Promise.all(served.map((gateway) => gateway.close()));
  await Promise.all(Object.values(subgraphs ?? {}).map((subgraph) => subgraph.stop()));
});

const env = () => ({
  SUBGRAPH_USERS_URL: subgraphs.users.url,
  SUBGRAPH_PRODUCTS_URL: subgraphs.products.url,
  SUBGRAPH_REVIEWS_URL: subgraphs.reviews.url,
  GATEWAY_PLUGINS: 'jwt',
  JWT_SECRET: SECRET,
  JWT_ALGORITHMS: 'HS256',
  JWT_REQUIRED: 'false',
  // Ignored: a decider given in code replaces these rules.
  AUTHORIZATION_POLICIES: 'support:role=support',
});

async function as(subject: string, claims: Record<string, unknown> = {}) {
  const token = await new SignJWT({ scope: 'orders:read', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode(SECRET));
  return { authorization: `Bearer ${token}` };
}

const PAYMENTS = '{ user(id: "user-1") { orderHistory { id paymentReference } } }';

describe('a policy decider in code', () => {
  it('grants per request from the identity, and is asked only about the policies the operation uses', async () => {
    const asked: string[][] = [];
    const policies: PolicyDecider = (context, needed) => {
      asked.push([...needed]);
      return context.identity.subject === 'user-9' ? ['support', 'not-needed'] : [];
    };
    const gateway = await serveGateway(env(), { policies });
    served.push(gateway);

    const granted = await postGraphQL(gateway.url, { query: PAYMENTS }, await as('user-9'));
    expect(granted.body.errors).toBeUndefined();
    // The claim rule of AUTHORIZATION_POLICIES would grant this caller; the decider does not.
    const refused = await postGraphQL(gateway.url, { query: PAYMENTS }, await as('user-3', { role: 'support' }));
    expect(refused.body).toEqual({
      data: { user: null },
      errors: [
        {
          message: 'Unauthorized field or type',
          path: ['user', 'orderHistory', '@', 'paymentReference'],
          extensions: { code: 'UNAUTHORIZED_FIELD_OR_TYPE' },
        },
      ],
    });
    await postGraphQL(gateway.url, { query: '{ user(id: "user-1") { address } }' }, await as('user-9'));
    expect(asked).toEqual([['support'], ['support']]);
  });

  it('a decider that throws refuses the request that needs it (503, fail closed), logs it at error; others are answered', async () => {
    const logs = captureLines();
    const gateway = await serveGateway(env(), {
      logger: createLogger({ log: { level: 'info', pretty: false } }, logs.stream),
      policies: () => {
        throw new Error('policy service down');
      },
    });
    served.push(gateway);
    const result = await postGraphQL(gateway.url, { query: PAYMENTS }, await as('user-9'));
    expect(result.status).toBe(503);
    expect(result.body.data).toBeUndefined();
    expect(result.body.errors?.[0]?.extensions?.code).toBe('AUTHORIZATION_POLICY_UNAVAILABLE');
    expect(logs.lines.filter((line) => line.level === 50 && line.plugin === 'authorization')).toHaveLength(1);
    // An operation that needs no policy never asks the decider.
    const unguarded = await postGraphQL(gateway.url, { query: '{ user(id: "user-1") { name } }' }, await as('user-9'));
    expect(unguarded.body).toEqual({ data: { user: { name: expect.any(String) } } });
  });
});
