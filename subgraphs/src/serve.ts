import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginInlineTraceDisabled,
} from '@apollo/server/plugin/disabled';
import { ApolloServerPluginDrainHttpServer } from '@apollo/server/plugin/drainHttpServer';
import { ApolloServerPluginInlineTrace } from '@apollo/server/plugin/inlineTrace';
import { buildSubgraphSchema, type GraphQLResolverMap } from '@apollo/subgraph';
import type { DocumentNode } from 'graphql';
import type { SubgraphContext } from './context.js';
import { HeaderCounter } from './header-counter.js';
import { createRequestHandler } from './http-handler.js';
import { type SubscriptionServer, serveSubscriptions } from './subscription-server.js';

const GRAPHQL_PATH = '/graphql';

export interface StartSubgraphOptions {
  /** Used in error messages only. */
  name: string;
  typeDefs: DocumentNode;
  resolvers: GraphQLResolverMap<SubgraphContext>;
  /** Default: 0 (an ephemeral port; read it back from the result). */
  port?: number;
  /** Default: 127.0.0.1 */
  host?: string;
  /**
   * Default: 0. Holds every GraphQL response back this many ms after it is computed,
   * to simulate a slow subgraph (gateway timeout tests, latency scenarios in the bench).
   */
  delayMs?: number;
  /** Default: false. Adds ftv1 inline traces when the gateway asks for them; costs CPU. */
  inlineTrace?: boolean;
  /** A request header whose values are counted and served at GET /header-counts. Default: none. */
  countHeader?: string;
  /** `Cache-Control` of query answers; mutations answer `no-store`. Default: none. */
  cacheControl?: string;
}

export interface RunningSubgraph {
  /** e.g. http://127.0.0.1:4001/graphql */
  url: string;
  /** e.g. ws://127.0.0.1:4003/graphql (graphql-ws), when the schema has a Subscription type. */
  subscriptionUrl: string | undefined;
  port: number;
  /**
   * Stops accepting connections, lets in-flight requests finish (10 s at most), and closes
   * WebSocket clients (1001 Going away).
   */
  close(): Promise<void>;
}

/**
 * Serves one subgraph over plain node:http: POST/GET /graphql, GET /health (and GET
 * /header-counts); and, only when its schema has a Subscription type, graphql-ws on the same
 * port and path (elsewhere an upgrade request gets an HTTP answer, never a WebSocket).
 */
export async function startSubgraph(options: StartSubgraphOptions): Promise<RunningSubgraph> {
  const { port = 0, host = '127.0.0.1', delayMs = 0, inlineTrace = false } = options;
  checkOptions(options.name, port, delayMs);

  const httpServer = createServer();
  // Longer than any gateway's pooled-socket idle timeout, so the gateway always closes
  // an idle keep-alive socket first and never writes into one we are resetting.
  httpServer.keepAliveTimeout = 65_000;
  httpServer.headersTimeout = 66_000;

  // Federation's schema (with _entities and _service) serves both HTTP and WebSocket operations.
  const schema = buildSubgraphSchema([{ typeDefs: options.typeDefs, resolvers: options.resolvers }]);
  const subscriptions = schema.getSubscriptionType() ? serveSubscriptions(httpServer, schema, GRAPHQL_PATH) : undefined;

  const server = new ApolloServer<SubgraphContext>({
    schema,
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // In parallel with the HTTP drain, which waits for upgraded sockets too.
      ...(subscriptions ? [closeOnDrain(subscriptions)] : []),
      // Explicit either way: Apollo would otherwise auto-enable ftv1 for subgraphs.
      inlineTrace ? ApolloServerPluginInlineTrace() : ApolloServerPluginInlineTraceDisabled(),
      // Otherwise a willResolveField hook runs for every field to compute cache hints that
      // nothing reads (the gateway ignores subgraph cache headers): pure cost under load.
      ApolloServerPluginCacheControlDisabled(),
      cacheHeaders(options.cacheControl),
    ],
    includeStacktraceInErrorResponses: false,
    // The process entry (main.ts) owns signal handling and exits cleanly itself.
    stopOnTerminationSignals: false,
  });
  await server.start();

  const headerCounter = options.countHeader ? new HeaderCounter(options.countHeader) : undefined;
  httpServer.on('request', createRequestHandler(server, delayMs, headerCounter));

  try {
    await listen(httpServer, port, host);
  } catch (error) {
    await server.stop().catch(() => {});
    throw new Error(`${options.name} subgraph cannot listen on ${host}:${port}`, { cause: error });
  }
  const actualPort = (httpServer.address() as AddressInfo).port;
  const origin = `${urlHost(host)}:${actualPort}`;
  return {
    url: `http://${origin}${GRAPHQL_PATH}`,
    subscriptionUrl: subscriptions ? `ws://${origin}${GRAPHQL_PATH}` : undefined,
    port: actualPort,
    close: () => server.stop(),
  };
}

/**
 * The answer's `Cache-Control` (a fixed one per subgraph; `no-store` for mutations) and the
 * `extensions.invalidation` a mutation's resolvers asked for: what a gateway's entity cache reads.
 */
function cacheHeaders(cacheControl: string | undefined): ApolloServerPlugin<SubgraphContext> {
  return {
    requestDidStart: async () => ({
      willSendResponse: async ({ response, operation, contextValue }) => {
        if (cacheControl) {
          response.http.headers.set('cache-control', operation?.operation === 'mutation' ? 'no-store' : cacheControl);
        }
        const invalidation = contextValue.invalidate;
        if (invalidation?.length && response.body.kind === 'single') {
          const { singleResult } = response.body;
          singleResult.extensions = { ...singleResult.extensions, invalidation };
        }
      },
    }),
  };
}

function closeOnDrain(subscriptions: SubscriptionServer): ApolloServerPlugin<SubgraphContext> {
  return {
    serverWillStart: async () => ({ drainServer: () => subscriptions.close() }),
  };
}

function listen(httpServer: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
}

/** A host usable in a URL: wildcard addresses become loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

function checkOptions(name: string, port: number, delayMs: number): void {
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new RangeError(`startSubgraph(${name}): port must be an integer from 0 to 65535, got ${port}`);
  }
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new RangeError(`startSubgraph(${name}): delayMs must be a number >= 0, got ${delayMs}`);
  }
}
