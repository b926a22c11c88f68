import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { MountableGateway, StreamOutcome } from '@fedgw/gateway/contract';
import { GraphQLError, GraphQLSchema } from 'graphql';
import type { ConnectionInitMessage, Context, ServerOptions, SubscribePayload } from 'graphql-ws';
import { type Extra, useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import { clientAddressOf } from '../client-address.js';
import { crossOriginStreamRefusal } from '../cross-origin.js';
import { STATUS_CODES } from '../node-http.js';
import { closeWhenIdle } from './close-when-idle.js';
import { connectionHeaders, isRefusal, refusalErrors, STAND_IN, streamScope } from './stream-scope.js';

interface Connection {
  headers?: ReturnType<typeof connectionHeaders>;
  idle?: NodeJS.Timeout;
}

const PROTOCOL = 'graphql-transport-ws';
// Never used to execute: the gateway runs every operation; graphql-ws only wants one to hold.
const NO_SCHEMA = new GraphQLSchema({});

/**
 * Serves graphql-ws (subprotocol `graphql-transport-ws`) on the gateway's path of `server`,
 * whatever framework answers its HTTP requests. Each connection is authenticated at
 * `connection_init` (upgrade headers and the payload's); each operation then goes through
 * the gateway as a request of its own. Caps: connections (all and per address, shared with SSE), operations per
 * connection, messages (GraphQL body limit); a connection idle or silent too long is closed.
 */
export function serveWebSocket(server: Server, gateway: WebSocketGateway): void {
  const endpoint = gateway.subscriptions;
  if (!endpoint) return;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: gateway.bodyLimitBytes,
    handleProtocols: (protocols) => (protocols.has(PROTOCOL) ? PROTOCOL : false),
  });
  const serving: Serving = { gateway, endpoint, connectionOf: connectionStore(), operationsOf: new WeakMap() };
  acceptUpgrades(server, sockets, gateway, endpoint);
  closeOnDrain(sockets, serving);
  useServer(graphqlWsOptions(serving), sockets, endpoint.limits.heartbeatMs);
}

type WebSocketGateway = Pick<
  MountableGateway,
  'subscriptions' | 'path' | 'bodyLimitBytes' | 'origins' | 'clientAddress' | 'requestScheme'
>;
type Endpoint = NonNullable<MountableGateway['subscriptions']>;
type WsOptions = ServerOptions<ConnectionInitMessage['payload'], Extra>;
type WsContext = Context<ConnectionInitMessage['payload'], Extra>;

/** What serving graphql-ws on one server keeps: the gateway, its endpoint and each connection's state. */
interface Serving {
  readonly gateway: WebSocketGateway;
  readonly endpoint: Endpoint;
  readonly connectionOf: (extra: unknown) => Connection;
  /** Each socket's graphql-ws context, to see when its operations have all completed. */
  readonly operationsOf: WeakMap<object, () => number>;
}

/** Each connection's state, kept by its graphql-ws `extra`. */
function connectionStore(): (extra: unknown) => Connection {
  const connections = new WeakMap<object, Connection>();
  return (extra: unknown): Connection => {
    const known = connections.get(extra as object);
    if (known) return known;
    const connection: Connection = {};
    connections.set(extra as object, connection);
    return connection;
  };
}

/** Upgrades on the gateway's path, from an allowed origin, within the connection caps; any other is answered in HTTP. */
function acceptUpgrades(server: Server, sockets: WebSocketServer, gateway: WebSocketGateway, endpoint: Endpoint): void {
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(request) !== gateway.path) return reject(socket, 404, 'Not Found');
    // A browser sends the user's cookie on a WebSocket from any site: the origin policy decides.
    if (crossOriginStreamRefusal(gateway, request)) return reject(socket, 403, 'Forbidden');
    const slot = endpoint.openConnection(clientAddressOf(gateway, request));
    if (!slot.granted)
      return reject(socket, slot.status, STATUS_CODES[slot.status] ?? 'Refused', { errors: [slot.error] });
    sockets.handleUpgrade(request, socket, head, (client) => {
      client.once('close', slot.release);
      sockets.emit('connection', client, request);
    });
  });
}

/** Once draining, each socket closes when its operations are done (Going away), or is terminated. */
function closeOnDrain(sockets: WebSocketServer, { endpoint, operationsOf }: Serving): void {
  endpoint.onDrain(() =>
    closeWhenIdle(
      () => sockets.clients,
      (client) => (operationsOf.get(client)?.() ?? 0) === 0,
      (client) => client.close(1001, 'Going away'),
      (client) => client.terminate(),
    ),
  );
}

