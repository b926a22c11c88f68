import type { ServerResponse } from 'node:http';

/**
 * Answers 200 with a chunked JSON body of `totalBytes` filler between `prefix` and
 * `suffix`, written only as fast as the client reads it (a broken or hostile subgraph).
 * Returns how many filler bytes have been written so far.
 */
export function writeEndlessBody(
  res: ServerResponse,
  prefix: string,
  suffix: string,
  totalBytes: number,
): () => number {
  res.writeHead(200, { 'content-type': 'application/json' }); // no content-length: chunked
  res.write(prefix);
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  const pump = () => {
    while (written < totalBytes && !res.destroyed) {
      written += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end(suffix);
  };
  pump();
  return () => written;
}
