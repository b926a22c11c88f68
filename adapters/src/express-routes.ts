// The steps mountExpress takes, each a few routes or middleware on the gateway's router:
// request observation and draining, the probes, the request scope, body parsing, the checks
// every request of the gateway's path passes, the CORS preflight, and the streaming transports.
import type { BaseContext } from '@apollo/server';
import { expressMiddleware } from '@as-integrations/express5';
import type { MountableGateway, RequestScope } from '@fedgw/gateway/contract';
import express, {
  type ErrorRequestHandler,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { clientAddressOf, schemeOf } from './client-address.js';
import { compressResponse } from './compression/compress-response.js';
import { BodyCodingError, requestCoding } from './compression/decode-request.js';
import { answerHeaders, crossOriginStreamRefusal, preflightAnswer } from './cross-origin.js';
import { getBodyRefusal } from './get-body.js';
import { isUsableHost } from './host-header.js';
import { errorBody, httpErrorResponse } from './http-errors.js';
import { httpRequestObserver } from './http-request-metrics.js';
import { mainListenerMetrics } from './metrics-route.js';
import { HEALTH_PATH, health, READY_PATH, readiness } from './probes.js';
import { createRequestScope, REQUEST_ID_HEADER } from './request-scope.js';
import { multipartTransport } from './subscriptions/multipart.js';
import { isSseRequest, type SseHandler } from './subscriptions/sse.js';
import {
  asEventStreamRequest,
  mayNeedOperation,
  NOT_ACCEPTABLE_ANSWER,
  prefersEventStream,
  transportForOperation,
} from './transport-choice.js';
import { refusedForUnreadBytes, UNREAD_BYTES_REFUSAL } from './unread-bytes.js';
import { isMultipartFormData } from './uploads.js';

/** Each request's scope, set by the tracking middleware. */
export type Scopes = WeakMap<Request, RequestScope>;
type ReadBody = (req: Request, res: Response, done: (error?: unknown) => void) => void;

/** The HTTP metrics' observer, and `Connection: close` on every response once draining. */
export function addResponseObservers<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
): void {
  const observe = httpRequestObserver(gateway);
  if (observe) {
    router.use((req, res, next) => {
      observe(req.originalUrl, req, res);
      next();
    });
  }
  // Once draining, every response of the gateway's says `Connection: close` (Node then closes
  // the socket after it), so keep-alive clients leave before the listener closes. Decided
  // when the headers go out: a request that started before SIGTERM is answered after it.
  router.use((_req, res, next) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      if (gateway.isDraining?.() && !this.headersSent) this.setHeader('connection', 'close');
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  });
}

/** `/health`, `/ready` and, when the gateway serves them on its listener, the metrics. */
export function addProbeRoutes<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
): void {
  router.get(HEALTH_PATH, (_req, res) => {
    res.status(200).json(health().body);
  });
  router.get(READY_PATH, (_req, res) => {
    const probe = readiness(gateway);
    res.status(probe.status).json(probe.body);
  });
  const metrics = mainListenerMetrics(gateway);
  if (metrics) {
    router.get(metrics.path, async (_req, res) => {
      const { contentType, body } = await metrics.scrape();
      res.status(200).type(contentType).send(body);
    });
  }
}

/** Gives each request its scope (request id, client address), and tells the gateway its status when it finishes. */
export function requestTracker<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  scopes: Scopes,
): RequestHandler {
  return (req, res, next) => {
    // Closed already (a client pipelining past the limit): nobody is there to answer.
    if (req.socket.destroyed) return;
    if (refusedForUnreadBytes(req)) {
      res.status(UNREAD_BYTES_REFUSAL.status).set(UNREAD_BYTES_REFUSAL.headers).send(UNREAD_BYTES_REFUSAL.body);
      return;
    }
    const scope = createRequestScope(
      {
        method: req.method,
        url: req.originalUrl,
        headers: req.headers,
        ip: clientAddressOf(gateway, req),
        protocol: schemeOf(gateway, req),
      },
      (name, value) => res.append(name, value),
    );
    scopes.set(req, scope);
    res.setHeader(REQUEST_ID_HEADER, scope.requestId);
    res.on('finish', () => gateway.onResponse?.(scope, res.statusCode));
    next();
  };
}

