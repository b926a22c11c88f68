import type { BaseContext } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { MountableGateway, RequestScope } from '@fedgw/gateway/contract';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { clientAddressOf, schemeOf } from './client-address.js';
import { compressResponse } from './compression/compress-response.js';
import { BodyCodingError, decodeBody, requestCoding } from './compression/decode-request.js';
import type { ListeningServer, ListenOptions } from './contract.js';
import { answerHeaders, crossOriginStreamRefusal, preflightAnswer } from './cross-origin.js';
import { getBodyRefusal } from './get-body.js';
import { closeGracefully } from './graceful-close.js';
import { isUsableHost } from './host-header.js';
import { errorBody, httpErrorResponse } from './http-errors.js';
import { httpRequestObserver } from './http-request-metrics.js';
import { listenUrl } from './listen-url.js';
import { mainListenerMetrics } from './metrics-route.js';
import { trackConnections } from './open-connections.js';
import { HEALTH_PATH, health, READY_PATH, readiness } from './probes.js';
import { createRequestScope, REQUEST_ID_HEADER } from './request-scope.js';
import { applyServerTimeouts } from './server-timeouts.js';
import { type MultipartTransport, multipartTransport } from './subscriptions/multipart.js';
import { isSseRequest, type SseHandler, sseHandler } from './subscriptions/sse.js';
import { serveWebSocket } from './subscriptions/websocket.js';
import {
  asEventStreamRequest,
  mayNeedOperation,
  NOT_ACCEPTABLE_ANSWER,
  transportForOperation,
} from './transport-choice.js';
import { refusedForUnreadBytes, UNREAD_BYTES_REFUSAL } from './unread-bytes.js';

/**
 * Mounts a started gateway on a Fastify instance (bare, or NestJS's through
 * `app.getHttpAdapter().getInstance()`). Everything GraphQL lives in an encapsulated
 * plugin, so its body parser, error handler and hooks never touch the host's other routes.
 */
