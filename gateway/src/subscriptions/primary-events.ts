import type { FetchNode } from '@apollo/query-planner';
import type { GatewayContext, GatewayPlugin } from '../contract/index.js';
import type { GatewayInternals, RequestContext } from '../executor/apollo-internals.js';
import type { CompiledSubscription } from '../executor/compiled-plan.js';
import { REQUEST_ID_HEADER } from '../header-names.js';
import type { Logger } from '../logger.js';
import { SubgraphDataSource } from '../subgraph-fetch/data-source.js';
import { SubgraphHooks } from '../subgraph-fetch/subgraph-hooks.js';
import type { SubscriptionSettings } from './settings.js';
import type { SubgraphEvent, SubgraphSocketOptions } from './subgraph-socket.js';
import { SubscriptionEnd } from './subscription-end.js';

/** How the subscription's subgraph is subscribed to: alone, or shared (SUBSCRIPTION_DEDUPLICATE). */
export type Subscribe = (socket: SubgraphSocketOptions) => AsyncIterableIterator<SubgraphEvent>;

/** What the subscription executor's options give the primary subgraph's subscription. */
export interface PrimaryOptions {
  readonly settings: SubscriptionSettings;
  readonly plugins: readonly GatewayPlugin[];
  readonly logger: Logger;
}

type HookOutcome = Awaited<ReturnType<SubgraphHooks['request']>>;

/** What the primary subgraph is asked: its subscription operation, the client's variables it declares and the hooked headers. */
interface PrimaryRequest {
  readonly primary: FetchNode;
  readonly source: SubgraphDataSource;
  readonly headers: Record<string, string>;
  readonly variables: Record<string, unknown>;
  readonly context: GatewayContext;
}

/**
 * The events of the subgraph that owns the subscription's field: its subgraph hooks run as for a
 * fetch, then its subscription opens (or the stream fails at once when a hook or the subgraph refuses).
 */
export function primaryEvents(
  internals: GatewayInternals,
  requestContext: RequestContext,
  plan: CompiledSubscription,
  options: PrimaryOptions,
  subscribe: Subscribe,
): AsyncIterableIterator<SubgraphEvent> {
  const { primary } = plan;
  const { settings, plugins, logger } = options;
  const source = internals.serviceMap[primary.serviceName]?.dataSource;
  if (!(source instanceof SubgraphDataSource)) {
    return failed(SubscriptionEnd.fromSubgraph(primary.serviceName, undefined));
  }
  const context = requestContext.context as unknown as GatewayContext;
  const variables = primaryVariables(primary, requestContext.request.variables ?? {});
  const request: PrimaryRequest = { primary, source, headers: {}, variables, context };
  const hooked = new SubgraphHooks(primary.serviceName, plugins, logger).request({
    subgraph: primary.serviceName,
    headers: request.headers,
    context,
    query: primary.operation,
    operationName: primary.operationName,
    variables,
  });
  const opened = (outcome: HookOutcome) => openAfterHooks(outcome, request, settings, subscribe);
  // A hook that answers later (an async one) is waited for before the socket opens.
  return hooked instanceof Promise ? afterHooks(hooked, opened) : opened(hooked);
}

/** A hook's answer ends the subscription before it opens; none opens the subgraph's subscription. */
function openAfterHooks(
  hooked: HookOutcome,
  request: PrimaryRequest,
  settings: SubscriptionSettings,
  subscribe: Subscribe,
): AsyncIterableIterator<SubgraphEvent> {
  const { primary, source, headers, variables, context } = request;
  if (hooked) {
    const errors = 'failure' in hooked ? undefined : hooked.result.errors;
    return failed(SubscriptionEnd.fromSubgraph(primary.serviceName, errors));
  }
  // With SUBSCRIPTION_DEDUPLICATE, the subgraph sees the first sharer's request id.
  headers[REQUEST_ID_HEADER] = context.requestId;
  return subscribe({
    subgraph: primary.serviceName,
    url: source.url,
    headers,
    query: primary.operation,
    variables,
    operationName: primary.operationName,
    maxBufferedEvents: settings.maxBufferedEvents,
    slowClient: settings.slowClient,
    // The subgraph's own limits (its SUBGRAPH_<NAME>_* overrides), as its HTTP fetches have them.
    maxEventBytes: source.maxResponseBytes,
    errors: source.errors,
    connectTimeoutMs: source.timeoutMs,
    keepAliveMs: settings.heartbeatMs,
  });
}

async function* afterHooks(
  pending: Promise<HookOutcome>,
  open: (hooked: HookOutcome) => AsyncIterableIterator<SubgraphEvent>,
): AsyncIterableIterator<SubgraphEvent> {
  yield* open(await pending);
}

/** The variables the subgraph's subscription operation declares, from the client's. */
function primaryVariables(primary: FetchNode, variables: Record<string, unknown>): Record<string, unknown> {
  const used: Record<string, unknown> = {};
  for (const name of primary.variableUsages ?? []) if (Object.hasOwn(variables, name)) used[name] = variables[name];
  return used;
}

async function* failedEvents(end: SubscriptionEnd): AsyncGenerator<SubgraphEvent> {
  yield* [];
  throw end;
}

function failed(end: SubscriptionEnd): AsyncIterableIterator<SubgraphEvent> {
  return failedEvents(end);
}
