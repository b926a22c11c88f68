import {
  closedPortUrl,
  json,
  postGraphQL,
  type RunningGateway,
  startGateway,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../gateway/src/config/parse.js';

// Class: a subgraph's own error reaching clients word for word in production. An error carrying
// a client-safe code (BAD_USER_INPUT) kept its message under MASK_ERRORS, connection string and
// all. SUBGRAPH_ERRORS (Apollo Router's include_subgraph_errors) now decides what of a subgraph's
// errors clients read, redacting every one by default in production, whatever its code.

const SECRET = 'postgres://admin:hunter2@users-db.internal:5432/users';
/** A `users` subgraph that fails the way a careless resolver does: the driver's message as the client's. */
const leakyAnswer = {
  data: { user: null },
  errors: [
    {
      message: `invalid input for user id: ${SECRET} rejected it`,
      path: ['user'],
      extensions: { code: 'BAD_USER_INPUT', exception: { stacktrace: [`at query (${SECRET})`] } },
    },
    { message: `connection reset by ${SECRET}`, path: ['user'], extensions: { code: 'DB_ERROR' } },
  ],
};
const QUERY = '{ user(id: "user-1") { id name } topProducts(first: 1) { id } }';

let users: TestHttpServer;
let productsDown: string;
beforeAll(async () => {
  users = await startTestHttpServer(json(leakyAnswer));
  productsDown = await closedPortUrl();
});
afterAll(async () => {
  await users?.close();
});

/** A production gateway (MASK_ERRORS on by default) whose users subgraph is the leaky one. */
function gatewayWith(env: () => Record<string, string>): () => RunningGateway {
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway('fastify', {
      SUBGRAPH_USERS_URL: users.url,
      SUBGRAPH_PRODUCTS_URL: productsDown,
      SUBGRAPH_REVIEWS_URL: productsDown,
      ...env(),
    });
  });
  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
  });
  return () => gateway as RunningGateway;
}

type Answer = { errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[] };
const onUser = (body: Answer) => (body.errors ?? []).filter((error) => error.path?.[0] === 'user');

describe('by default in production (SUBGRAPH_ERRORS unset)', () => {
  const gateway = gatewayWith(() => ({}));

  it("redacts every message the subgraph wrote, a client-safe code's included: path and code kept, nothing else", async () => {
    const answer = await postGraphQL(gateway().url, { query: QUERY });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
    expect(onUser(answer.body as Answer)).toEqual([
      { message: 'Subgraph errors redacted', path: ['user'], extensions: { code: 'BAD_USER_INPUT' } },
      // A code that is not client-safe: MASK_ERRORS's message, the code as the subgraph sent it.
      { message: 'Internal server error', path: ['user'], extensions: { code: 'DB_ERROR' } },
    ]);
  });

  it("never redacts the gateway's own errors: an unreachable subgraph's fields still say what happened", async () => {
    const answer = await postGraphQL(gateway().url, { query: QUERY });
    const products = (answer.body as Answer).errors?.find((error) => error.path?.[0] === 'topProducts');
    expect(products?.extensions?.code).toBe('SUBREQUEST_HTTP_ERROR');
    expect(products?.message).toMatch(/^Subgraph "products" /);
  });
});

describe('SUBGRAPH_ERRORS=codes', () => {
  const gateway = gatewayWith(() => ({ SUBGRAPH_ERRORS: 'codes' }));

  it('passes the message of a client-safe code and redacts the others', async () => {
    const answer = await postGraphQL(gateway().url, { query: QUERY });
    const [safe, other] = onUser(answer.body as Answer);
    expect(safe).toEqual({
      message: leakyAnswer.errors[0]?.message,
      path: ['user'],
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect(other?.message).toBe('Internal server error');
    expect(JSON.stringify(other)).not.toContain('hunter2');
  });
});

describe('SUBGRAPH_ERRORS=mask with SUBGRAPH_USERS_ERRORS=all (one subgraph trusted)', () => {
  const gateway = gatewayWith(() => ({ SUBGRAPH_ERRORS: 'mask', SUBGRAPH_USERS_ERRORS: 'all' }));

  it("passes that subgraph's messages; MASK_ERRORS still masks a code that is not client-safe", async () => {
    const answer = await postGraphQL(gateway().url, { query: QUERY });
    const [safe, other] = onUser(answer.body as Answer);
    expect(safe?.message).toBe(leakyAnswer.errors[0]?.message);
    expect(other?.message).toBe('Internal server error');
  });
});

describe('the setting', () => {
  it('is mask in production, all in development, and per subgraph in the environment or the file', () => {
    expect(parseConfig({}, { cwd: '/srv' }).subgraphDefaults.errors).toBe('mask');
    expect(parseConfig({ GATEWAY_ENV: 'development' }, { cwd: '/srv' }).subgraphDefaults.errors).toBe('all');
    expect(parseConfig({ SUBGRAPH_REVIEWS_ERRORS: 'codes' }, { cwd: '/srv' }).subgraphs.reviews?.errors).toBe('codes');
    expect(() => parseConfig({ SUBGRAPH_ERRORS: 'none' }, { cwd: '/srv' })).toThrow(
      /SUBGRAPH_ERRORS: expected one of mask \| codes \| all, got "none"/,
    );
  });
});

// The same class through the two fields a redacted error keeps: its code and its path are the
// subgraph's text too. A driver's code with the row in it (`ER_DUP_ENTRY 'ann@…'`), a path entry
// quoting a value, or a code that is an object reached clients word for word under `mask`.
describe('by default in production, the code and path a redacted error keeps', () => {
  let sneaky: TestHttpServer;
  let gateway: RunningGateway | undefined;
  beforeAll(async () => {
    sneaky = await startTestHttpServer(
      json({
        data: { user: null },
        errors: [
          { message: 'a', path: ['user'], extensions: { code: `ER_DUP_ENTRY ${SECRET}` } },
          { message: 'b', path: ['user'], extensions: { code: { detail: SECRET } } },
          { message: 'c', path: ['user', `row ${SECRET}`, 0], extensions: { code: 'P2002' } },
          { message: 'd', path: [SECRET], extensions: { code: 'BAD_USER_INPUT' } },
        ],
      }),
    );
    gateway = await startGateway('fastify', {
      SUBGRAPH_USERS_URL: sneaky.url,
      SUBGRAPH_PRODUCTS_URL: productsDown,
      SUBGRAPH_REVIEWS_URL: productsDown,
    });
  });
  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
    await sneaky?.close();
  });

  it("pass only a code that is a constant's name and a path of field names and indices", async () => {
    const answer = await postGraphQL((gateway as RunningGateway).url, { query: '{ user(id: "user-1") { id } }' });
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).not.toContain('hunter2');
    const codes = ((answer.body as Answer).errors ?? []).map((error) => [error.path, error.extensions?.code]);
    // The codes dropped read as any code-less subgraph error does; the cut path keeps its valid head.
    expect(codes).toEqual([
      [['user'], 'DOWNSTREAM_SERVICE_ERROR'],
      [['user'], 'DOWNSTREAM_SERVICE_ERROR'],
      [['user'], 'P2002'],
      [undefined, 'BAD_USER_INPUT'],
    ]);
  });
});
