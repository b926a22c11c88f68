import type { Server, ServerOptions } from 'node:http';

/** How long a client may take to send a request, and keep an idle connection open. */
export interface ServerTimeouts {
  /** The whole request (headers and body) must be received within this; past it, 408 and the socket is closed. */
  readonly requestTimeoutMs: number;
  /** The request headers must be received within this; at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; keep it above your load balancer's idle timeout. */
  readonly keepAliveTimeoutMs: number;
}

/** The defaults the gateway's config parser fills in, also used when a caller of the adapters gives none. */
export const DEFAULT_SERVER_TIMEOUTS: ServerTimeouts = Object.freeze({
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  // Above common load-balancer idle timeouts (60 s), as Fastify's own default.
  keepAliveTimeoutMs: 72_000,
});

/** Fills in the defaults for the timeouts a caller left out. */
export function serverTimeouts(given: Partial<ServerTimeouts>): ServerTimeouts {
  return {
    requestTimeoutMs: given.requestTimeoutMs ?? DEFAULT_SERVER_TIMEOUTS.requestTimeoutMs,
    headersTimeoutMs: given.headersTimeoutMs ?? DEFAULT_SERVER_TIMEOUTS.headersTimeoutMs,
    keepAliveTimeoutMs: given.keepAliveTimeoutMs ?? DEFAULT_SERVER_TIMEOUTS.keepAliveTimeoutMs,
  };
}

/**
 * Options for `http.createServer`. Node checks the request and headers timeouts only every
 * `connectionsCheckingInterval` (30 s by default), so a slow client could stay up to 30 s
 * past its timeout: checking every second (or more often, for shorter timeouts) enforces
 * them within about a second.
 */
export function nodeServerOptions(timeouts: ServerTimeouts): ServerOptions {
  return {
    requestTimeout: timeouts.requestTimeoutMs,
    headersTimeout: timeouts.headersTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    connectionsCheckingInterval: checkingIntervalMs(timeouts),
  };
}

function checkingIntervalMs(timeouts: ServerTimeouts): number {
  return Math.min(1000, timeouts.requestTimeoutMs, timeouts.headersTimeoutMs);
}

/**
 * Applies the timeouts to a server something else created (NestJS's Express adapter).
 * Call it before `listen()`: Node starts its connection checker, with the interval set
 * here, when the server starts listening.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts): void {
  if (server.listening) throw new Error('server timeouts must be applied before the server listens');
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // Node reads this own property of the server when listening starts; @types/node 20 does not declare it.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    checkingIntervalMs(timeouts);
}
