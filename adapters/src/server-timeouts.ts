import type { Server } from 'node:http';
import type { MountableGateway } from '@fedgw/gateway/contract';
import { resolveClientAddress } from './client-address.js';
import { answerClientErrorsCoded } from './client-errors.js';
import { prefersEventStream } from './transport-choice.js';
import { limitUnreadBytes, type UnreadBytesSettings, unreadBytesLimits } from './unread-bytes.js';
import { limitUnreadResponses, UNREAD_RESPONSE_DEFAULTS } from './unread-responses.js';

/** How long a client may take to send a request, and keep an idle connection open. */
export interface ServerTimeouts extends UnreadBytesSettings {
  /** The whole request (headers and body) must be received within this; past it, 408 and the socket is closed. */
  readonly requestTimeoutMs: number;
  /** The request headers must be received within this; at most `requestTimeoutMs`. */
  readonly headersTimeoutMs: number;
  /** An idle keep-alive connection is closed after this; keep it above your load balancer's idle timeout. */
  readonly keepAliveTimeoutMs: number;
  /** A connection with unread answer bytes that makes no progress for this long is closed. Default: 30 000 ms. */
  readonly stalledWriteTimeoutMs?: number;
}

/**
 * Applies the timeouts (and the limits on unread answers) to a Node HTTP server before it listens: the bare Express server,
 * Fastify's `app.server`, or the one NestJS's adapter created (`app.getHttpServer()`).
 *
 * Node checks the request and headers timeouts only every `connectionsCheckingInterval`
 * (30 s by default), so a slow client could stay up to 30 s past its timeout. Node reads
 * that interval from the server when listening starts; checking every second (or more
 * often, for shorter timeouts) enforces the timeouts within about a second.
 */
/**
 * `clients` are the gateway's rules for who a request's client is: `clientAddress` (TRUSTED_PROXIES
 * applied; absent: the socket's peer) and `clientKey`, what the caps count it under (an IPv6
 * address by its network; absent: the address).
 */
export function applyServerTimeouts(
  server: Server,
  timeouts: ServerTimeouts,
  clients: Pick<MountableGateway, 'clientAddress' | 'clientKey' | 'subscriptions'> = {},
): void {
  if (server.listening) throw new Error('server timeouts must be applied before the server listens');
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
  server.keepAliveTimeout = timeouts.keepAliveTimeoutMs;
  // A createServer option that is also an own property of the server; @types/node declares it only as an option.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.min(
    1000,
    timeouts.requestTimeoutMs,
    timeouts.headersTimeoutMs,
  );
  // Answers a client does not read are not held without bound either.
  limitUnreadResponses(server, {
    ...UNREAD_RESPONSE_DEFAULTS,
    stalledWriteMs: timeouts.stalledWriteTimeoutMs ?? UNREAD_RESPONSE_DEFAULTS.stalledWriteMs,
  });
  const keyOf = clients.clientKey ?? ((address: string) => address);
  limitUnreadBytes(
    server,
    unreadBytesLimits(timeouts),
    (req) => keyOf(resolveClientAddress(req, clients.clientAddress)),
    keyOf,
    // graphql-sse's event streams (long-lived, capped per client on their own) take no turn.
    (req) => prefersEventStream(clients.subscriptions, req.headers.accept),
  );
  // What Node's parser refuses is answered with a coded body too, the same on every mount.
  answerClientErrorsCoded(server);
}
