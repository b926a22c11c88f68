import type { BaseContext } from '@apollo/server';
import { fastifyApolloHandler } from '@as-integrations/fastify';
import type { MountableGateway, RequestScope } from '@fedgw/gateway/contract';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteHandlerMethod,
} from 'fastify';
import { clientAddressOf, schemeOf } from './client-address.js';
import { compressResponse } from './compression/compress-response.js';
import { BodyCodingError, decodeBody, requestCoding } from './compression/decode-request.js';
import { answerHeaders, crossOriginStreamRefusal, preflightAnswer } from './cross-origin.js';
import { parseUploads } from './fastify-uploads.js';
import { getBodyRefusal } from './get-body.js';
import { isUsableHost } from './host-header.js';
import { errorBody, httpErrorResponse } from './http-errors.js';
import { createRequestScope, REQUEST_ID_HEADER } from './request-scope.js';
import { type MultipartTransport, multipartTransport } from './subscriptions/multipart.js';
import { isSseRequest, type SseHandler, sseHandler } from './subscriptions/sse.js';
import {
  asEventStreamRequest,
  mayNeedOperation,
  NOT_ACCEPTABLE_ANSWER,
  transportForOperation,
} from './transport-choice.js';
import { refusedForUnreadBytes, UNREAD_BYTES_REFUSAL } from './unread-bytes.js';
import { isMultipartFormData, UploadRefusedError } from './uploads.js';

/**
 * The encapsulated plugin everything GraphQL lives in: its body parsing and error answers, each
 * request's scope and early refusals, CORS preflights, body coding, and the GraphQL route.
 */
export async function registerGraphql<TContext extends BaseContext>(
  graphql: FastifyInstance,
  gateway: MountableGateway<TContext>,
  scopes: WeakMap<FastifyRequest, RequestScope>,
): Promise<void> {
  parseBodiesAndAnswerErrors(graphql, gateway);
  graphql.addHook('onRequest', async (request, reply) => scopeAndScreen(gateway, scopes, request, reply));
  // CORS preflights, before any plugin but charged to the client's rate limit; never planned or sent on.
  graphql.options(gateway.path, async (request, reply) => {
    const answer = await preflightAnswer(gateway, scopeOf(scopes, request));
    reply.code(answer.status).headers(answer.headers);
    return answer.body === undefined ? reply.send() : reply.send(answer.body);
  });
  codeBodies(graphql, gateway);
  graphql.addHook('onResponse', async (request, reply) => {
    const scope = scopes.get(request);
    if (scope) gateway.onResponse?.(scope, reply.statusCode);
  });
  const graphqlHandler = apolloHandler(gateway, scopes);
  const sse = sseHandler(gateway);
  const multipart = multipartTransport(gateway);
  // Apollo's handler answers a string; the same generic lets the wrapper below type-check.
  graphql.route<{ Reply: string }>({
    method: sse ? ['GET', 'POST', 'PUT', 'DELETE'] : ['GET', 'POST'],
    url: gateway.path,
    bodyLimit: gateway.bodyLimitBytes,
    handler: sse ? transportChoosingHandler(gateway, graphqlHandler, sse, multipart) : graphqlHandler,
  });
}

/** Non-JSON bodies and errors, answered as the gateway does on every adapter. */
function parseBodiesAndAnswerErrors<TContext extends BaseContext>(
  graphql: FastifyInstance,
  gateway: MountableGateway<TContext>,
): void {
  // Non-JSON bodies reach Apollo Server as text, so its CSRF check answers (400), as on Express.
  graphql.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    done(null, body);
  });
  parseUploads(graphql, gateway);
  graphql.setErrorHandler(async (error, _request, reply) => {
    if (error instanceof UploadRefusedError) {
      const { status, headers, body } = error.refusal;
      // Fastify closes after a parser's error; the upload's rest is dropped by lingerAfterResponse instead.
      reply.removeHeader('connection');
      return reply.code(status).headers(headers).send(body);
    }
    const { status, body } = httpErrorResponse(error, gateway.bodyLimitBytes);
    return reply.code(status).type('application/json; charset=utf-8').send(body);
  });
}

/** Each request's scope (and its x-request-id), then the refusals made before any body is read. */
async function scopeAndScreen<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  scopes: WeakMap<FastifyRequest, RequestScope>,
  request: FastifyRequest,
  reply: FastifyReply,
) {
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
}

/** Responses compressed as the client accepts, request bodies decoded. */
function codeBodies<TContext extends BaseContext>(graphql: FastifyInstance, gateway: MountableGateway<TContext>): void {
  const { compression } = gateway;
  if (compression)
    graphql.addHook('onRequest', async (request, reply) => compressResponse(request.raw, reply.raw, compression));
  // Bodies in gzip, deflate or br are decoded here, Fastify's bodyLimit counting decoded bytes.
  graphql.addHook('preParsing', async (request, _reply, payload) => {
    // An upload is never decoded: a coded one is refused unread (parseUploads).
    if (isMultipartFormData(request.headers)) return payload;
    const coding = requestCoding(request.headers);
    if (coding instanceof BodyCodingError) throw coding;
    return coding ? decodeBody(payload, coding, gateway.bodyLimitBytes) : payload;
  });
}

/** The GraphQL route's handler (Apollo's answers a string). */
type GraphqlHandler = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  { Reply: string }
>;

/** Apollo Server's Fastify handler, run through the gateway's runRequest when it has one. */
function apolloHandler<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  scopes: WeakMap<FastifyRequest, RequestScope>,
) {
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
  return graphqlHandler;
}

/** With subscriptions over HTTP: graphql-sse's reserved requests and the client's preferred transport, else Apollo's handler. */
function transportChoosingHandler<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  graphqlHandler: GraphqlHandler,
  sse: SseHandler,
  multipart: MultipartTransport | undefined,
): GraphqlHandler {
  return function (request, reply) {
    // graphql-sse's single connection mode, else the client's preferred transport among those the operation can have.
    const reserved = isSseRequest(request.method, request.headers, request.url);
    const endpoint = gateway.subscriptions as NonNullable<typeof gateway.subscriptions>;
    if (!reserved && !mayNeedOperation(endpoint, request.headers.accept))
      return graphqlHandler.call(this, request, reply);
    const transport = reserved ? 'event-stream' : transportForOperation(endpoint, request.raw, request.body);
    if (transport === undefined) {
      reply.code(NOT_ACCEPTABLE_ANSWER.status).headers(NOT_ACCEPTABLE_ANSWER.headers).send(NOT_ACCEPTABLE_ANSWER.body);
      return;
    }
    const params = transport === 'multipart-subscription' ? multipart?.claim(request.raw, request.body) : undefined;
    if (!params && transport !== 'event-stream') return graphqlHandler.call(this, request, reply);
    const refused = crossOriginStreamRefusal(gateway, request.raw);
    if (refused) {
      reply.code(refused.status).type('application/json; charset=utf-8').send(refused.body);
      return;
    }
    if (multipart && params) return serveMultipart(multipart, params, request, reply);
    if (!reserved) asEventStreamRequest(request.raw);
    return serveSse(sse, request, reply);
  };
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

function scopeOf(scopes: WeakMap<FastifyRequest, RequestScope>, request: FastifyRequest) {
  const scope = scopes.get(request);
  if (!scope) throw new Error('request scope missing: the onRequest hook did not run');
  return scope;
}

/** What a request scope reads of a Fastify request (its address comes from clientAddressOf). */
function requestFacts(request: FastifyRequest) {
  return { method: request.method, url: request.url, headers: request.headers };
}
