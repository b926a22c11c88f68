import { boolean, byteSize, integer, oneOf, withDefault } from '../../settings/values.js';
import { LOG_LEVELS } from '../types.js';

import type { FieldSpec } from './spec.js';

/** The HTTP side: body limit, compression, client timeouts, introspection and landing page, errors, shutdown, logs. */
export const HTTP_FIELDS: readonly FieldSpec[] = [
  {
    key: 'bodyLimitBytes',
    env: 'BODY_LIMIT',
    parse: withDefault(byteSize(1024, 100 * 1024 ** 2), 2 * 1024 ** 2),
    meaning: 'larger bodies get 413; bytes or `512kb`, `2mb`',
    docDefault: '`2mb`',
  },
  {
    key: 'compression',
    env: 'COMPRESSION',
    parse: withDefault(boolean, true),
    meaning:
      "answers in gzip or brotli as the client's `Accept-Encoding` asks (streamed ones, SSE and multipart, never); request bodies in gzip, deflate or br are accepted whatever this says (see [Compression](operations.md#compression))",
  },
  {
    key: 'compressionMinBytes',
    env: 'COMPRESSION_MIN_BYTES',
    parse: withDefault(integer(0, 100 * 1024 ** 2), 1024),
    meaning: 'smaller answers are sent uncompressed (compressing them costs more than it saves)',
    feature: 'compression',
  },
  {
    key: 'requestTimeoutMs',
    env: 'REQUEST_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 30_000),
    meaning:
      "a client must send its whole request within this, or gets 408 and the connection is closed (all four mounts; Fastify's own default is no limit)",
  },
  {
    key: 'headersTimeoutMs',
    env: 'HEADERS_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 10_000),
    meaning: 'the same for the request headers; at most `REQUEST_TIMEOUT_MS`',
  },
  {
    key: 'keepAliveTimeoutMs',
    env: 'KEEP_ALIVE_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 72_000),
    meaning: "idle client keep-alive connections close after this; keep it above your load balancer's idle timeout",
  },
  {
    key: 'stalledWriteTimeoutMs',
    env: 'STALLED_WRITE_TIMEOUT_MS',
    parse: withDefault(integer(100, 3_600_000), 30_000),
    meaning:
      'a client connection with answer bytes waiting to be written that makes no progress for this long (a client that does not read) is closed, freeing them; a connection with more than 8 unanswered pipelined requests is closed at once',
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
    key: 'shutdownGraceMs',
    env: 'SHUTDOWN_GRACE_MS',
    parse: withDefault(integer(0, 600_000), 10_000),
    meaning: 'time in-flight requests get after SIGTERM',
  },
  {
    key: 'shutdownDelayMs',
    env: 'SHUTDOWN_DELAY_MS',
    parse: withDefault(integer(0, 600_000), 0),
    meaning:
      "time between `/ready` turning 503 and the listener closing (set it to your load balancer's probe interval)",
  },
  {
    key: 'logLevel',
    env: 'LOG_LEVEL',
    parse: withDefault(oneOf(LOG_LEVELS), 'info'),
    meaning: '`fatal` … `trace`, `silent`',
  },
  {
    key: 'logPretty',
    env: 'LOG_PRETTY',
    parse: withDefault(boolean, false, { development: true }),
    meaning: 'pino-pretty output',
  },
];
