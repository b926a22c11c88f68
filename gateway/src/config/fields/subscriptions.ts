import { boolean, duration, integer, oneOf, withDefault } from '../../settings/values.js';

import { SLOW_CLIENT_POLICIES } from '../../subscriptions/slow-client.js';
import { defineFields } from './spec.js';

/** Subscriptions over graphql-ws and graphql-sse at GRAPHQL_PATH: caps, heartbeats, timeouts. */
export const SUBSCRIPTION_FIELDS = defineFields([
  {
    key: 'subscriptionsEnabled',
    env: 'SUBSCRIPTIONS',
    parse: withDefault(boolean, true),
    meaning:
      'serve subscriptions (and any operation) over WebSocket (`graphql-transport-ws`), Server-Sent Events (`graphql-sse`) and multipart HTTP (Apollo Client `HttpLink`) at `GRAPHQL_PATH`; see [Subscriptions](subscriptions.md)',
  },
  {
    key: 'subscriptionMaxConnections',
    env: 'SUBSCRIPTION_MAX_CONNECTIONS',
    parse: withDefault(integer(1, 1_000_000), 10_000),
    meaning: 'WebSocket, SSE and multipart connections open at once, all clients together; one more is refused',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMaxConnectionsPerClient',
    env: 'SUBSCRIPTION_MAX_CONNECTIONS_PER_CLIENT',
    parse: integer(1, 1_000_000),
    docDefault: 'a tenth of SUBSCRIPTION_MAX_CONNECTIONS, at least 1',
    meaning:
      "connections one client address may hold at once (WebSockets, SSE streams, unopened SSE reservations), so one client cannot take every slot; one more is refused with 429 `SUBSCRIPTION_MAX_LIMIT`. Behind a proxy every client shares the proxy's address unless `TRUSTED_PROXIES` names it; without that, raise it to `SUBSCRIPTION_MAX_CONNECTIONS` there. See [Subscriptions](subscriptions.md#limits-slow-clients-heartbeats)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMaxPerConnection',
    env: 'SUBSCRIPTION_MAX_PER_CONNECTION',
    parse: withDefault(integer(1, 10_000), 25),
    meaning: 'operations one WebSocket (or one SSE single-connection stream) may run at once',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMaxPerClient',
    env: 'SUBSCRIPTION_MAX_PER_CLIENT',
    parse: withDefault(integer(1, 1_000_000), 100),
    meaning:
      'subscriptions one client may hold across its connections (by JWT subject, else API key consumer, else address); one more gets `SUBSCRIPTION_MAX_LIMIT`',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMaxOpen',
    env: 'SUBSCRIPTION_MAX_OPEN',
    parse: withDefault(integer(1, 10_000_000), 100_000),
    meaning:
      "subscriptions open at once, all clients together (Apollo Router's `max_opened_subscriptions`); one more gets 503 `SUBSCRIPTION_MAX_LIMIT`. A bound on the process, not a measured capacity: size it from the [benchmark](benchmark.md#subscriptions)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionSlowClient',
    env: 'SUBSCRIPTION_SLOW_CLIENT',
    parse: withDefault(oneOf(SLOW_CLIENT_POLICIES), 'end'),
    meaning:
      "what happens when `SUBSCRIPTION_MAX_BUFFERED_EVENTS` events wait for a client: `end` its subscription with `SUBSCRIPTION_SLOW_CONSUMER` (it knows it missed events and subscribes again), or `drop-oldest` events to make room (Apollo Router's choice: the client is not told). See [Subscriptions](subscriptions.md#limits-slow-clients-heartbeats)",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMaxBufferedEvents',
    env: 'SUBSCRIPTION_MAX_BUFFERED_EVENTS',
    parse: withDefault(integer(1, 100_000), 100),
    meaning:
      'events waiting for one slow client; one more ends its subscription with `SUBSCRIPTION_SLOW_CONSUMER`, or drops the oldest (`SUBSCRIPTION_SLOW_CLIENT`): the gateway never buffers without bound',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionDeduplicate',
    env: 'SUBSCRIPTION_DEDUPLICATE',
    parse: withDefault(boolean, true),
    meaning:
      'client subscriptions that would send a subgraph the same subscription (operation, variables, headers) share one subgraph socket; each client keeps its own queue. See [Subscriptions](subscriptions.md#federated-events)',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionHeartbeatMs',
    env: 'SUBSCRIPTION_HEARTBEAT_MS',
    parse: withDefault(duration(1000, 600_000), 12_000),
    meaning:
      "WebSocket ping interval to clients and subgraphs (a peer that misses a pong is closed); SSE streams get graphql-sse's comment line every 12 s whatever this says",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionMultipartHeartbeatMs',
    env: 'SUBSCRIPTION_MULTIPART_HEARTBEAT_MS',
    parse: withDefault(duration(100, 600_000), 5000),
    meaning:
      "multipart HTTP subscriptions (Apollo Client's `HttpLink`): an empty `{}` part this often, so proxies keep the response open (Apollo Router's interval); a client that reads nothing for two intervals is cut off",
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionConnectionInitTimeoutMs',
    env: 'SUBSCRIPTION_CONNECTION_INIT_TIMEOUT_MS',
    parse: withDefault(duration(100, 60_000), 3000),
    meaning: 'a WebSocket that has not sent `connection_init` by then is closed (4408)',
    feature: 'subscriptions',
  },
  {
    key: 'subscriptionIdleTimeoutMs',
    env: 'SUBSCRIPTION_IDLE_TIMEOUT_MS',
    parse: withDefault(duration(1000, 86_400_000), 60_000),
    meaning:
      'a WebSocket (closed with 1000) or an opened SSE single-connection stream with no operation running for this long is closed',
    feature: 'subscriptions',
  },
]);
