import {
  eventually,
  type Gate,
  type GraphQLResult,
  MOUNTS,
  postGraphQL,
  type RunningGateway,
  startGate,
  startGateway,
  subgraphUrlEnv,
  token,
  unsignedToken,
} from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../gateway/src/config/parse.js';
import { loadShedding } from '../../gateway/src/plugins/load-shedding/index.js';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * A client must not get a higher load-shedding class than the operator gives it. The classes
 * here are checkout (0), web (1, the default) and batch (2), SHED_MAX_IN_FLIGHT=1 and a step of
 * 100%: batch is shed from 1 operation in flight, web from 2, checkout from 3. Overload is a
 * real signal: products sits behind a gate holding checkout's `topProducts` queries.
 * Attacks: a self-declared client name (`apollographql-client-name`, anyone sets it) naming a
 * better class, a JWT claim the gateway did not verify (forged, unsigned, or with no JWT plugin
 * to verify it), a verified batch consumer adding a better client name, an unknown API key, and
 * an operator rule that would let a client name grant a class above the default.
 */
const SECRET = 'shed-class-claims-secret-long-enough-0123456789';
const OTHER_SECRET = 'someone-elses-secret-long-enough-0123456789abc';
const HELD = '{ topProducts(first: 1) { id } }';
const PROBE = '{ user(id: "user-5") { id } }';
const CLASSES = 'checkout=0,web=1,batch=2';
const CHECKOUT_KEY = 'checkout-key-0123456789abcdef';
const BATCH_KEY = 'batch-key-0123456789abcdef0123';

const subgraphs = subgraphsForFile();
const codesOf = (result: GraphQLResult) => result.body.errors?.map((error) => error.extensions?.code);
const bearer = (value: string) => ({ authorization: `Bearer ${value}` });

describe('an operator rule that lets a self-declared client name lift its class', () => {
  it('stops startup, naming SHED_CLASS_RULES', () => {
    const env = {
      SHED_CLASSES: CLASSES,
      SHED_DEFAULT_CLASS: 'web',
      SHED_MAX_IN_FLIGHT: '10',
      SHED_CLASS_RULES: 'client:checkout=checkout',
    };
    expect(() => parseConfig(env)).toThrow(
      /SHED_CLASS_RULES.*client:checkout=checkout: a client name is self-declared/s,
    );
    // At or below the default it is fine: a client name may only lower a class.
    expect(parseConfig({ ...env, SHED_CLASS_RULES: 'client:nightly=batch,client:web-app=web' }).shedding.rules).toEqual(
      [
        { kind: 'client', value: 'nightly', className: 'batch' },
        { kind: 'client', value: 'web-app', className: 'web' },
      ],
    );
  });

  it('is refused by the plugin factory too (a plugin built in code)', () => {
    expect(() =>
      loadShedding({ classes: { checkout: 0, batch: 1 }, rules: ['client:checkout=checkout'], maxInFlight: 1 }),
    ).toThrow(/rules.*self-declared/s);
  });
});

