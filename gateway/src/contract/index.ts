// Every public type of the gateway: what adapters mount, what plugins implement, what
// resolvers and hooks receive. Types only: importing this folder loads no code.

export type { Clock } from './clock.js';
export type { GatewayContext, ResolvedRequest, ResponseBudget } from './context.js';
export type { ClientErrorCode } from './error-codes.js';
export type {
  CircuitState,
  CircuitStateEvent,
  EntityCacheEvent,
  EntityCacheInvalidationEvent,
  GatewayEvent,
  InboundDedupEvent,
  LoadShedEvent,
  QueryPlanCacheEvent,
  ShadowEvent,
  SubgraphFetchEvent,
  SubgraphRetryEvent,
  SubscriptionEvent,
  SubscriptionEventEvent,
  SupergraphLoadEvent,
  TraceSpansDroppedEvent,
  TrustedDocumentsLoadEvent,
} from './events.js';
export type { Identity } from './identity.js';
/**
 * `x-request-id`: the adapters, which import the core's types only, check their spelling against
 * it, and the core's `REQUEST_ID_HEADER` is checked against it.
 */
export type RequestIdHeader = 'x-request-id';
export type {
  AdminAnswer,
  AdminRequest,
  AdminRoute,
  ClientAddressOf,
  ClientKeyOf,
  MetricsEndpoint,
  MetricsScrape,
  MountableGateway,
  RequestSchemeOf,
  ResponseCompression,
  SchemeFacts,
} from './mountable-gateway.js';
export type { OriginPolicy, PreflightAnswer, Refusal, Scheme } from './origin-policy.js';
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
export type { ReceivedUpload, UploadReceiver, UploadRequest } from './uploads.js';
