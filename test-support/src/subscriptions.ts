import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import { createClient as createSseClient, NetworkError } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { WebSocket } from 'ws';

/** The ways a client subscribes at the gateway: graphql-ws, and graphql-sse in both of its modes. */
export const STREAM_PROTOCOLS = ['ws', 'sse', 'sse-single'] as const;
export type StreamProtocol = (typeof STREAM_PROTOCOLS)[number];

export interface StreamPayload {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
  readonly extensions?: Record<string, unknown>;
}

export interface StreamOptions {
  /** Sent on the upgrade (WebSocket) or on every request (SSE). */
  readonly headers?: Record<string, string>;
  /** WebSocket only: the `connection_init` payload. */
  readonly connectionParams?: Record<string, unknown>;
}

/**
 * How a stream ended: `complete`, or an error: GraphQL errors (a refusal, graphql-ws `error`
 * or an SSE answer), a WebSocket close code, or an HTTP status.
 */
export interface StreamEnd {
  readonly how: 'complete' | 'error';
  readonly errors?: readonly GraphQLFormattedError[];
  readonly closeCode?: number;
  readonly status?: number;
}

export interface TestStream {
  /** Every event received so far, in order. */
  readonly events: FormattedExecutionResult[];
  readonly ended: Promise<StreamEnd>;
  /** Waits until `count` events arrived (rejects when the stream ends first or after `timeoutMs`). */
  take(count: number, timeoutMs?: number): Promise<FormattedExecutionResult[]>;
  /** Unsubscribes. */
  stop(): void;
}

export interface StreamClient {
  subscribe(payload: StreamPayload): TestStream;
  /** Closes the connection (WebSocket, single-connection stream) and every stream on it. */
  dispose(): Promise<void>;
}

/**
 * The errors a refused operation reached a real client with, checked to have come the way its
 * protocol says: graphql-ws as an `error` message; graphql-sse (either mode, once the stream is
 * accepted) as one `next` event holding the errors and no data, then `complete`.
 */
export async function refusalOf(protocol: StreamProtocol, stream: TestStream): Promise<GraphQLFormattedError[]> {
  const end = await stream.ended;
  const seen = JSON.stringify({ end, events: stream.events });
  if (protocol === 'ws') {
    if (end.how !== 'error' || !end.errors || stream.events.length > 0)
      throw new Error(`not a graphql-ws error: ${seen}`);
    return [...end.errors];
  }
  const [event] = stream.events;
  if (end.how !== 'complete' || stream.events.length !== 1 || !event?.errors || 'data' in event)
    throw new Error(`not one error event then complete: ${seen}`);
  return [...event.errors];
}

/** A real graphql-ws or graphql-sse client on `graphqlUrl` (http://…/graphql), never retrying. */
export function streamClient(protocol: StreamProtocol, graphqlUrl: string, options: StreamOptions = {}): StreamClient {
  return protocol === 'ws' ? wsClient(graphqlUrl, options) : sseClient(graphqlUrl, protocol === 'sse-single', options);
}

/** One subscription on a connection of its own; `stop` closes the connection too. */
export function openStream(
  protocol: StreamProtocol,
  graphqlUrl: string,
  payload: StreamPayload,
  options: StreamOptions = {},
): TestStream {
  const client = streamClient(protocol, graphqlUrl, options);
  const stream = client.subscribe(payload);
  void stream.ended.finally(() => client.dispose());
  return { ...stream, stop: () => void client.dispose() };
}

function wsClient(graphqlUrl: string, options: StreamOptions): StreamClient {
  let upgradeStatus: number | undefined;
  const client = createWsClient({
    url: graphqlUrl.replace(/^http/, 'ws'),
    webSocketImpl: class extends WebSocket {
      constructor(address: string, protocols?: string | string[]) {
        super(address, protocols, { headers: options.headers });
        this.on('unexpected-response', (_request, response) => {
          upgradeStatus = response.statusCode;
          this.emit('error', new Error(`Unexpected server response: ${response.statusCode}`));
          response.resume();
        });
      }
    },
    connectionParams: options.connectionParams,
    retryAttempts: 0,
    shouldRetry: () => false,
    lazyCloseTimeout: 0,
  });
  const endOf = (error: unknown): StreamEnd => {
    if (Array.isArray(error)) return { how: 'error', errors: error };
    if (upgradeStatus !== undefined) return { how: 'error', status: upgradeStatus };
    const closeCode = (error as { code?: unknown }).code;
    return { how: 'error', ...(typeof closeCode === 'number' ? { closeCode } : {}) };
  };
  return clientOf(
    (payload, sink) => client.subscribe(payload, sink),
    endOf,
    () => client.dispose(),
  );
}

