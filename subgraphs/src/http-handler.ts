import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { type ApolloServer, HeaderMap, type HTTPGraphQLResponse } from '@apollo/server';
import type { SubgraphContext } from './context.js';
import type { HeaderCounter } from './header-counter.js';
import { readMultipart } from './multipart-request.js';

/** Bodies larger than this are refused with 413; real operations are a few KB. */
const MAX_BODY_BYTES = 1024 * 1024;

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The whole HTTP surface of a subgraph: POST/GET /graphql through Apollo's
 * executeHTTPGraphQLRequest, GET /health, GET /header-counts when a HeaderCounter is given,
 * 404 otherwise. Nothing is logged per request.
 */
export function createRequestHandler(
  server: ApolloServer<SubgraphContext>,
  delayMs: number,
  headerCounter?: HeaderCounter,
): Handler {
  return (req, res) => {
    handle(server, delayMs, headerCounter, req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy(error as Error);
      else sendJson(res, 500, graphqlError('Internal server error', 'INTERNAL_SERVER_ERROR'));
    });
  };
}

async function handle(
  server: ApolloServer<SubgraphContext>,
  delayMs: number,
  headerCounter: HeaderCounter | undefined,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const path = queryAt === -1 ? url : url.slice(0, queryAt);

  if (path === '/health' && (req.method === 'GET' || req.method === 'HEAD')) {
    return sendJson(res, 200, { status: 'ok' });
  }
  if (headerCounter && path === '/header-counts' && req.method === 'GET') {
    return sendJson(res, 200, headerCounter.toJSON());
  }
  if (path !== '/graphql') return sendJson(res, 404, { error: 'not found' });
  headerCounter?.count(req.headers);

  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }

  let body: unknown;
  if (req.method === 'POST' && isMultipart(headers.get('content-type'))) {
    // An upload: `operations` and `map` now, the files as the resolvers read them.
    body = await readMultipart(req);
    if (body === undefined) return sendJson(res, 400, graphqlError('Malformed multipart request', 'BAD_REQUEST'));
  } else if (req.method === 'POST') {
    const raw = await readBody(req);
    if (raw === null) {
      // The rest of the body is never read: close the connection, or a client reusing it
      // would have its next request parsed after the unread bytes (and hang).
      res.setHeader('connection', 'close');
      return sendJson(res, 413, graphqlError('Request body too large', 'PAYLOAD_TOO_LARGE'));
    }
    // Apollo rejects non-JSON content types itself; we only need to parse JSON ones.
    if (raw.length > 0 && isJson(headers.get('content-type'))) {
      try {
        body = JSON.parse(raw);
      } catch {
        return sendJson(res, 400, graphqlError('Malformed JSON body', 'BAD_REQUEST'));
      }
    } else {
      body = raw;
    }
  }

  const response = await server.executeHTTPGraphQLRequest({
    httpGraphQLRequest: {
      method: req.method?.toUpperCase() ?? 'GET',
      headers,
      search: queryAt === -1 ? '' : url.slice(queryAt),
      body,
    },
    // Resolvers read the identity (x-user-id) from these headers.
    context: async () => ({ headers, invalidate: [] }),
  });
  // The `delayMs` knob: a slow subgraph, for gateway timeout tests and bench scenarios.
  if (delayMs > 0) await sleep(delayMs);
  // A file no resolver read: the rest of the request is drained (closing instead could cut the
  // answer off while the gateway still writes the file).
  if (!req.complete) req.unpipe().resume();
  await writeResponse(res, response);
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> {
  res.statusCode = response.status ?? 200;
  for (const [key, value] of response.headers) res.setHeader(key, value);
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
    return;
  }
  // Incremental delivery (@defer): stream the parts as Apollo produces them.
  for await (const chunk of response.body.asyncIterator) res.write(chunk);
  res.end();
}

/** The body as a string, or null once it exceeds MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\b/i.test(contentType);
}

function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /\bjson\b/i.test(contentType);
}

function graphqlError(message: string, code: string) {
  return { errors: [{ message, extensions: { code } }] };
}

function sendJson(res: ServerResponse, status: number, payload: unknown): void {
  const body = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}
