// Every public type of the gateway: what adapters mount, what plugins implement, what
// resolvers and hooks receive. Types only: importing this folder loads no code.

export type { ClientAddressOf } from '../client-address/index.js';
export type { ClientErrorCode } from '../error-registry.js';
export type { GatewayContext, ResolvedRequest } from './context.js';
export type {
  CircuitState,
  CircuitStateEvent,
  GatewayEvent,
  InboundDedupEvent,
  QueryPlanCacheEvent,
  SubgraphFetchEvent,
  SubgraphRetryEvent,
  SubscriptionEvent,
  SubscriptionEventEvent,
  SupergraphLoadEvent,
  TrustedDocumentsLoadEvent,
} from './events.js';
export type { Identity } from './identity.js';
export type { MetricsEndpoint, MetricsScrape, MountableGateway, ResponseCompression } from './mountable-gateway.js';
export type { OriginPolicy, PreflightAnswer, Refusal } from './origin-policy.js';
export type {
  ExecutionRequest,
  ExecutionResult,
  GatewayPlugin,
  SubgraphRequest,
  SubgraphResponse,
  SubgraphResult,
  Supergraph,
} from './plugin.js';
export type { RequestScope } from './request-scope.js';
export type {
  ConnectionGrant,
  StreamOutcome,
  StreamParams,
  SubscriptionEndpoint,
  SubscriptionLimits,
} from './subscriptions.js';
