import { Writable } from 'node:stream';

export interface CapturedLines {
  /** Give it to a logger (pino's destination). */
  readonly stream: Writable;
  /** Every JSON line written, parsed. */
  readonly lines: Record<string, unknown>[];
  /** Every line as written (to check what the JSON holds twice, say). */
  readonly raw: string[];
}

/** A stream that keeps the JSON log lines written to it, for a test to read. */
export function captureLines(): CapturedLines {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) {
        if (!line) continue;
        raw.push(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return { stream, lines, raw };
}
