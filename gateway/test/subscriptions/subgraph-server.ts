import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema, type GraphQLFieldConfig } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';

/** The subset of the reviews subgraph a subscription test needs: `reviewAdded` and a Review. */
const SDL = `
  type Query { ok: Boolean }
  type Review { id: ID! rating: Int! comment: String! }
  type Subscription { reviewAdded(productId: ID): Review! }
`;

/** One subscription the server is serving: the test decides each event it sends. */
export interface ServedSubscription {
  readonly args: Record<string, unknown>;
  push(review: { id: string; rating: number; comment: string }): void;
  complete(): void;
  /** Resolves when graphql-ws stopped the subscription (the client completed it or its socket closed). */
  readonly released: Promise<void>;
  isReleased(): boolean;
}

export interface SubgraphSocketServer {
  /** The HTTP URL a gateway is given; its WebSocket is the same host and path. */
  readonly url: string;
  /** Headers of each WebSocket upgrade request, in order. */
  readonly upgrades: IncomingHttpHeaders[];
  /** The close code of each WebSocket once closed, as the server saw it, in order. */
  readonly closeCodes: number[];
  /** The payload of each `connection_init`, in order. */
  readonly connectionParams: unknown[];
  readonly subscriptions: ServedSubscription[];
  /** The `n`th subscription (0-based) once the server has it. */
  subscription(n: number): Promise<ServedSubscription>;
  /** WebSockets open on the server's side now. */
  openSockets(): number;
  /** Closes every open WebSocket from the server's side with `code`, or cuts it (1006) without one. */
  dropSockets(code?: number): void;
  close(): Promise<void>;
}

/**
 * A real graphql-ws server (graphql-transport-ws, `ws` + graphql-ws/use/ws) on loopback, at
 * `/graphql`, serving `Subscription.reviewAdded` from events the test pushes.
 */
export async function startSubgraphSocketServer(): Promise<SubgraphSocketServer> {
  const schema = buildSchema(SDL);
  const subscriptions: ServedSubscription[] = [];
  const waiters: (() => void)[] = [];
  const field = schema.getSubscriptionType()?.getFields().reviewAdded as unknown as GraphQLFieldConfig<
    unknown,
    unknown
  >;
  field.subscribe = (_root, args) => {
    const { iterator, served } = channel(args as Record<string, unknown>);
    subscriptions.push(served);
    for (const wake of waiters.splice(0)) wake();
    return iterator;
  };
  field.resolve = (review) => review;

  const upgrades: IncomingHttpHeaders[] = [];
  const connectionParams: unknown[] = [];
  const http = createServer((_request, response) => {
    response.writeHead(404).end();
  });
  const wss = new WebSocketServer({ server: http, path: '/graphql' });
  const closeCodes: number[] = [];
  wss.on('connection', (socket, request) => {
    upgrades.push(request.headers);
    socket.on('close', (code) => closeCodes.push(code));
  });
  const { dispose } = useServer(
    {
      schema,
      onConnect: (ctx) => {
        connectionParams.push(ctx.connectionParams);
      },
    },
    wss,
  );
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/graphql`,
    upgrades,
    closeCodes,
    connectionParams,
    subscriptions,
    async subscription(n) {
      while (subscriptions.length <= n) await new Promise<void>((resolve) => waiters.push(resolve));
      return subscriptions[n] as ServedSubscription;
    },
    openSockets: () => [...wss.clients].filter((socket: WebSocket) => socket.readyState === socket.OPEN).length,
    dropSockets(code) {
      for (const socket of wss.clients) {
        if (code === undefined) socket.terminate();
        else socket.close(code, 'test closed it');
      }
    },
    async close() {
      for (const socket of wss.clients) socket.terminate();
      await dispose();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** An async iterator of the events `push`ed, that records its release. */
function channel(args: Record<string, unknown>): {
  iterator: AsyncIterableIterator<unknown>;
  served: ServedSubscription;
} {
  const items: unknown[] = [];
  let waiting: ((result: IteratorResult<unknown>) => void) | undefined;
  let done = false;
  let released = false;
  let onRelease: () => void = () => {};
  const releasedPromise = new Promise<void>((resolve) => {
    onRelease = resolve;
  });
  const settle = (result: IteratorResult<unknown>): boolean => {
    const wake = waiting;
    waiting = undefined;
    wake?.(result);
    return wake !== undefined;
  };
  const iterator: AsyncIterableIterator<unknown> = {
    next: () => {
      if (items.length > 0) return Promise.resolve({ value: items.shift(), done: false });
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => {
        waiting = resolve;
      });
    },
    return: () => {
      done = true;
      released = true;
      onRelease();
      settle({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return {
    iterator,
    served: {
      args,
      push(review) {
        if (done) return;
        if (!settle({ value: review, done: false })) items.push(review);
      },
      complete() {
        done = true;
        settle({ value: undefined, done: true });
      },
      released: releasedPromise,
      isReleased: () => released,
    },
  };
}