/** The body parsers of the gateway's path, the SSE transport's body reader, and their errors' answer. */
export function bodyParsers<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
): { parseBody: RequestHandler[]; readSseBody: ReadBody; answerParseErrors: ErrorRequestHandler } {
  const limit = gateway.bodyLimitBytes;
  const readText = express.text({ limit, type: () => true });
  const parseBody = [
    // The body parser inflates gzip, deflate and br itself, its limit counting inflated bytes;
    // this refuses the codings the Fastify mounts cannot read (zstd, stacked), so all answer alike.
    ((req, res, next) => {
      const coding = requestCoding(req.headers);
      if (gateway.compression) compressResponse(req, res, gateway.compression);
      next(coding instanceof BodyCodingError ? coding : undefined);
    }) satisfies RequestHandler,
    // Refused as Fastify's parser refuses them (400): no `__proto__` or `constructor.prototype` key reaches a plugin.
    express.json({ limit, reviver: refusePrototypeKeys }),
    // Non-JSON bodies reach Apollo Server as text, so its CSRF check answers (400), as on Fastify.
    readText,
    ((req, _res, next) => {
      // The Apollo integration insists `body` exists, even for GET.
      if (!Object.hasOwn(req, 'body')) req.body = undefined;
      next();
    }) satisfies RequestHandler,
  ];
  const readSseBody = (req: Request, res: Response, done: (error?: unknown) => void) => {
    const coding = requestCoding(req.headers);
    if (coding instanceof BodyCodingError) return done(coding);
    readText(req, res, done);
  };
  const answerParseErrors: ErrorRequestHandler = (error, _req, res, _next) => {
    const { status, body } = httpErrorResponse(error, limit);
    res.status(status).type('application/json; charset=utf-8').send(body);
  };
  return { parseBody, readSseBody, answerParseErrors };
}

/** Apollo Server's Express middleware, with the request's context, through runRequest when the gateway has one. */
export function apolloHandler<TContext extends BaseContext>(
  gateway: MountableGateway<TContext>,
  scopes: Scopes,
): RequestHandler {
  const handler = expressMiddleware(gateway.server, {
    context: async ({ req }) => {
      const scope = scopes.get(req);
      if (!scope) throw new Error('request scope missing: the tracking middleware did not run');
      return gateway.context(scope);
    },
  });
  const run = gateway.runRequest?.bind(gateway);
  // Through runRequest when the gateway has one (tracing: Apollo runs inside the request's span).
  return run
    ? (req, res, next) => {
        const scope = scopes.get(req);
        return scope ? run(scope, () => handler(req, res, next)) : handler(req, res, next);
      }
    : handler;
}

/** What every request of the gateway's path passes first: a usable Host, a GET without a body, the CORS headers. */
export function addRequestChecks<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
): void {
  router.all(gateway.path, (req, res, next) => {
    if (isUsableHost(req.headers.host, req.rawHeaders)) return next();
    res
      .status(400)
      .type('application/json; charset=utf-8')
      .send(errorBody('Missing or malformed Host header.', 'BAD_REQUEST'));
  });
  router.all(gateway.path, (req, res, next) => {
    const refused = getBodyRefusal(req.method, req.headers);
    if (!refused) return next();
    res.status(refused.status).type('application/json; charset=utf-8').send(refused.body);
  });
  if (gateway.origins?.enabled) {
    router.all(gateway.path, (req, res, next) => {
      const cors = answerHeaders(gateway, req.method, req.headers);
      if (cors) res.set(cors);
      next();
    });
  }
}

/** CORS preflights, before any plugin but charged to the client's rate limit; never planned or sent on. */
export function addPreflightRoute<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
  trackRequest: RequestHandler,
  scopes: Scopes,
): void {
  router.options(gateway.path, trackRequest, (req, res, next) => {
    const scope = scopes.get(req);
    if (!scope) return next(new Error('request scope missing: the tracking middleware did not run'));
    preflightAnswer(gateway, scope).then((answer) => {
      res.status(answer.status).set(answer.headers);
      res.end(answer.body);
    }, next);
  });
}

