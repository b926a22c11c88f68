import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServer, BaseContext } from '@apollo/server';
import type { Identity } from './identity.js';
import type { OriginPolicy, Refusal, Scheme } from './origin-policy.js';
import type { RequestScope } from './request-scope.js';
import type { SubscriptionEndpoint } from './subscriptions.js';
import type { UploadReceiver } from './uploads.js';

/** Who a request comes from, from its socket's peer and its headers (`client-address/` decides it). */
export type ClientAddressOf = (socketAddress: string | undefined, headers: IncomingHttpHeaders) => string;

/** The key a per-client cap counts a request under, from its address and identity (`client-address/client-key.ts`). */
export type ClientKeyOf = (address: string, identity?: Identity) => string;

/** What a request says of its scheme: its socket (TLS or not), its peer, its headers. */
export interface SchemeFacts {
  readonly encrypted: boolean;
  readonly socketAddress: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** The scheme of the gateway's own origin for one request (`client-address/request-scheme.ts` decides it). */
export type RequestSchemeOf = (request: SchemeFacts) => Scheme;

/**
 * The narrow contract every platform adapter mounts. The gateway core implements it;
 * tests can build one around any started ApolloServer.
 */
export interface MountableGateway<TContext extends BaseContext = BaseContext> {
  /** A started ApolloServer. */
  readonly server: ApolloServer<TContext>;
  /** Where GraphQL is served, e.g. `/graphql`. */
  readonly path: string;
  /**
   * The client's address from a request's socket peer and its own headers (TRUSTED_PROXIES):
   * what every per-client cap keys on. Absent: the socket's peer.
   */
  readonly clientAddress?: ClientAddressOf;
  /**
   * The key a per-client cap counts a client address under (its IPv6 network: CLIENT_IPV6_PREFIX),
   * the one rule every cap uses. Absent: the address itself.
   */
  readonly clientKey?: ClientKeyOf;
  /**
   * The scheme of the gateway's own origin for a request: TLS, or what a trusted proxy says
   * (TRUSTED_PROXIES). What the origin check compares a page's scheme with. Absent: TLS or not.
   */
  readonly requestScheme?: RequestSchemeOf;
  /** Larger request bodies get HTTP 413. */
  readonly bodyLimitBytes: number;
  /** Answers are compressed as clients ask (COMPRESSION); absent: they are sent as they are. */
  readonly compression?: ResponseCompression;
  context(scope: RequestScope): Promise<TContext>;
  /** `/ready` answers 503 while this is false (loading, or draining before shutdown). */
  isReady(): boolean;
  /**
   * True from the moment shutdown begins: every response then says `Connection: close`, so
   * keep-alive clients move to another instance instead of sending on a socket that closes.
   */
  isDraining?(): boolean;
  /** Called once per request on the GraphQL path, after the response is sent. */
  onResponse?(scope: RequestScope, statusCode: number): void;
  /**
   * When present, adapters call the GraphQL handler through it, so whatever it sets up (a
   * tracing span as the active context) is in place while the request is executed. Absent
   * when no plugin needs it, so adapters then skip the extra call.
   */
  runRequest?<T>(scope: RequestScope, handler: () => T): T;
  /** Who may call from a page on another origin (CORS_*); absent: no CORS headers and no origin checks. */
  readonly origins?: OriginPolicy;
  /**
   * Charges a request on `path` that carries no operation (a CORS preflight, a graphql-sse
   * reservation) to its client's limits, before it is answered: the refusal to send, if any.
   */
  admit?(scope: RequestScope): Promise<Refusal | undefined>;
  /** graphql-ws and graphql-sse at `path` (SUBSCRIPTIONS); absent when they are off. */
  readonly subscriptions?: SubscriptionEndpoint;
  /** File uploads, `multipart/form-data` at `path` (UPLOADS); absent when they are off: adapters refuse such bodies unread. */
  readonly uploads?: UploadReceiver;
  /** Prometheus metrics (METRICS_ENABLED); absent when they are off. */
  readonly metrics?: MetricsEndpoint;
  /** The plugins' operator routes (`GatewayPlugin.adminRoutes`): served on the metrics listener only. */
  readonly adminRoutes?: readonly AdminRoute[];
}

/**
 * An operator's endpoint a plugin serves (the entity cache's invalidation): only on the metrics
 * listener (METRICS_PORT), never on the public port, and not at all without one. It checks
 * its own credentials; its body is read whole, up to 64 KiB.
 */
export interface AdminRoute {
  readonly method: 'POST';
  /** e.g. `/entity-cache/invalidate` */
  readonly path: string;
  handle(request: AdminRequest): Promise<AdminAnswer>;
}

export interface AdminRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

/** Sent as JSON with this status. */
export interface AdminAnswer {
  readonly status: number;
  readonly body: unknown;
}

export interface ResponseCompression {
  /** Answers with fewer bytes than this are sent uncompressed. */
  readonly minBytes: number;
}

/** What a scrape answers: the Prometheus text exposition format. */
export interface MetricsScrape {
  readonly contentType: string;
  readonly body: string;
}

export interface MetricsEndpoint {
  /** Where they are served, e.g. `/metrics`. */
  readonly path: string;
  /**
   * Set (METRICS_PORT): served only by a listener of their own on this port, so they are not
   * public; the adapters leave them off the main listener. Unset: the adapters serve them.
   */
  readonly port?: number;
  scrape(): Promise<MetricsScrape>;
  /**
   * Counts one request on the main listener once its response is over, whatever route it had
   * and however it ended (a 413, a preflight, a 404): `route` is one the adapter serves, or
   * `_OTHER`; `statusCode` 499 when the client left before any answer was sent.
   */
  recordHttpRequest?(method: string, route: string, statusCode: number, seconds: number): void;
}