export async function mountFastify<TContext extends BaseContext>(
  app: FastifyInstance,
  gateway: MountableGateway<TContext>,
): Promise<void> {
  const observe = httpRequestObserver(gateway);
  if (observe) {
    app.addHook('onRequest', (request, reply, done) => {
      observe(request.raw.url, request.raw, reply.raw);
      done();
    });
  }
  // Once draining, every response says `Connection: close`, so keep-alive clients leave
  // before the listener closes. Decided when it is sent: a request that started before
  // SIGTERM is answered after it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (gateway.isDraining?.()) reply.header('connection', 'close');
    return payload;
  });
  app.get(HEALTH_PATH, async (_request, reply) => reply.code(200).send(health().body));
  app.get(READY_PATH, async (_request, reply) => {
    const probe = readiness(gateway);
    return reply.code(probe.status).send(probe.body);
  });
  const metrics = mainListenerMetrics(gateway);
  if (metrics) {
    app.get(metrics.path, async (_request, reply) => {
      const { contentType, body } = await metrics.scrape();
      return reply.code(200).type(contentType).send(body);
    });
  }

  const scopes = new WeakMap<FastifyRequest, RequestScope>();
  await app.register(async (graphql) => {
    // Non-JSON bodies reach Apollo Server as text, so its CSRF check answers (400), as on Express.
    graphql.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
      done(null, body);
    });
    graphql.setErrorHandler(async (error, _request, reply) => {
      const { status, body } = httpErrorResponse(error, gateway.bodyLimitBytes);
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    });
    graphql.addHook('onRequest', async (request, reply) => {
      // Closed already (a client pipelining past the limit): nobody is there to answer.
      if (request.raw.socket.destroyed) return reply.hijack();
      const scope = createRequestScope(
        {
          ...requestFacts(request),
          ip: clientAddressOf(gateway, request.raw),
          protocol: schemeOf(gateway, request.raw),
        },
        (name, value) => {
          // Fastify itself accumulates set-cookie; any other name it would overwrite.
          const existing = name.toLowerCase() === 'set-cookie' ? undefined : reply.getHeader(name);
          reply.header(name, existing === undefined ? value : [existing, value].flat().map(String));
        },
      );
      scopes.set(request, scope);
      reply.header(REQUEST_ID_HEADER, scope.requestId);
      if (!isUsableHost(request.headers.host, request.raw.rawHeaders)) {
        return reply
          .code(400)
          .type('application/json; charset=utf-8')
          .send(errorBody('Missing or malformed Host header.', 'BAD_REQUEST'));
      }
      const getBody = getBodyRefusal(request.method, request.headers);
      if (getBody) return reply.code(getBody.status).type('application/json; charset=utf-8').send(getBody.body);
      const cors = answerHeaders(gateway, request.method, request.headers);
      if (cors) reply.headers(cors);
      if (refusedForUnreadBytes(request.raw)) {
        return reply
          .code(UNREAD_BYTES_REFUSAL.status)
          .headers(UNREAD_BYTES_REFUSAL.headers)
          .send(UNREAD_BYTES_REFUSAL.body);
      }
    });
    // CORS preflights, before any plugin but charged to the client's rate limit; never planned or sent on.
    graphql.options(gateway.path, async (request, reply) => {
      const answer = await preflightAnswer(gateway, scopeOf(scopes, request));
      reply.code(answer.status).headers(answer.headers);
      return answer.body === undefined ? reply.send() : reply.send(answer.body);
    });
    const { compression } = gateway;
    if (compression)
      graphql.addHook('onRequest', async (request, reply) => compressResponse(request.raw, reply.raw, compression));
    // Bodies in gzip, deflate or br are decoded here, Fastify's bodyLimit counting decoded bytes.
    graphql.addHook('preParsing', async (request, _reply, payload) => {
      const coding = requestCoding(request.headers);
      if (coding instanceof BodyCodingError) throw coding;
      return coding ? decodeBody(payload, coding, gateway.bodyLimitBytes) : payload;
    });
    graphql.addHook('onResponse', async (request, reply) => {
      const scope = scopes.get(request);
      if (scope) gateway.onResponse?.(scope, reply.statusCode);
    });
    const apollo = fastifyApolloHandler(gateway.server, {
      context: async (request) => gateway.context(scopeOf(scopes, request)),
    });
    const run = gateway.runRequest?.bind(gateway);
    // Through runRequest when the gateway has one (tracing: Apollo runs inside the request's span).
    const graphqlHandler: typeof apollo = run
      ? function (request, reply) {
          return run(scopeOf(scopes, request), () => apollo.call(this, request, reply));
        }
      : apollo;
    const sse = sseHandler(gateway);
    const multipart = multipartTransport(gateway);
    // Apollo's handler answers a string; the same generic lets the wrapper below type-check.
    graphql.route<{ Reply: string }>({
      method: sse ? ['GET', 'POST', 'PUT', 'DELETE'] : ['GET', 'POST'],
      url: gateway.path,
      bodyLimit: gateway.bodyLimitBytes,
      handler: sse
        ? function (request, reply) {
            // graphql-sse's single connection mode, else the client's preferred transport among those the operation can have.
            const reserved = isSseRequest(request.method, request.headers, request.url);
            const endpoint = gateway.subscriptions as NonNullable<typeof gateway.subscriptions>;
            if (!reserved && !mayNeedOperation(endpoint, request.headers.accept))
              return graphqlHandler.call(this, request, reply);
            const transport = reserved ? 'event-stream' : transportForOperation(endpoint, request.raw, request.body);
            if (transport === undefined) {
              reply
                .code(NOT_ACCEPTABLE_ANSWER.status)
                .headers(NOT_ACCEPTABLE_ANSWER.headers)
                .send(NOT_ACCEPTABLE_ANSWER.body);
              return;
            }
            const params =
              transport === 'multipart-subscription' ? multipart?.claim(request.raw, request.body) : undefined;
            if (!params && transport !== 'event-stream') return graphqlHandler.call(this, request, reply);
            const refused = crossOriginStreamRefusal(gateway, request.raw);
            if (refused) {
              reply.code(refused.status).type('application/json; charset=utf-8').send(refused.body);
              return;
            }
            if (multipart && params) return serveMultipart(multipart, params, request, reply);
            if (!reserved) asEventStreamRequest(request.raw);
            return serveSse(sse, request, reply);
          }
        : graphqlHandler,
    });
  });
  // The WebSocket transport listens for upgrades on the server under the Fastify instance.
  serveWebSocket(app.server, gateway);
}

/** Hands the response to a transport that writes it itself, with the headers set so far (CORS, x-request-id). */
function hijackWithHeaders(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value);
  reply.hijack();
}

/** graphql-sse writes the response itself: Fastify leaves it alone (hijack). */
async function serveSse(sse: SseHandler, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  hijackWithHeaders(reply);
  try {
    await sse(request.raw, reply.raw, request.body ?? '');
  } catch {
    if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
    reply.raw.end();
  }
}

/** Apollo Client's multipart subscriptions: written to the response directly, as SSE is. */
async function serveMultipart(
  multipart: MultipartTransport,
  params: Parameters<MultipartTransport['serve']>[2],
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  hijackWithHeaders(reply);
  await multipart.serve(request.raw, reply.raw, params).catch(() => reply.raw.destroy());
}

/** A bare Fastify server (no NestJS) serving the gateway. */
export async function listenFastify<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  options: ListenOptions,
): Promise<ListeningServer> {
  // Our own request log replaces Fastify's; 503 for requests that arrive while closing.
  const app = Fastify({ logger: false, return503OnClosing: true });
  await mountFastify(app, gateway);
  if (options.timeouts) applyServerTimeouts(app.server, options.timeouts, gateway);
  const connections = trackConnections(app.server);
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: listenUrl(options.host, port),
    port,
    close: () => closeGracefully(connections, () => app.close()),
    openConnections: connections.open,
  };
}

function scopeOf(scopes: WeakMap<FastifyRequest, RequestScope>, request: FastifyRequest) {
  const scope = scopes.get(request);
  if (!scope) throw new Error('request scope missing: the onRequest hook did not run');
  return scope;
}

/** What a request scope reads of a Fastify request (its address comes from clientAddressOf). */
function requestFacts(request: FastifyRequest) {
  return { method: request.method, url: request.url, headers: request.headers };
}