/**
 * graphql-sse's requests (its PUT/DELETE and tokens, or an Accept preferring text/event-stream),
 * when subscriptions are on. `sse`: the gateway's one graphql-sse handler (the multipart route hands it subscriptions too).
 */
export function addSseRoute<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
  sse: SseHandler | undefined,
  readSseBody: ReadBody,
  answerParseErrors: ErrorRequestHandler,
): void {
  if (!sse) return;
  // graphql-sse's requests (Accept: text/event-stream, its PUT/DELETE) before the body parsers: it reads its own body.
  router.all(gateway.path, (req, res, next) => {
    if (isMultipartFormData(req.headers)) return next(); // an upload: read by readUploads
    if (!isSseRequest(req.method, req.headers, req.originalUrl)) {
      if (!prefersEventStream(gateway.subscriptions, req.headers.accept)) return next();
      asEventStreamRequest(req);
    }
    const refused = crossOriginStreamRefusal(gateway, req);
    if (refused) return res.status(refused.status).type('application/json; charset=utf-8').send(refused.body);
    // Its body through the same parser as every request: BODY_LIMIT (decoded bytes), Content-Encoding.
    readSseBody(req, res, (error?: unknown) => {
      if (error) return answerParseErrors(error, req, res, next);
      sse(req, res, typeof req.body === 'string' ? req.body : '').catch(() => {
        if (!res.headersSent) return answerParseErrors(new Error('stream failed'), req, res, next);
        res.destroy();
      });
    });
  });
}

/**
 * Apollo Client's and urql's multipart subscriptions, graphql-sse (`sse`) for a subscription whose Accept
 * lists it after JSON, 406 for an Accept that refuses all the operation can have; the rest to Apollo.
 */
export function addMultipartRoute<TContext extends BaseContext>(
  router: Router,
  gateway: MountableGateway<TContext>,
  sse: SseHandler | undefined,
  answerParseErrors: ErrorRequestHandler,
): void {
  const multipart = multipartTransport(gateway);
  if (!multipart) return;
  const readJson = express.json({ limit: gateway.bodyLimitBytes });
  const endpoint = gateway.subscriptions as NonNullable<typeof gateway.subscriptions>;
  router.all(gateway.path, (req, res, next) => {
    if (!mayNeedOperation(endpoint, req.headers.accept) || isMultipartFormData(req.headers)) return next();
    readJson(req, res, (error?: unknown) => {
      if (error) return answerParseErrors(error, req, res, next);
      // The client's preferred transport among those this operation can have (a subscription after a JSON type in its Accept: graphql-sse).
      const transport = transportForOperation(endpoint, req, req.body);
      if (transport === undefined)
        return res
          .status(NOT_ACCEPTABLE_ANSWER.status)
          .set(NOT_ACCEPTABLE_ANSWER.headers)
          .send(NOT_ACCEPTABLE_ANSWER.body);
      if (transport === 'event-stream' && sse) {
        const refused = crossOriginStreamRefusal(gateway, req);
        if (refused) return res.status(refused.status).type('application/json; charset=utf-8').send(refused.body);
        asEventStreamRequest(req);
        return void sse(req, res, req.body).catch(() => res.destroy());
      }
      if (transport !== 'multipart-subscription') return next();
      const params = multipart.claim(req, req.body);
      if (!params) return next();
      const refused = crossOriginStreamRefusal(gateway, req);
      if (refused) return res.status(refused.status).type('application/json; charset=utf-8').send(refused.body);
      multipart.serve(req, res, params).catch(() => res.destroy());
    });
  });
}

/** A JSON.parse reviver that throws (body-parser answers 400) on the keys that reach an object's prototype. */
function refusePrototypeKeys(key: string, value: unknown): unknown {
  if (
    key === '__proto__' ||
    (key === 'constructor' && typeof value === 'object' && value !== null && 'prototype' in value)
  )
    throw new SyntaxError('Object contains a forbidden prototype property');
  return value;
}
