import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What an OTLP sink has received so far. */
export interface SinkCounts {
  /** POST /v1/traces requests answered 200 (one per export batch). */
  readonly exports: number;
  /** Request body bytes as they arrived (compressed when the exporter compresses). */
  readonly bytes: number;
  /** Requests to any other path or method: answered 404, counted so a misconfiguration shows. */
  readonly rejected: number;
}

export interface OtlpSink {
  /** The OTLP base URL, `http://127.0.0.1:<port>` (OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly endpoint: string;
  counts(): SinkCounts;
  close(): Promise<void>;
}

export const TRACES_PATH = '/v1/traces';
export const COUNTS_PATH = '/counts';

/**
 * A stand-in OTLP/HTTP collector: answers every POST /v1/traces with 200 and an empty
 * ExportTraceServiceResponse, counting requests and bytes, so a gateway exports spans for
 * real (serialization, HTTP, its batch processor) while the sink itself decodes nothing.
 * GET /counts answers the counts as JSON, for the harness when the sink runs as a child.
 */
export async function startOtlpSink(port = 0, host = '127.0.0.1'): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  let rejected = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === COUNTS_PATH) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ exports, bytes, rejected } satisfies SinkCounts));
      return;
    }
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== TRACES_PATH) {
        rejected++;
        res.writeHead(404).end();
        return;
      }
      exports++;
      bytes += size;
      // An empty message is a valid "all accepted" response in protobuf; JSON exporters parse `{}`.
      const json = req.headers['content-type']?.includes('json') === true;
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  server.listen({ port, host });
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${address.port}`,
    counts: () => ({ exports, bytes, rejected }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
