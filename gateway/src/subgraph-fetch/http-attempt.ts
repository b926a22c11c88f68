import type { Readable } from 'node:stream';
import type { GatewayContext } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { isRetryableConnectionError } from '../resilience/retry-policy.js';
import { AnswerReader } from './answer-reader.js';
import { type Attempt, badResponse, type Failure, parseGraphQLResponse, tooLarge } from './outcomes.js';
import type { AttemptControl, Attempter } from './retrying-fetch.js';
import { Pool } from './undici-pool.js';

/**
 * Request bodies of more bytes than this go on a connection that is closed after the answer.
 * A subgraph (or a proxy in front of it) may answer such a request early (413, 401)
 * without reading the whole body; the unread bytes would then sit in front of the next
 * request on a reused socket, which would hang until its timeout.
 */
const REUSE_MAX_BODY_BYTES = 64 * 1024;

/** Bytes, not characters: a body of 30,000 `€` is 90 KB on the wire. Counted only near the limit. */
function closesAfter(body: string): boolean {
  if (body.length > REUSE_MAX_BODY_BYTES) return true;
  return body.length * 3 > REUSE_MAX_BODY_BYTES && Buffer.byteLength(body) > REUSE_MAX_BODY_BYTES;
}

/** One request to the subgraph, the same for every attempt. */
export interface OutgoingRequest {
  readonly headers: Record<string, string>;
  /** JSON, or a multipart body streamed as it is read (uploads: never retried). */
  readonly body: string | Readable;
  /** Longer answers are abandoned mid-read. */
  readonly readLimit: number;
  /** Keep the body text on the answer (a shared fetch: each further caller parses its own copy). */
  readonly keepText: boolean;
  /** Whose response budget an answer over `readLimit` spends; none for a shared fetch. */
  readonly context: GatewayContext | undefined;
}

/**
 * One subgraph's HTTP side: a keep-alive undici Pool and its lowest-level API, `dispatch`, with
 * a handler of our own (answer-reader.ts; measured, @apollo/gateway's default fetcher spends
 * about a third of the gateway's CPU in its HTTP agent, and `pool.request()` allocated a
 * handler, a body stream and promises per fetch). Sends a request once and says how it ended.
 */
export class SubgraphHttp implements Attempter<OutgoingRequest> {
  readonly #pool: Pool;
  readonly #path: string;
  readonly #timeoutMs: number;
  readonly #maxResponseBytes: number;

  constructor(
    url: string,
    options: { connections: number; keepAliveMs: number; timeoutMs: number; maxResponseBytes: number },
  ) {
    const parsed = new URL(url);
    this.#path = `${parsed.pathname}${parsed.search}`;
    this.#timeoutMs = options.timeoutMs;
    this.#maxResponseBytes = options.maxResponseBytes;
    this.#pool = new Pool(parsed.origin, {
      // undici 8 negotiates HTTP/2 over TLS by default; stay on HTTP/1.1 so `connections` still
      // bounds sockets per subgraph (SUBGRAPH_POOL_CONNECTIONS) as with undici 7.
      allowH2: false,
      connections: options.connections,
      keepAliveTimeout: options.keepAliveMs,
      keepAliveMaxTimeout: options.keepAliveMs,
    });
  }

  /** Sends the request once, within the fetch's deadline, and reads the answer. */
  async send(request: OutgoingRequest, control: AttemptControl): Promise<Attempt> {
    const { body } = request;
    const reader = new AnswerReader(request.readLimit, control);
    this.#pool.dispatch(
      // Not for a streamed body (uploads): `Connection: close` would have the subgraph close with the
      // file unread, its reset racing its answer; undici drops the socket itself if it answers early.
      {
        path: this.#path,
        method: 'POST',
        headers: request.headers,
        body,
        reset: typeof body === 'string' && closesAfter(body),
      },
      reader,
    );
    const end = await reader.ended;
    if (end === 'failed') return this.#failed(reader, control);
    const status = reader.status;
    if (end === 'discarded') {
      const failure: Failure = {
        code: ClientErrorCode.SUBREQUEST_HTTP_ERROR,
        legacyCode: 'SUBGRAPH_BAD_RESPONSE',
        what: `answered HTTP ${status}`,
        detail: { status },
      };
      return { failure, unhealthy: true, retryInMs: reader.retryInMs as number };
    }
    if (end === 'too large') {
      return { failure: tooLarge(this.#maxResponseBytes, request.context, status), unhealthy: false };
    }
    const text = reader.text();
    const parsed = parseGraphQLResponse(text);
    // A 4xx that is not a GraphQL answer refused this request (a header or body a client made
    // too large, a forwarded credential): it says nothing about the subgraph's health, and one
    // client must not be able to open everyone's circuit breaker with it.
    if (!parsed) return { failure: badResponse(status), unhealthy: !isRequestRefusal(status) };
    return {
      received: {
        status,
        headers: reader.headers,
        bytes: reader.bytes,
        answer: parsed,
        ...(request.keepText && { text }),
      },
      // A GraphQL answer with a 5xx status is passed on, but still says the subgraph is unwell.
      unhealthy: status >= 500,
    };
  }

  #failed(reader: AnswerReader, control: AttemptControl): Attempt {
    if (control.signal.aborted) {
      // Not retried: the fetch's time is spent (see the docs, "what is retried").
      const what = `did not answer within ${this.#timeoutMs} ms`;
      return {
        failure: { code: ClientErrorCode.GATEWAY_TIMEOUT, legacyCode: 'SUBGRAPH_TIMEOUT', what },
        unhealthy: true,
      };
    }
    const code = errorCode(reader.error);
    const failure: Failure = {
      code: ClientErrorCode.SUBREQUEST_HTTP_ERROR,
      legacyCode: 'SUBGRAPH_UNAVAILABLE',
      what: `is unavailable (${code})`,
      detail: { error: code },
    };
    // Only before any answer: a connection that broke mid-body had the work done once already.
    const retryInMs = !reader.answered && isRetryableConnectionError(code) ? control.retryDelay() : undefined;
    return { failure, unhealthy: true, ...(retryInMs !== undefined && { retryInMs }) };
  }

  /** Closes the pool once in-flight requests finish. */
  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** A short, URL-free reason such as ECONNREFUSED, safe to show a client. */
function errorCode(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code : 'connection failed';
}

/** 4xx: the subgraph (or a proxy in front of it) refused this request, not every request. */
function isRequestRefusal(status: number): boolean {
  return status >= 400 && status < 500;
}
