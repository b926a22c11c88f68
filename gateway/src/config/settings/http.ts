import {
  CLIENT_ADDRESS_HEADERS,
  DEFAULT_IPV6_PREFIX,
  readTrustedProxies,
  TRUSTED_PROXIES_FORMAT,
} from '../../client-address/index.js';
import { CORE_HTTP_VALUES } from '../../core-settings.js';
import type { ConfigIssue } from '../../errors.js';
import { LOG_FLUSH_MS, LOG_VALUES } from '../../logger.js';
import { boolean, byteSize, custom, integer, oneOf, withDefault } from '../../settings/kinds.js';

import { type ConfigOf, defineFields } from './spec.js';

/** The HTTP side: body limit, compression, client timeouts, introspection and landing page, errors, shutdown, logs. */
export const HTTP_FIELDS = defineFields([
  {
    key: 'trustedProxies',
    env: 'TRUSTED_PROXIES',
    parse: custom(TRUSTED_PROXIES_FORMAT, readTrustedProxies),
    meaning:
      "the proxies in front of the gateway whose `X-Forwarded-For` (or `Forwarded`) is believed: their addresses and networks (`10.0.0.0/8,fd00::/8`), or how many there are (`1`). The client address every per-client cap keys on (rate limit, subscription and connection caps, unread answers) is then the first hop, right to left, that is not a trusted proxy. Unset: the socket's peer, and the headers are ignored. See [Client addresses behind a proxy](security.md#client-addresses-behind-a-proxy)",
  },
  {
    key: 'clientAddressHeader',
    env: 'CLIENT_ADDRESS_HEADER',
    parse: withDefault(oneOf(CLIENT_ADDRESS_HEADERS), 'x-forwarded-for'),
    meaning:
      'the one header trusted proxies name the client in; the other is never read (a client could send it past a proxy that only writes the first)',
    feature: 'trusted-proxies',
  },
  {
    key: 'clientIpv6Prefix',
    env: 'CLIENT_IPV6_PREFIX',
    parse: withDefault(integer(1, 128), DEFAULT_IPV6_PREFIX),
    meaning:
      'the IPv6 network one client is counted by in every address-keyed cap (rate limit by `ip`, subscription, streaming-connection and unread-answer caps): an IPv6 client holds a whole /64 and may use a new address of it for each request; `128` counts each address apart. IPv4 (and IPv4-mapped IPv6) addresses count one by one. See [Client addresses behind a proxy](security.md#client-addresses-behind-a-proxy)',
  },
  {
    key: 'http.bodyLimitBytes',
    formerKey: 'bodyLimitBytes',
    env: 'BODY_LIMIT',
    parse: CORE_HTTP_VALUES.bodyLimitBytes,
    meaning: 'larger bodies get 413; bytes or `512kb`, `2mb`',
    docDefault: '`2mb`',
  },
  {
    key: 'http.compression',
    formerKey: 'compression',
    env: 'COMPRESSION',
    parse: CORE_HTTP_VALUES.compression,
    meaning:
      "answers in gzip or brotli as the client's `Accept-Encoding` asks (streamed ones, SSE and multipart, never); request bodies in gzip, deflate or br are accepted whatever this says (see [Compression](operations.md#compression))",
  },
  {
    key: 'http.compressionMinBytes',
    formerKey: 'compressionMinBytes',
    env: 'COMPRESSION_MIN_BYTES',
    parse: CORE_HTTP_VALUES.compressionMinBytes,
    meaning: 'smaller answers are sent uncompressed (compressing them costs more than it saves)',
    feature: 'compression',
  },
  {
    key: 'http.requestTimeoutMs',
    formerKey: 'requestTimeoutMs',
    env: 'REQUEST_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 30_000),
    meaning:
      "a client must send its whole request within this, or gets 408 and the connection is closed (all four mounts; Fastify's own default is no limit)",
  },
  {
    key: 'http.headersTimeoutMs',
    formerKey: 'headersTimeoutMs',
    env: 'HEADERS_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 10_000),
    meaning: 'the same for the request headers; at most `REQUEST_TIMEOUT_MS`',
  },
  {
    key: 'http.keepAliveTimeoutMs',
    formerKey: 'keepAliveTimeoutMs',
    env: 'KEEP_ALIVE_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 72_000),
    meaning: "idle client keep-alive connections close after this; keep it above your load balancer's idle timeout",
  },
  {
    key: 'http.stalledWriteTimeoutMs',
    formerKey: 'stalledWriteTimeoutMs',
    env: 'STALLED_WRITE_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 30_000),
    meaning:
      'a client connection with answer bytes waiting to be written that makes no progress for this long (a client that does not read) is closed, freeing them; a connection with more than 8 unanswered pipelined requests is closed at once',
  },
  {
    key: 'http.unreadBytesMaxTotal',
    formerKey: 'unreadBytesMaxTotal',
    env: 'UNREAD_BYTES_MAX_TOTAL',
    parse: withDefault(byteSize(1024 ** 2, 64 * 1024 ** 3), 128 * 1024 ** 2),
    meaning:
      'answer bytes this process may hold for clients that have not read them (queued on their connections), all clients together; past it the connections of the client holding the most are closed, largest first. For the whole process: each of `GATEWAY_WORKERS` workers holds its share (this and the two below). See [Security: limits on every request](security.md#security-limits-on-every-request)',
    docDefault: '`128mb`',
  },
  {
    key: 'http.unreadBytesMaxPerClient',
    formerKey: 'unreadBytesMaxPerClient',
    env: 'UNREAD_BYTES_MAX_PER_CLIENT',
    parse: byteSize(1024 ** 2, 64 * 1024 ** 3),
    docDefault: 'a quarter of UNREAD_BYTES_MAX_TOTAL',
    meaning:
      "the same for one client address: past it its connections holding the most are closed, largest first; while it holds more than half of it, its new requests get 429 `UNREAD_ANSWERS_LIMIT_EXCEEDED` before any work. Keep it above `MAX_RESPONSE_BYTES`. Behind a proxy that hides client addresses every client shares the proxy's: raise it to `UNREAD_BYTES_MAX_TOTAL` there",
  },
  {
    key: 'http.unreadAnswersMaxPerClient',
    formerKey: 'unreadAnswersMaxPerClient',
    env: 'UNREAD_ANSWERS_MAX_PER_CLIENT',
    parse: withDefault(integer(1, 100_000), 8),
    meaning:
      "answers one client address may have unfinished at once (being built, or not yet handed to the network); its further requests wait, unread, until one finishes or its connection closes (event streams neither wait nor count): 100 large answers requested at once were otherwise all built at once, and 8 at `MAX_RESPONSE_BYTES`, each held about four times over while built, fit the Deployment's 768Mi pod. Behind a proxy that hides client addresses every client shares the proxy's, and waits: raise it there",
  },
  {
    key: 'introspection',
    env: 'INTROSPECTION',
    parse: withDefault(boolean, false, { development: true }),
    meaning: 'GraphQL introspection',
  },
  {
    key: 'landingPage',
    env: 'LANDING_PAGE',
    parse: withDefault(boolean, false, { development: true }),
    meaning: 'Apollo Sandbox on `GET /graphql`',
  },
  {
    key: 'maskErrors',
    env: 'MASK_ERRORS',
    parse: withDefault(boolean, true, { development: false }),
    meaning: 'see [Errors](security.md#errors-clients-see)',
  },
  {
    key: 'shutdown.graceMs',
    formerKey: 'shutdownGraceMs',
    env: 'SHUTDOWN_GRACE_MS',
    parse: withDefault(integer(0, 600_000), 10_000),
    meaning: 'time in-flight requests get after SIGTERM',
  },
  {
    key: 'shutdown.delayMs',
    formerKey: 'shutdownDelayMs',
    env: 'SHUTDOWN_DELAY_MS',
    parse: withDefault(integer(0, 600_000), 0),
    meaning:
      "time between `/ready` turning 503 and the listener closing (set it to your load balancer's probe interval)",
  },
  {
    key: 'log.level',
    formerKey: 'logLevel',
    env: 'GATEWAY_LOG_LEVEL',
    formerEnv: ['LOG_LEVEL'],
    parse: LOG_VALUES.level,
    meaning: '`fatal` … `trace`, `silent`',
  },
  {
    key: 'log.pretty',
    formerKey: 'logPretty',
    env: 'GATEWAY_LOG_PRETTY',
    formerEnv: ['LOG_PRETTY'],
    parse: LOG_VALUES.pretty,
    meaning: 'pino-pretty output',
  },
  {
    key: 'log.bufferBytes',
    env: 'GATEWAY_LOG_BUFFER_BYTES',
    parse: LOG_VALUES.bufferBytes,
    meaning: `log lines gathered before one write to standard output; each line is written within ${LOG_FLUSH_MS} ms, and what is buffered when the process exits is written then; \`0\` writes each line at once`,
  },
  {
    key: 'log.maxQueuedBytes',
    env: 'GATEWAY_LOG_MAX_QUEUED_BYTES',
    parse: LOG_VALUES.maxQueuedBytes,
    meaning:
      'most log bytes held in memory while standard output does not take them (a stalled log collector); lines past it are dropped and counted (`gateway_log_lines_dropped_total`), never waited for',
  },
]);

/** The `http` group's rule (ADR 052): the headers' deadline is part of the request's, so it cannot be longer. */
export function checkHttp({ http }: ConfigOf<typeof HTTP_FIELDS>, issues: ConfigIssue[]): void {
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    issues.push({
      field: 'HEADERS_TIMEOUT_MS',
      message: `must not exceed REQUEST_TIMEOUT_MS (${http.headersTimeoutMs} > ${http.requestTimeoutMs})`,
    });
  }
}
