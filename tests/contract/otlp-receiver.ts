import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span, the same whichever OTLP encoding carried it. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** '' for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly resource: Record<string, unknown>;
  /** OTLP's status: code 0 unset, 1 ok, 2 error. */
  readonly status: { readonly code: number; readonly message: string };
  /** The span's links (read from OTLP JSON only). */
  readonly links?: readonly { readonly traceId: string; readonly spanId: string }[];
}

export interface OtlpReceiver {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT (spans arrive at `/v1/traces`). */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** Headers of every export request. */
  readonly exports: { path: string; contentType: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP trace receiver on loopback, like a collector's: POST /v1/traces in OTLP
 * JSON (`http/json`) or protobuf (`http/protobuf`), answered 200 with an empty export response.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: OtlpReceiver['exports'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const contentType = request.headers['content-type'] ?? '';
      exports.push({ path: request.url ?? '', contentType, headers: request.headers });
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      const json = contentType.startsWith('application/json');
      spans.push(...(json ? fromJson(JSON.parse(body.toString('utf8'))) : fromProtobuf(body)));
      response.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      response.end(json ? '{}' : Buffer.alloc(0));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    exports,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// --- OTLP JSON (ids are hex strings, as the spec's JSON mapping says) ---

interface JsonKeyValue {
  key: string;
  value: Record<string, unknown>;
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const { key, value } of list ?? []) {
    const [kind, raw] = Object.entries(value)[0] ?? [];
    result[key] = kind === 'intValue' ? Number(raw) : raw;
  }
  return result;
}

function fromJson(request: {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: JsonKeyValue[];
        status?: { code?: number; message?: string };
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
        resource,
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
      })),
    );
  });
}

// --- OTLP protobuf: just enough of the wire format for ExportTraceServiceRequest ---

type Field = { number: number; varint?: bigint; bytes?: Buffer; fixed64?: Buffer };

function* fields(buffer: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[at++] as number;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return result;
      shift += 7n;
    }
  };
  while (at < buffer.length) {
    const key = Number(varint());
    const number = key >> 3;
    const wireType = key & 7;
    if (wireType === 0) yield { number, varint: varint() };
    else if (wireType === 1) {
      yield { number, fixed64: buffer.subarray(at, at + 8) };
      at += 8;
    } else if (wireType === 2) {
      const length = Number(varint());
      yield { number, bytes: buffer.subarray(at, at + length) };
      at += length;
    } else if (wireType === 5) at += 4;
    else throw new Error(`unsupported protobuf wire type ${wireType}`);
  }
}

/** KeyValue { string key = 1; AnyValue value = 2 } with AnyValue's scalar cases. */
function protobufKeyValue(buffer: Buffer): [string, unknown] {
  let key = '';
  let value: unknown;
  for (const field of fields(buffer)) {
    if (field.number === 1) key = field.bytes?.toString('utf8') ?? '';
    if (field.number === 2 && field.bytes) {
      for (const any of fields(field.bytes)) {
        if (any.number === 1) value = any.bytes?.toString('utf8');
        if (any.number === 2) value = any.varint === 1n;
        if (any.number === 3) value = Number(BigInt.asIntN(64, any.varint ?? 0n));
        if (any.number === 4) value = any.fixed64?.readDoubleLE(0);
      }
    }
  }
  return [key, value];
}

/** An OTLP `ExportTraceServiceRequest` in protobuf, as OTLP/HTTP and OTLP/gRPC both carry it. */
export function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.number !== 1 || !resourceSpans.bytes) continue;
    const resource: Record<string, unknown> = {};
    const raw: Buffer[] = [];
    for (const field of fields(resourceSpans.bytes)) {
      if (field.number === 1 && field.bytes) {
        for (const attribute of fields(field.bytes)) {
          if (attribute.number === 1 && attribute.bytes) {
            const [key, value] = protobufKeyValue(attribute.bytes);
            resource[key] = value;
          }
        }
      }
      if (field.number === 2 && field.bytes) {
        for (const scopeField of fields(field.bytes)) {
          if (scopeField.number === 2 && scopeField.bytes) raw.push(scopeField.bytes);
        }
      }
    }
    for (const spanBytes of raw) {
      const span = {
        traceId: '',
        spanId: '',
        parentSpanId: '',
        name: '',
        kind: 0,
        attributes: {},
        status: { code: 0, message: '' },
        resource,
      };
      const attributes: Record<string, unknown> = {};
      for (const field of fields(spanBytes)) {
        if (field.number === 1) span.traceId = field.bytes?.toString('hex') ?? '';
        if (field.number === 2) span.spanId = field.bytes?.toString('hex') ?? '';
        if (field.number === 4) span.parentSpanId = field.bytes?.toString('hex') ?? '';
        if (field.number === 5) span.name = field.bytes?.toString('utf8') ?? '';
        if (field.number === 6) span.kind = Number(field.varint ?? 0n);
        if (field.number === 9 && field.bytes) {
          const [key, value] = protobufKeyValue(field.bytes);
          attributes[key] = value;
        }
        // Status { string message = 2; StatusCode code = 3 }
        if (field.number === 15 && field.bytes) {
          for (const part of fields(field.bytes)) {
            if (part.number === 2) span.status.message = part.bytes?.toString('utf8') ?? '';
            if (part.number === 3) span.status.code = Number(part.varint ?? 0n);
          }
        }
      }
      spans.push({ ...span, attributes });
    }
  }
  return spans;
}
