// Every public type of the gateway: what adapters mount, what plugins implement, what
// resolvers and hooks receive. Types only: importing this folder loads no code.

import type { REQUEST_ID_HEADER } from '../header-names.js';

export type { ClientAddressOf, ClientKeyOf, RequestSchemeOf, Scheme } from '../client-address/index.js';
export type { Clock } from '../clock.js';
export type { ClientErrorCode } from '../error-registry.js';
export type { GatewayContext, ResolvedRequest } from './context.js';
export type {
  CircuitState,
  CircuitStateEvent,
  EntityCacheEvent,
  EntityCacheInvalidationEvent,
  GatewayEvent,
  InboundDedupEvent,
  QueryPlanCacheEvent,
  SubgraphFetchEvent,
  SubgraphRetryEvent,
  SubscriptionEvent,
  SubscriptionEventEvent,
  SupergraphLoadEvent,
  TraceSpansDroppedEvent,
  TrustedDocumentsLoadEvent,
} from './events.js';
export type { Identity } from './identity.js';
/** `x-request-id`: the adapters, which import the core's types only, check their spelling against it. */
export type RequestIdHeader = typeof REQUEST_ID_HEADER;
export type {
  AdminAnswer,
  AdminRequest,
  AdminRoute,
  MetricsEndpoint,
  MetricsScrape,
  MountableGateway,
  ResponseCompression,
} from './mountable-gateway.js';
export type { OriginPolicy, PreflightAnswer, Refusal } from './origin-policy.js';
export type {
  ExecutionRequest,
  ExecutionResult,
  FetchedSubgraphResult,
  GatewayPlugin,
  SubgraphAttempt,
  SubgraphAttemptEnd,
  SubgraphHookAnswer,
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
  Transport,
} from './subscriptions.js';
