// The bench's OTLP sink, as the harness runs it (a child process), fed by the real
// OpenTelemetry OTLP/HTTP protobuf exporter the gateway uses (resolved from the gateway package).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSink, startSinkProcess } from '../src/observe/sink-process.js';

interface ExportResult {
  code: number;
}
interface Exporter {
  export(spans: unknown[], done: (result: ExportResult) => void): void;
  shutdown(): Promise<void>;
}
interface Provider {
  getTracer(name: string): { startSpan(name: string): { end(): void } };
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

const gatewayRequire = createRequire(join(ROOT, 'gateway', 'package.json'));
const { OTLPTraceExporter } = gatewayRequire('@opentelemetry/exporter-trace-otlp-proto') as {
  OTLPTraceExporter: new (options: { url: string }) => Exporter;
};
const { BasicTracerProvider, SimpleSpanProcessor } = gatewayRequire('@opentelemetry/sdk-trace-base') as {
  BasicTracerProvider: new (options: { spanProcessors: unknown[] }) => Provider;
  SimpleSpanProcessor: new (exporter: Exporter) => unknown;
};

let sink: RunningSink;
beforeAll(async () => {
  sink = await startSinkProcess(undefined);
}, 30_000);
afterAll(() => sink?.process.stop());

describe('the OTLP sink (child process)', () => {
  it('answers every export with success and counts exports and bytes', async () => {
    const codes: number[] = [];
    const exporter = new OTLPTraceExporter({ url: `${sink.endpoint}/v1/traces` });
    // Records what the exporter concluded about each export: 0 is ExportResultCode.SUCCESS.
    const recording: Exporter = {
      export: (spans, done) =>
        exporter.export(spans, (result) => {
          codes.push(result.code);
          done(result);
        }),
      shutdown: () => exporter.shutdown(),
    };
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(recording)] });
    const before = await sink.counts();
    const tracer = provider.getTracer('bench-test');
    for (let i = 0; i < 3; i++) tracer.startSpan(`span-${i}`).end();
    await provider.forceFlush();
    await provider.shutdown();

    const after = await sink.counts();
    expect(codes).toEqual([0, 0, 0]);
    expect(after.exports - before.exports).toBe(3);
    expect(after.bytes - before.bytes).toBeGreaterThan(3 * 50);
    expect(after.rejected).toBe(before.rejected);
  });

  it('counts a request to another path as rejected, not as an export', async () => {
    const before = await sink.counts();
    const response = await request(`${sink.endpoint}/v1/metrics`, { method: 'POST', body: 'x' });
    await response.body.dump();
    expect(response.statusCode).toBe(404);
    const after = await sink.counts();
    expect(after).toEqual({ ...before, rejected: before.rejected + 1 });
  });
});