describe.each(MOUNTS)('shedding classes on %s', (mount) => {
  let gate: Gate;
  beforeAll(async () => {
    gate = await startGate(subgraphs().products.url);
  });
  afterAll(async () => {
    gate?.release();
    await gate?.server.close();
  });

  /** Holds `count` requests of `headers` at products and returns a function that releases them. */
  async function hold(gateway: RunningGateway, count: number, headers: Record<string, string>) {
    gate.close();
    const held = Array.from({ length: count }, () => postGraphQL(gateway.url, { query: HELD }, headers));
    await eventually(() => expect(gate.holding()).toBe(count)); // poll: the gate's count of held requests
    return async () => {
      gate.release();
      expect((await Promise.all(held)).map((result) => result.status)).toEqual(Array(count).fill(200));
    };
  }

  describe('with the JWT plugin verifying claims (web and batch shed, checkout served)', () => {
    let gateway: RunningGateway;
    let gold: string;
    beforeAll(async () => {
      gold = await token(new TextEncoder().encode(SECRET), { claims: { tier: 'gold' } });
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv({ ...subgraphs(), products: { url: gate.server.url } }),
        GATEWAY_PLUGINS: 'jwt',
        JWT_SECRET: SECRET,
        JWT_ALGORITHMS: 'HS256',
        JWT_REQUIRED: 'false',
        SHED_CLASSES: CLASSES,
        SHED_DEFAULT_CLASS: 'web',
        SHED_CLASS_RULES: 'claim:tier=gold=checkout,client:nightly=batch',
        SHED_MAX_IN_FLIGHT: '1',
        SHED_STEP_PERCENT: '100',
        SUBGRAPH_RETRIES: '0',
      });
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it('gives checkout only to a verified claim', async () => {
      const release = await hold(gateway, 2, bearer(gold));
      try {
        const [verified, byHeader, forged, unsigned, anonymous] = await Promise.all([
          postGraphQL(gateway.url, { query: PROBE }, bearer(gold)),
          postGraphQL(gateway.url, { query: PROBE }, { 'apollographql-client-name': 'checkout' }),
          postGraphQL(
            gateway.url,
            { query: PROBE },
            bearer(await token(new TextEncoder().encode(OTHER_SECRET), { claims: { tier: 'gold' } })),
          ),
          postGraphQL(gateway.url, { query: PROBE }, bearer(unsignedToken({ tier: 'gold', exp: 9_999_999_999 }))),
          postGraphQL(gateway.url, { query: PROBE }),
        ]);
        expect(verified.status).toBe(200);
        // The header names a class, but a client name is not evidence of one: the default (web) is shed.
        expect([byHeader.status, codesOf(byHeader)]).toEqual([503, ['REQUEST_CONCURRENCY_LIMITED']]);
        expect([anonymous.status, codesOf(anonymous)]).toEqual([503, ['REQUEST_CONCURRENCY_LIMITED']]);
        // A claim nobody verified never reaches the classifier: the JWT plugin refuses the token first.
        expect([forged.status, codesOf(forged)]).toEqual([401, ['UNAUTHENTICATED']]);
        expect([unsigned.status, codesOf(unsigned)]).toEqual([401, ['UNAUTHENTICATED']]);
      } finally {
        await release();
      }
    });
  });

  describe('with API keys and no JWT plugin (batch shed, web and checkout served)', () => {
    let gateway: RunningGateway;
    beforeAll(async () => {
      gateway = await startGateway(mount, {
        ...subgraphUrlEnv({ ...subgraphs(), products: { url: gate.server.url } }),
        GATEWAY_PLUGINS: 'api-key',
        GATEWAY_API_KEYS: `checkout-svc:${CHECKOUT_KEY},batch-svc:${BATCH_KEY}`,
        SHED_CLASSES: CLASSES,
        SHED_DEFAULT_CLASS: 'web',
        SHED_CLASS_RULES:
          'consumer:checkout-svc=checkout,consumer:batch-svc=batch,claim:tier=gold=checkout,client:web-app=web',
        SHED_MAX_IN_FLIGHT: '1',
        SHED_STEP_PERCENT: '100',
        SUBGRAPH_RETRIES: '0',
      });
    });
    afterAll(async () => {
      await gateway?.stop();
    });

    it('keeps a verified batch consumer in batch, whatever it declares, and refuses an unknown key', async () => {
      const release = await hold(gateway, 1, { 'x-api-key': CHECKOUT_KEY });
      try {
        const anyonesToken = await token(new TextEncoder().encode(OTHER_SECRET), { claims: { tier: 'gold' } });
        const batch = { 'x-api-key': BATCH_KEY };
        const [control, declaredWeb, claimedGold, unknownKey, checkout] = await Promise.all([
          postGraphQL(gateway.url, { query: PROBE }, batch),
          postGraphQL(gateway.url, { query: PROBE }, { ...batch, 'apollographql-client-name': 'web-app' }),
          postGraphQL(gateway.url, { query: PROBE }, { ...batch, ...bearer(anyonesToken) }),
          postGraphQL(gateway.url, { query: PROBE }, { 'x-api-key': 'guessed-key-0123456789abcdef' }),
          postGraphQL(gateway.url, { query: PROBE }, { 'x-api-key': CHECKOUT_KEY }),
        ]);
        expect([control.status, codesOf(control)]).toEqual([503, ['REQUEST_CONCURRENCY_LIMITED']]);
        // The verified consumer decides first: a client name cannot lift batch to web.
        expect([declaredWeb.status, codesOf(declaredWeb)]).toEqual([503, ['REQUEST_CONCURRENCY_LIMITED']]);
        // No JWT plugin: the token's claims are never read, so `claim:tier=gold` cannot match.
        expect([claimedGold.status, codesOf(claimedGold)]).toEqual([503, ['REQUEST_CONCURRENCY_LIMITED']]);
        expect([unknownKey.status, codesOf(unknownKey)]).toEqual([401, ['UNAUTHENTICATED']]);
        expect(checkout.status).toBe(200);
      } finally {
        await release();
      }
    });
  });
});
