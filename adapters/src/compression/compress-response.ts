import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, createBrotliCompress, createGzip, type Gzip } from 'node:zlib';
import type { ResponseCompression } from '@fedgw/gateway/contract';
import { negotiateCoding, type ResponseCoding } from './negotiate.js';

// Quality 4 is brotli's usual pick for dynamic content: the default 11 costs about 100 times as much
// CPU per answer. Level 6 is gzip's default (figures: docs/performance.md#compression).
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
// text/event-stream and multipart/mixed are streams of events: a compressor would hold each one
// back until its buffer fills, so they are never compressed.
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:[\w.+-]*\+)?json\b)/i;

/**
 * Compresses the answer `res` is about to send to `req` with gzip or brotli, as the client's
 * Accept-Encoding asks, through a node:zlib stream between the caller's writes and the socket.
 * The same code on every mount: it wraps the Node response (`writeHead`, `write`, `end`)
 * that Express, Fastify and Nest all write through. Only answers whose size is known when
 * their headers go out (Content-Length: every complete GraphQL answer) and at least
 * `minBytes` are compressed; streamed ones (SSE, multipart incremental delivery) are not.
 */
export function compressResponse(req: IncomingMessage, res: ServerResponse, settings: ResponseCompression): void {
  const { writeHead, write, end } = res as unknown as Record<'writeHead' | 'write' | 'end', Loose>;
  let encoder: Gzip | undefined;

  res.writeHead = function (this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    // writeHead(status, [reason], [headers]): Fastify passes its headers here rather than setting them.
    const reason = typeof rest[0] === 'string' ? rest[0] : undefined;
    const headers = rest[reason === undefined ? 0 : 1];
    const fields = headers !== undefined ? passedOn(this, headers) : undefined;
    let coding: ResponseCoding | undefined;
    if (fields) {
      // Fastify's own header object, holding every header: decided from it and handed to Node as Fastify
      // would, without copying each header onto the response first (an array per header, issue 31).
      coding = chooseCoding(req, fieldReader(fields), statusCode, settings);
      if (!coding)
        return reason === undefined
          ? writeHead.call(this, statusCode, fields)
          : writeHead.call(this, statusCode, reason, fields);
      setAll(this, fields);
    } else {
      if (headers !== undefined) setAll(this, headers as OutgoingHttpHeaders | unknown[]);
      coding = chooseCoding(req, responseReader(this), statusCode, settings);
    }
    if (coding) {
      encoder = startEncoder(this, coding, Number(this.getHeader('content-length')), write, end);
      this.setHeader('content-encoding', coding);
      this.removeHeader('content-length');
    }
    return reason === undefined ? writeHead.call(this, statusCode) : writeHead.call(this, statusCode, reason);
  } as ServerResponse['writeHead'];

  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!encoder) return write.call(this, chunk, ...rest) as boolean;
    const [encoding, callback] = typeof rest[0] === 'function' ? [undefined, rest[0]] : rest;
    return encoder.write(chunk, (encoding ?? 'utf8') as BufferEncoding, callback as (() => void) | undefined);
  } as ServerResponse['write'];

  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (!encoder) return end.apply(this, args) as ServerResponse;
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    const [chunk, encoding] = args;
    if (callback) this.once('finish', callback);
    if (chunk === null || chunk === undefined || typeof chunk === 'function') encoder.end();
    else encoder.end(chunk, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding);
    return this;
  } as ServerResponse['end'];
}

/** The response's own methods, called with whatever arguments the framework passed. */
type Loose = (this: ServerResponse, ...args: unknown[]) => unknown;

/** Where `chooseCoding` reads the answer's headers and adds Vary: the response, or a header object not yet on it. */
interface HeaderAccess {
  get(name: string): OutgoingHttpHeaders[string];
  set(name: string, value: string): void;
}

function responseReader(res: ServerResponse): HeaderAccess {
  return { get: (name) => res.getHeader(name), set: (name, value) => res.setHeader(name, value) };
}

function fieldReader(fields: OutgoingHttpHeaders): HeaderAccess {
  return {
    get: (name) => fields[name],
    set: (name, value) => {
      fields[name] = value;
    },
  };
}

/**
 * `headers` when Node would send them as they are: a plain object whose names are all lower
 * case (Fastify's), and nothing set on the response itself (which Node would merge them into).
 */
const UPPER_CASE = /[A-Z]/;

function passedOn(res: ServerResponse, headers: unknown): OutgoingHttpHeaders | undefined {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return undefined;
  if (Object.getPrototypeOf(headers) !== Object.prototype || res.getHeaderNames().length > 0) return undefined;
  for (const name in headers) if (!Object.hasOwn(headers, name) || UPPER_CASE.test(name)) return undefined;
  return headers as OutgoingHttpHeaders;
}

/** The coding for this answer, or undefined; adds `Vary: Accept-Encoding` to every compressible one. */
function chooseCoding(
  req: IncomingMessage,
  headers: HeaderAccess,
  statusCode: number,
  settings: ResponseCompression,
): ResponseCoding | undefined {
  if (req.method === 'HEAD' || statusCode < 200 || statusCode === 204 || statusCode === 304) return undefined;
  if (headers.get('content-encoding') !== undefined) return undefined;
  if (!COMPRESSIBLE.test(String(headers.get('content-type') ?? ''))) return undefined;
  // Whether it is compressed depends on Accept-Encoding, so a cache must key on it, whatever the size.
  addVary(headers, 'Accept-Encoding');
  if (/\bno-transform\b/i.test(String(headers.get('cache-control') ?? ''))) return undefined;
  const length = Number(headers.get('content-length') ?? Number.NaN);
  if (!Number.isFinite(length) || length < settings.minBytes) return undefined;
  return negotiateCoding(req.headers['accept-encoding']);
}

/** A compressor whose output goes to the socket through the response's own write/end, with backpressure. */
function startEncoder(res: ServerResponse, coding: ResponseCoding, length: number, write: Loose, end: Loose): Gzip {
  const encoder =
    coding === 'br'
      ? createBrotliCompress({
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: length,
          },
        })
      : createGzip({ level: GZIP_LEVEL });
  encoder.on('data', (chunk: Buffer) => {
    if (!write.call(res, chunk)) encoder.pause();
  });
  res.on('drain', () => encoder.resume());
  encoder.on('end', () => end.call(res));
  // zlib fails only on a bug or out of memory: the answer cannot be finished, so the socket goes.
  encoder.on('error', (error) => res.destroy(error));
  res.on('close', () => encoder.destroy());
  return encoder as Gzip;
}

function setAll(res: ServerResponse, headers: OutgoingHttpHeaders | unknown[]): void {
  if (Array.isArray(headers)) {
    for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1] as string);
    return;
  }
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
}

function addVary(headers: HeaderAccess, field: string): void {
  const existing = headers.get('vary');
  if (existing === undefined) {
    headers.set('vary', field);
    return;
  }
  const current = (Array.isArray(existing) ? existing.join(',') : String(existing ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (current.some((name) => name === '*' || name.toLowerCase() === field.toLowerCase())) return;
  headers.set('vary', [...current, field].join(', '));
}
