import type { ApolloGateway } from '@apollo/gateway';
import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import type { FormattedExecutionResult } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../src/compose/create-gateway.js';
import { parseConfig } from '../../src/config/parse.js';
import { createContext } from '../../src/context.js';
import type { GatewayPlugin, RequestScope, StreamOutcome } from '../../src/contract/index.js';
import type { Executor, RequestContext } from '../../src/executor/apollo-internals.js';
import type { Gateway } from '../../src/gateway-core.js';
import { createLogger } from '../../src/logger.js';
import { openStreamSink } from '../../src/subscriptions/stream-sink.js';
import { subscriptionExecutor } from '../../src/subscriptions/subscription-executor.js';
import { SubscriptionRegistry } from '../../src/subscriptions/subscription-registry.js';
import { type SubgraphSocketServer, startSubgraphSocketServer } from './subgraph-server.js';

const silent = createLogger({ log: { level: 'silent', pretty: false } });

const closers: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function scopeOf(ip: string, headers: Record<string, string> = {}, requestId = `req-${Math.random()}`): RequestScope {
  return {
    requestId,
    method: 'GET',
    url: '/graphql',
    headers,
    ip,
    startedAt: process.hrtime.bigint(),
    appendResponseHeader: () => {},
  };
}

describe('subscriptionExecutor: before planning', () => {
  /** An ApolloGateway that fails the test if the executor reads anything of it. */
  const untouchable = new Proxy(
    {},
    {
      get: (_, name) => {
        throw new Error(`the gateway was read (${String(name)})`);
      },
    },
  ) as ApolloGateway;

  function executorWith(next: Executor) {
    return subscriptionExecutor(untouchable, next, {
      settings: {} as never,
      registry: new SubscriptionRegistry(1),
      clientKey: (address) => address,
      plugins: [],
      formatError: (error) => error,
      logger: silent,
    });
  }

  function requestContext(operation: 'query' | 'subscription', withSink: boolean): RequestContext {
    const context = createContext(scopeOf('10.0.0.1'));
    if (withSink) openStreamSink(context);
    return { operation: { operation }, context, request: {} } as unknown as RequestContext;
  }

  it('hands every other operation to the next executor, untouched', async () => {
    const answer = { data: { ok: true } };
    const next = vi.fn(async () => answer);
    const request = requestContext('query', true);
    expect(await executorWith(next)(request)).toBe(answer);
    expect(next).toHaveBeenCalledWith(request);
  });

  it('refuses a subscription with SUBSCRIPTION_NOT_SUPPORTED when no streaming transport asked (plain HTTP)', async () => {
    const next = vi.fn();
    const result = await executorWith(next)(requestContext('subscription', false));
    expect(next).not.toHaveBeenCalled();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.extensions?.code).toBe('SUBSCRIPTION_NOT_SUPPORTED');
    expect(result.errors?.[0]?.message).toBe(
      'Subscriptions need a WebSocket, Server-Sent Events or a multipart HTTP response.',
    );
  });
});

/**
 * The whole gateway (createGateway, the real supergraph, Apollo Server's pipeline) with the
 * reviews subgraph's WebSocket played by a graphql-ws server on loopback. An in-code plugin
 * authenticates from test headers (`x-test-subject`, `x-test-consumer`) and sends the subject
 * to subgraphs as `x-user-id`, as a header rule would.
 */