function sseClient(graphqlUrl: string, singleConnection: boolean, options: StreamOptions): StreamClient {
  const client = createSseClient({
    url: graphqlUrl,
    singleConnection,
    headers: options.headers,
    retryAttempts: 0,
    // The client aborts a refused request once it throws: read a refusal's body first, to report its errors.
    fetchFn: async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      if (response.ok) return response;
      return new Response(await response.text(), { status: response.status, headers: response.headers });
    },
    lazy: true,
    lazyCloseTimeout: 0,
  });
  return clientOf(
    (payload, sink) => client.subscribe(payload, sink),
    sseEnd,
    () => client.dispose(),
  );
}

type Subscribe = (
  payload: StreamPayload,
  sink: { next(value: unknown): void; error(error: unknown): void; complete(): void },
) => () => void;

/** A StreamClient over a graphql-ws or graphql-sse client: `endOf` says how an error ended a stream. */
function clientOf(
  subscribe: Subscribe,
  endOf: (error: unknown) => StreamEnd | Promise<StreamEnd>,
  dispose: () => unknown,
): StreamClient {
  return {
    subscribe(payload) {
      const stream = collector();
      stream.bindStop(
        subscribe(payload, {
          next: (value) => stream.push(value as FormattedExecutionResult),
          complete: () => stream.end({ how: 'complete' }),
          error: (error) => void Promise.resolve(endOf(error)).then((end) => stream.end(end)),
        }),
      );
      return stream.stream;
    },
    dispose: async () => {
      await dispose();
    },
  };
}

/** An SSE refusal is an HTTP answer: its status and, when JSON, its GraphQL errors. */
async function sseEnd(error: unknown): Promise<StreamEnd> {
  if (error instanceof NetworkError && error.response) {
    const { status } = error.response;
    const body = (await error.response.json().catch(() => undefined)) as
      | { errors?: GraphQLFormattedError[] }
      | undefined;
    return { how: 'error', status, ...(body?.errors ? { errors: body.errors } : {}) };
  }
  if (Array.isArray(error)) return { how: 'error', errors: error };
  return { how: 'error' };
}

function collector() {
  const events: FormattedExecutionResult[] = [];
  const waiters = new Set<() => void>();
  let finished: StreamEnd | undefined;
  let resolveEnd!: (end: StreamEnd) => void;
  const ended = new Promise<StreamEnd>((resolve) => {
    resolveEnd = resolve;
  });
  let unsubscribe = () => {};
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  const stream: TestStream = {
    events,
    ended,
    take: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (events.length >= count) return done(() => resolve(events.slice(0, count)));
          if (finished)
            return done(() =>
              reject(
                new Error(`the stream ended (${JSON.stringify(finished)}) after ${events.length} of ${count} events`),
              ),
            );
        };
        const timer = setTimeout(
          () =>
            done(() =>
              reject(
                new Error(
                  `${events.length} of ${count} events after ${timeoutMs} ms: ${JSON.stringify(events).slice(0, 2000)}`,
                ),
              ),
            ),
          timeoutMs,
        );
        const done = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      }),
    stop: () => unsubscribe(),
  };
  return {
    stream,
    push(event: FormattedExecutionResult) {
      events.push(event);
      wake();
    },
    end(end: StreamEnd) {
      if (finished) return;
      finished = end;
      resolveEnd(end);
      wake();
    },
    bindStop(stop: () => void) {
      unsubscribe = stop;
    },
  };
}

const ADD_REVIEW = `mutation AddReview($productId: ID!, $rating: Int!, $comment: String!) {
  addReview(productId: $productId, rating: $rating, comment: $comment) { id }
}`;

/** Adds a review straight at the reviews subgraph (the event source); its id. */
export async function addReview(
  reviewsUrl: string,
  review: { productId: string; rating: number; comment: string; author?: string },
): Promise<string> {
  const response = await fetch(reviewsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-user-id': review.author ?? 'user-3' },
    body: JSON.stringify({ query: ADD_REVIEW, variables: review }),
  });
  const body = (await response.json()) as { data?: { addReview: { id: string } } | null; errors?: unknown[] };
  const id = body.data?.addReview.id;
  if (!id) throw new Error(`addReview failed: ${JSON.stringify(body)}`);
  return id;
}
