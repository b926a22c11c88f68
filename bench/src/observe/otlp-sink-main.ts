// Process entry: node bench/dist/observe/otlp-sink-main.js <port>. The OTLP sink as a child of
// the harness, so the CPU it spends receiving exports is its own group, never the gateway's or
// the load generator's.
import { startOtlpSink } from './otlp-sink.js';

const port = Number(process.argv[2] ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`otlp-sink: expected a port, got "${process.argv[2]}"\n`);
  process.exit(2);
}
const sink = await startOtlpSink(port);
process.stdout.write(`otlp-sink listening at ${sink.endpoint}\n`);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    void sink.close().then(() => process.exit(0));
  });
}