describe('subscriptionExecutor in a gateway', () => {
  const identityPlugin: GatewayPlugin = {
    name: 'test-identity',
    authenticate: (scope) => {
      const subject = scope.headers['x-test-subject'];
      const consumer = scope.headers['x-test-consumer'];
      return {
        ...(typeof subject === 'string' && { subject }),
        ...(typeof consumer === 'string' && { consumer }),
      };
    },
    onSubgraphRequest: (request) => {
      const { subject } = request.context.identity;
      if (subject) request.headers['x-user-id'] = subject;
    },
  };

  async function start(env: Record<string, string> = {}): Promise<{
    gateway: Gateway;
    subgraph: SubgraphSocketServer;
    operate: (scope: RequestScope, query?: string) => Promise<StreamOutcome>;
  }> {
    const subgraph = await startSubgraphSocketServer();
    closers.push(() => subgraph.close());
    const gateway = createGateway(
      parseConfig({
        SUPERGRAPH_PATH,
        SUBGRAPH_REVIEWS_URL: subgraph.url,
        SUBSCRIPTION_MAX_PER_CLIENT: '1',
        ...env,
      }),
      { logger: silent, plugins: [identityPlugin] },
    );
    await gateway.start();
    closers.unshift(() => gateway.stop());
    const endpoint = gateway.subscriptions;
    if (!endpoint) throw new Error('subscriptions are off');
    return {
      gateway,
      subgraph,
      operate: (scope, query = 'subscription OnReview { added: reviewAdded(productId: "p1") { id rating } }') =>
        endpoint.operate(scope, { query }),
    };
  }

  function eventsOf(outcome: StreamOutcome): AsyncIterableIterator<FormattedExecutionResult> {
    if (outcome.kind !== 'stream') throw new Error(`not a stream: ${JSON.stringify(outcome)}`);
    closers.unshift(() => outcome.events.return?.());
    return outcome.events;
  }

  function refusalOf(outcome: StreamOutcome) {
    if (outcome.kind !== 'answer') throw new Error('a stream, not a refusal');
    expect(outcome.result.errors).toHaveLength(1);
    return { status: outcome.status, error: outcome.result.errors?.[0] };
  }

  async function readAll(events: AsyncIterator<FormattedExecutionResult>): Promise<FormattedExecutionResult[]> {
    const results: FormattedExecutionResult[] = [];
    for (;;) {
      const step = await events.next();
      if (step.done) return results;
      results.push(step.value);
    }
  }

  it("subscribes to the subgraph that owns the field and gives each of its events shaped for the client's operation, in order", async () => {
    const { subgraph, operate } = await start();
    const events = eventsOf(await operate(scopeOf('10.0.0.1')));
    const served = await subgraph.subscription(0);
    expect(served.args).toEqual({ productId: 'p1' });

    for (const n of [1, 2, 3]) served.push({ id: `r${n}`, rating: n, comment: 'not asked for' });
    served.complete();
    expect(await readAll(events)).toEqual([1, 2, 3].map((n) => ({ data: { added: { id: `r${n}`, rating: n } } })));
  });

  it('sends the request id and the subgraph hooks’ headers on the upgrade and in connection_init', async () => {
    const { subgraph, operate } = await start();
    eventsOf(await operate(scopeOf('10.0.0.1', { 'x-test-subject': 'alice' }, 'req-abc')));
    await subgraph.subscription(0);

    expect(subgraph.upgrades[0]).toMatchObject({ 'x-request-id': 'req-abc', 'x-user-id': 'alice' });
    expect(subgraph.connectionParams).toEqual([{ headers: { 'x-request-id': 'req-abc', 'x-user-id': 'alice' } }]);
  });

  it('refuses one subscription past SUBSCRIPTION_MAX_PER_CLIENT with SUBSCRIPTION_MAX_LIMIT (429); other clients are not affected', async () => {
    // A socket per subscription, to see each client's own (shared sockets: shared-upstreams.test.ts).
    const { subgraph, operate } = await start({ SUBSCRIPTION_DEDUPLICATE: 'false' });
    const ip = '10.0.0.1';
    const alice = { 'x-test-subject': 'alice' };
    const aliceEvents = eventsOf(await operate(scopeOf(ip, alice)));

    const refused = refusalOf(await operate(scopeOf('10.9.9.9', alice)));
    expect(refused.status).toBe(429);
    expect(refused.error?.extensions?.code).toBe('SUBSCRIPTION_MAX_LIMIT');
    expect(refused.error?.message).toContain('SUBSCRIPTION_MAX_PER_CLIENT');

    // Same address, other subject; an API key consumer; the address itself, anonymous: three more clients.
    eventsOf(await operate(scopeOf(ip, { 'x-test-subject': 'bob' })));
    eventsOf(await operate(scopeOf(ip, { 'x-test-consumer': 'mobile' })));
    eventsOf(await operate(scopeOf(ip)));
    expect(refusalOf(await operate(scopeOf(ip))).error?.extensions?.code).toBe('SUBSCRIPTION_MAX_LIMIT');
    expect(refusalOf(await operate(scopeOf(ip, { 'x-test-consumer': 'mobile' }))).status).toBe(429);
    await subgraph.subscription(3);
    expect(subgraph.subscriptions).toHaveLength(4);

    // Alice leaves: her slot and her subgraph socket are released, and she may subscribe again.
    await aliceEvents.return?.();
    await subgraph.subscriptions[0]?.released;
    eventsOf(await operate(scopeOf(ip, alice)));
  });

  it('drain: a live subscription completes with no error event, its subgraph socket closes, and a new one is refused (SHUTTING_DOWN)', async () => {
    const { gateway, subgraph, operate } = await start();
    const events = eventsOf(await operate(scopeOf('10.0.0.1')));
    const served = await subgraph.subscription(0);
    served.push({ id: 'r1', rating: 1, comment: '' });
    expect((await events.next()).value).toEqual({ data: { added: { id: 'r1', rating: 1 } } });

    gateway.beginDrain();
    expect(await events.next()).toEqual({ value: undefined, done: true });
    await served.released;

    const refused = refusalOf(await operate(scopeOf('10.0.0.2')));
    expect(refused.error?.extensions?.code).toBe('SHUTTING_DOWN');
    expect(refused.status).toBe(503);
    expect(subgraph.subscriptions).toHaveLength(1);
  });

  it('a client that reads too slowly: its buffered events, then SUBSCRIPTION_SLOW_CONSUMER, then done; its slot is freed', async () => {
    const { subgraph, operate } = await start({ SUBSCRIPTION_MAX_BUFFERED_EVENTS: '2' });
    const events = eventsOf(await operate(scopeOf('10.0.0.1')));
    const served = await subgraph.subscription(0);
    for (const n of [1, 2, 3]) served.push({ id: `r${n}`, rating: n, comment: '' });
    await served.released;

    const results = await readAll(events);
    expect(results.slice(0, 2)).toEqual([
      { data: { added: { id: 'r1', rating: 1 } } },
      { data: { added: { id: 'r2', rating: 2 } } },
    ]);
    expect(results).toHaveLength(3);
    expect(results[2]?.errors?.map((error) => error.extensions?.code)).toEqual(['SUBSCRIPTION_SLOW_CONSUMER']);
    expect(results[2]?.data).toBeUndefined();

    eventsOf(await operate(scopeOf('10.0.0.1')));
    await subgraph.subscription(1);
  });

  it('a subgraph that closes its socket: a last event with WEBSOCKET_CLOSE_ERROR, then done; the slot is freed', async () => {
    const { subgraph, operate } = await start();
    const events = eventsOf(await operate(scopeOf('10.0.0.1')));
    await subgraph.subscription(0);
    subgraph.dropSockets(1011);

    const results = await readAll(events);
    expect(results).toHaveLength(1);
    expect(results[0]?.errors).toHaveLength(1);
    expect(results[0]?.errors?.[0]?.extensions).toMatchObject({
      code: 'WEBSOCKET_CLOSE_ERROR',
      serviceName: 'reviews',
    });
    eventsOf(await operate(scopeOf('10.0.0.1')));
  });

  it('a subgraph event larger than SUBGRAPH_MAX_RESPONSE_BYTES closes that socket and ends the subscription with WEBSOCKET_CLOSE_ERROR', async () => {
    const { subgraph, operate } = await start({ SUBGRAPH_MAX_RESPONSE_BYTES: '1024' });
    const query = 'subscription { reviewAdded { id comment } }';
    const events = eventsOf(await operate(scopeOf('10.0.0.1'), query));
    const served = await subgraph.subscription(0);
    served.push({ id: 'small', rating: 1, comment: 'ok' });
    expect((await events.next()).value).toEqual({ data: { reviewAdded: { id: 'small', comment: 'ok' } } });

    served.push({ id: 'big', rating: 1, comment: 'x'.repeat(4_096) });
    const results = await readAll(events);
    expect(results).toHaveLength(1);
    expect(results[0]?.errors?.[0]?.extensions?.code).toBe('WEBSOCKET_CLOSE_ERROR');
    await served.released;
    expect(subgraph.closeCodes).toEqual([1009]);
  });
});