/** graphql-ws's hooks: connections authenticated, operations run by the gateway, the idle clock kept. */
function graphqlWsOptions(serving: Serving): WsOptions {
  const { endpoint, connectionOf } = serving;
  const { limits } = endpoint;
  return {
    connectionInitWaitTimeout: limits.connectionInitTimeoutMs,
    onConnect: (ctx) => authenticateConnection(ctx, serving),
    onSubscribe: (ctx, _id, payload) => runOperation(ctx, payload, serving),
    execute: (args) => (args.contextValue as { outcome: StreamOutcome & { kind: 'answer' } }).outcome.result as never,
    subscribe: (args) => (args.contextValue as { outcome: StreamOutcome & { kind: 'stream' } }).outcome.events as never,
    // The gateway's results are formatted already; graphql-ws would call toJSON() on each error.
    onNext: (_ctx, _id, _payload, _args, result) => result,
    onComplete: (ctx) => {
      // After graphql-ws forgot the operation: with none left, the idle clock starts again.
      setImmediate(() => {
        if (Object.keys(ctx.subscriptions).length === 0) armIdle(ctx, connectionOf(ctx.extra), limits.idleTimeoutMs);
      });
    },
    onDisconnect: (ctx) => clearTimeout(connectionOf(ctx.extra).idle),
    onClose: (ctx) => clearTimeout(connectionOf(ctx.extra).idle),
  };
}

/** `connection_init`: authenticated with the upgrade's headers and the payload's, then the idle clock starts. */
async function authenticateConnection(ctx: WsContext, { gateway, endpoint, connectionOf, operationsOf }: Serving) {
  const headers = connectionHeaders(ctx.extra.request, ctx.connectionParams);
  const refusal = await endpoint.authenticate(
    streamScope('WS', ctx.extra.request, headers, clientAddressOf(gateway, ctx.extra.request)),
  );
  // A bad credential: graphql-ws closes with 4403 Forbidden. Any other refusal (503 load shedding)
  // is of the moment, not of the connection: each `subscribe` meets it again, with its code.
  if (refusal && (refusal.status === 401 || refusal.status === 403)) return false;
  const connection = connectionOf(ctx.extra);
  connection.headers = headers;
  operationsOf.set(ctx.extra.socket, () => Object.keys(ctx.subscriptions).length);
  armIdle(ctx, connection, endpoint.limits.idleTimeoutMs);
  return true;
}

/** `subscribe`: within the per-connection cap, the operation goes through the gateway as a request of its own. */
async function runOperation(ctx: WsContext, payload: SubscribePayload, { gateway, endpoint, connectionOf }: Serving) {
  const { limits } = endpoint;
  const connection = connectionOf(ctx.extra);
  clearTimeout(connection.idle);
  // graphql-ws counts this operation already.
  if (Object.keys(ctx.subscriptions).length > limits.maxPerConnection) {
    return [
      new GraphQLError(
        `A connection may run ${limits.maxPerConnection} operations at once (SUBSCRIPTION_MAX_PER_CONNECTION).`,
        {
          extensions: { code: 'SUBSCRIPTION_MAX_LIMIT', legacyCode: 'SUBSCRIPTION_LIMIT_EXCEEDED' },
        },
      ),
    ];
  }
  const scope = streamScope(
    'WS',
    ctx.extra.request,
    connection.headers ?? ctx.extra.request.headers,
    clientAddressOf(gateway, ctx.extra.request),
  );
  const outcome = await endpoint.operate(scope, payload);
  if (isRefusal(outcome)) return refusalErrors(outcome);
  return {
    schema: NO_SCHEMA,
    document: outcome.kind === 'stream' ? STAND_IN.stream : STAND_IN.answer,
    contextValue: { outcome },
  };
}

function armIdle(
  ctx: { extra: { socket: { close(code: number, reason: string): void } } },
  connection: Connection,
  idleTimeoutMs: number,
): void {
  clearTimeout(connection.idle);
  const { socket } = ctx.extra;
  connection.idle = setTimeout(() => socket.close(1000, 'Idle'), idleTimeoutMs);
  connection.idle.unref();
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** An HTTP answer instead of the upgrade; with a body, the GraphQL errors saying why (their code). */
function reject(socket: Duplex, status: number, text: string, body?: unknown): void {
  const content = body === undefined ? '' : JSON.stringify(body);
  const type = body === undefined ? '' : 'Content-Type: application/json; charset=utf-8\r\n';
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(content)}\r\n\r\n${content}`,
  );
}
