import { json, type Responder } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { dataSources } from './helpers/data-source.js';
import { incomingOperation, type ProcessOptions } from './helpers/operation.js';

/**
 * The circuit breaker as the data source uses it, against a real HTTP server: the two rules
 * that a library breaker (ADR 019) would not give us by itself.
 */
const QUERY = 'query Me { me { id } }';
const ANSWER = { data: { me: { id: '1' } } };
const BREAKER = { failureRate: 0.5, minRequests: 1, cooldownMs: 100 };

/** The breakers' clock, moved by the tests past a cool-down (fetches and their timeouts keep real time). */
let clock = 0;
const { startServer, createSource } = dataSources({ circuitBreaker: BREAKER, now: () => clock });

const query = (): ProcessOptions =>
  ({
    ...incomingOperation({ query: QUERY }),
    incomingRequestContext: { operation: { operation: 'query' } },
  }) as ProcessOptions;
const codes = (response: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  response.errors?.map((error) => error.extensions?.code);
const reset: Responder = (request) => request.socket.destroy();

/** The first request fails (the circuit opens); later ones are answered after `delayMs`. */
function failOnceThenSlow(delayMs: number): Responder {
  let seen = 0;
  return (request, response, body) => {
    if (seen++ === 0) return reset(request, response, body);
    setTimeout(() => json(ANSWER)(request, response, body), delayMs);
  };
}

describe('SubgraphDataSource circuit breaker', () => {
  it('while the half-open probe is out, refuses other fetches at once instead of queueing them behind it', async () => {
    const server = await startServer(failOnceThenSlow(400));
    const { source, events } = createSource(server.url);
    expect(codes(await source.process(query()))).toEqual(['SUBREQUEST_HTTP_ERROR']);
    clock += BREAKER.cooldownMs - 1;
    expect(codes(await source.process(query()))).toEqual(['SUBGRAPH_CIRCUIT_OPEN']); // still cooling down
    clock += 1;

    let probeSettled = false;
    const probe = source.process(query()).finally(() => {
      probeSettled = true;
    });
    const other = await source.process(query());

    expect(codes(other)).toEqual(['SUBGRAPH_CIRCUIT_OPEN']);
    expect(probeSettled).toBe(false); // refused while the probe was still out, not queued behind it
    expect(await probe).toEqual(ANSWER);
    expect(server.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'circuit-state').map((event) => event.state)).toEqual([
      'open',
      'half-open',
      'closed',
    ]);
  });

  it('does not send a retry the breaker would refuse, and leaves the client the failure it retried', async () => {
    const server = await startServer(reset);
    const { source, events } = createSource(server.url, {
      retry: { maxRetries: 1, backoffMs: 1, budgetRatio: 1, budgetMinPerSecond: 100 },
      circuitBreaker: { ...BREAKER, cooldownMs: 60_000 },
    });

    const response = await source.process(query());

    expect(codes(response)).toEqual(['SUBREQUEST_HTTP_ERROR']);
    expect(server.requests).toHaveLength(1);
    expect(events.some((event) => event.type === 'subgraph-retry')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'subgraph-fetch', outcome: 'SUBREQUEST_HTTP_ERROR', retries: 0 });
  });
});
