import { SUBSCRIPTION_VALUES } from '../../subscriptions/settings.js';
import { defineFields } from './spec.js';

/** Subscriptions over graphql-ws and graphql-sse at GRAPHQL_PATH: caps, heartbeats, timeouts. */
export const SUBSCRIPTION_FIELDS = defineFields([
  {
    key: 'subscriptions.enabled',
    formerKey: 'subscriptionsEnabled',
    env: 'SUBSCRIPTIONS',
    parse: SUBSCRIPTION_VALUES.enabled,
    meaning:
      'serve subscriptions (and any operation) over WebSocket (`graphql-transport-ws`), Server-Sent Events (`graphql-sse`) and multipart HTTP (Apollo Client `HttpLink`) at `GRAPHQL_PATH`; see [Subscriptions](subscriptions.md)',
  },
  {
    key: 'subscriptions.maxConnections',
    formerKey: 'subscriptionMaxConnections',
    env: 'SUBSCRIPTION_MAX_CONNECTIONS',
    parse: SUBSCRIPTION_VALUES.maxConnections,
    meaning: 'WebSocket, SSE and multipart connections open at once, all clients together; one more is refused',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.maxConnectionsPerClient',
    formerKey: 'subscriptionMaxConnectionsPerClient',
    env: 'SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT',
    parse: SUBSCRIPTION_VALUES.maxConnectionsPerClient,
    docDefault: 'a tenth of SUBSCRIPTION_MAX_CONNECTIONS, at least 1',
    meaning:
      "connections one client address may hold at once (WebSockets, SSE streams, unopened SSE reservations), so one client cannot take every slot; one more is refused with 429 `SUBSCRIPTION_MAX_LIMIT`. Behind a proxy every client shares the proxy's address unless `TRUSTED_PROXIES` names it; without that, raise it to `SUBSCRIPTION_MAX_CONNECTIONS` there. See [Subscriptions](subscriptions.md#limits-slow-clients-heartbeats)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.maxPerConnection',
    formerKey: 'subscriptionMaxPerConnection',
    env: 'SUBSCRIPTION_MAX_PER_CONNECTION',
    parse: SUBSCRIPTION_VALUES.maxPerConnection,
    meaning: 'operations one WebSocket (or one SSE single-connection stream) may run at once',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.maxPerClient',
    formerKey: 'subscriptionMaxPerClient',
    env: 'SUBSCRIPTION_MAX_PER_CLIENT',
    parse: SUBSCRIPTION_VALUES.maxPerClient,
    meaning:
      'subscriptions one client may hold across its connections (by JWT subject, else API key consumer, else address); one more gets `SUBSCRIPTION_MAX_LIMIT`',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.maxOpen',
    formerKey: 'subscriptionMaxOpen',
    env: 'SUBSCRIPTION_MAX_OPEN',
    parse: SUBSCRIPTION_VALUES.maxOpen,
    meaning:
      "subscriptions open at once, all clients together (Apollo Router's `max_opened_subscriptions`); one more gets 503 `SUBSCRIPTION_MAX_LIMIT`. A bound on each process, not a measured capacity: N replicas (or `GATEWAY_WORKERS`) admit N × this; size it from the [benchmark](benchmark.md#subscriptions)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.slowClient',
    formerKey: 'subscriptionSlowClient',
    env: 'SUBSCRIPTION_SLOW_CLIENT',
    parse: SUBSCRIPTION_VALUES.slowClient,
    meaning:
      "what happens when `SUBSCRIPTION_MAX_BUFFERED_EVENTS` events wait for a client: `end` its subscription with `SUBSCRIPTION_SLOW_CONSUMER` (it knows it missed events and subscribes again), or `drop-oldest` events to make room (Apollo Router's choice: the client is not told). See [Subscriptions](subscriptions.md#limits-slow-clients-heartbeats)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.maxBufferedEvents',
    formerKey: 'subscriptionMaxBufferedEvents',
    env: 'SUBSCRIPTION_MAX_BUFFERED_EVENTS',
    parse: SUBSCRIPTION_VALUES.maxBufferedEvents,
    meaning:
      'events waiting for one slow client; one more ends its subscription with `SUBSCRIPTION_SLOW_CONSUMER`, or drops the oldest (`SUBSCRIPTION_SLOW_CLIENT`): the gateway never buffers without bound',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.deduplicate',
    formerKey: 'subscriptionDeduplicate',
    env: 'SUBSCRIPTION_DEDUPLICATE',
    parse: SUBSCRIPTION_VALUES.deduplicate,
    meaning:
      'client subscriptions that would send a subgraph the same subscription (operation, variables, headers) share one subgraph socket; each client keeps its own queue. See [Subscriptions](subscriptions.md#federated-events)',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.heartbeatMs',
    formerKey: 'subscriptionHeartbeatMs',
    env: 'SUBSCRIPTION_HEARTBEAT_MS',
    parse: SUBSCRIPTION_VALUES.heartbeatMs,
    meaning:
      "WebSocket ping interval to clients and subgraphs (a peer that misses a pong is closed); SSE streams get graphql-sse's comment line every 12 s whatever this says",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.multipartHeartbeatMs',
    formerKey: 'subscriptionMultipartHeartbeatMs',
    env: 'SUBSCRIPTION_MULTIPART_HEARTBEAT_MS',
    parse: SUBSCRIPTION_VALUES.multipartHeartbeatMs,
    meaning:
      "multipart HTTP subscriptions (Apollo Client's `HttpLink`): an empty `{}` part this often, so proxies keep the response open (Apollo Router's interval); a client that reads nothing for two intervals is cut off",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.connectionInitTimeoutMs',
    formerKey: 'subscriptionConnectionInitTimeoutMs',
    env: 'SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS',
    parse: SUBSCRIPTION_VALUES.connectionInitTimeoutMs,
    meaning: 'a WebSocket that has not sent `connection_init` by then is closed (4408)',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptions.idleTimeoutMs',
    formerKey: 'subscriptionIdleTimeoutMs',
    env: 'SUBSCRIPTION_IDLE_TIMEOUT_MS',
    parse: SUBSCRIPTION_VALUES.idleTimeoutMs,
    meaning:
      'a WebSocket (closed with 1000) or an opened SSE single-connection stream with no operation running for this long is closed',
    feature: 'subscriptions',
  },
]);
