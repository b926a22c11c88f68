import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { fromProtobuf, type ReceivedSpan } from './otlp-receiver.js';

export interface OtlpGrpcReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_EXPORTER_OTLP_PROTOCOL=grpc (plaintext h2c). */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  /** The metadata (gRPC headers) of every export call. */
  readonly exports: Record<string, unknown>[];
  close(): Promise<void>;
}

/** The one method of OTLP's trace service, with the messages left as bytes (decoded by `fromProtobuf`). */
const TRACE_SERVICE: ServiceDefinition = {
  Export: {
    path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
    requestStream: false,
    responseStream: false,
    requestSerialize: (value: Buffer) => value,
    requestDeserialize: (bytes: Buffer) => bytes,
    // An empty ExportTraceServiceResponse: full success.
    responseSerialize: () => Buffer.alloc(0),
    responseDeserialize: (bytes: Buffer) => bytes,
  },
};

/** A real OTLP/gRPC trace receiver on loopback, as a collector's port 4317 serves it (grpc-js's server). */
export async function startOtlpGrpcReceiver(): Promise<OtlpGrpcReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: Record<string, unknown>[] = [];
  const server = new Server();
  const implementation: UntypedServiceImplementation = {
    Export(
      call: { request: Buffer; metadata: { getMap(): Record<string, unknown> } },
      callback: (error: null, response: Buffer) => void,
    ) {
      exports.push(call.metadata.getMap());
      spans.push(...fromProtobuf(call.request));
      callback(null, Buffer.alloc(0));
    },
  };
  server.addService(TRACE_SERVICE, implementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    exports,
    close: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}
