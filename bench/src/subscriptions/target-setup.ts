import { HIVE_SUBSCRIPTIONS_WS_ENV } from '../targets/hive-gateway-env.js';
import type { Setup } from '../targets/setups.js';
import { ROUTER } from '../targets/targets.js';

/** The Router row's message: the free Router does not serve subscriptions. */
/**
 * Every current GraphOS plan (Free, Developer, Standard, Enterprise) licenses the Router's
 * subscriptions, but only a Router connected to GraphOS gets the licence; the bench runs it unconnected.
 */
export const ROUTER_NOT_MEASURED =
  'not measured: Apollo Router subscriptions need a GraphOS licence (any current plan)';

/**
 * nest-fastify with SUBGRAPH_DEDUPLICATE=true: the N deliveries of one event ask users and
 * products the same thing at the same moment, and Hive Gateway shares identical subgraph
 * requests in flight by default; this row shows our gateway doing the same.
 */
export const NEST_FASTIFY_SUBGRAPH_DEDUP = 'nest-fastify+subgraph-dedup';

/**
 * nest-fastify with SUBSCRIPTION_DEDUPLICATE=false: a subgraph socket per client subscription,
 * as before shared sockets; against plain nest-fastify, it shows what sharing saves.
 */
export const NEST_FASTIFY_OWN_SOCKETS = 'nest-fastify+own-sockets';

/**
 * nest-fastify with its clients on multipart HTTP (Apollo's protocol, Apollo Client's HttpLink)
 * instead of WebSockets: against plain nest-fastify, it shows what the transport costs.
 */
export const NEST_FASTIFY_MULTIPART = 'nest-fastify+multipart';

/** How the clients subscribe: graphql-ws, or multipart HTTP responses. */
export type SubscriptionTransport = 'ws' | 'multipart';

/** A subscription target's process (a built-in target name), the settings it adds to it, its clients' transport. */
export interface SubscriptionTarget {
  /** The name the rows carry. */
  readonly name: string;
  /** The built-in target started (nest-fastify, hive-gateway...). */
  readonly base: string;
  readonly extraEnv: Readonly<Record<string, string>>;
  readonly transport: SubscriptionTransport;
}

export function subscriptionTarget(name: string): SubscriptionTarget {
  if (name === NEST_FASTIFY_SUBGRAPH_DEDUP) {
    return { name, base: 'nest-fastify', extraEnv: { SUBGRAPH_DEDUPLICATE: 'true' }, transport: 'ws' };
  }
  if (name === NEST_FASTIFY_OWN_SOCKETS) {
    return { name, base: 'nest-fastify', extraEnv: { SUBSCRIPTION_DEDUPLICATE: 'false' }, transport: 'ws' };
  }
  if (name === NEST_FASTIFY_MULTIPART) return { name, base: 'nest-fastify', extraEnv: {}, transport: 'multipart' };
  return { name, base: name, extraEnv: {}, transport: 'ws' };
}

/** Targets that have a row but are never started, and why. */
export const NOT_MEASURED: Readonly<Record<string, string>> = { [ROUTER]: ROUTER_NOT_MEASURED };

/**
 * How each target is started for the subscription rows: our gateway as deployed except for
 * SUBSCRIPTION_MAX_PER_CLIENT, Hive Gateway with the reviews subgraph's subscriptions over
 * WebSocket. Every client here is one loopback address, and our gateway counts subscriptions
 * per client by JWT subject, else API key, else address: with the default cap (100) the
 * 101st subscriber would be refused (SUBSCRIPTION_MAX_LIMIT). The cap is raised to the
 * largest N so the bench measures fan-out to N clients, as N browsers on N addresses would
 * get it; the connection cap (SUBSCRIPTION_MAX_CONNECTIONS, 10,000) stays as it is.
 */
export function subscriptionSetup(maxSubscribers: number, target: SubscriptionTarget): Setup {
  return {
    key: 'none',
    gatewayEnv: () => ({ SUBSCRIPTION_MAX_PER_CLIENT: String(Math.max(100, maxSubscribers)), ...target.extraEnv }),
    router: { skip: ROUTER_NOT_MEASURED },
    hiveEnv: { [HIVE_SUBSCRIPTIONS_WS_ENV]: 'true' },
    headers: {},
  };
}
