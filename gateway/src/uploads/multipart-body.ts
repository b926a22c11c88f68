import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { type UploadedFile, type UploadOwner, uploadsIn } from './uploaded-file.js';

/** A subgraph request's body in the multipart request spec's shape, its files piped as they arrive. */
export interface MultipartBody {
  /** Its Content-Type, and the header that gets it past the subgraph's CSRF check. */
  readonly headers: Readonly<Record<string, string>>;
  /** A byte stream (64 KiB of read-ahead) over the parts: it pulls from the client only as undici writes. */
  readonly body: Readable;
}

/**
 * The multipart body for a fetch whose variables hold files, or undefined when they hold none.
 * `operation` is the JSON body, in which each placeholder serialized as null; `map` names the paths of each file, numbered
 * in the client's order; the file parts follow, each read from the client's request only as the
 * subgraph's connection takes it (undici pulls the next chunk when the socket drains).
 */
export function multipartBodyFor(
  operation: string,
  variables: Readonly<Record<string, unknown>> | undefined,
): MultipartBody | undefined {
  const found = uploadsIn(variables);
  if (found.length === 0) return undefined;
  const files: UploadedFile[] = [...new Set(found.map(({ file }) => file))].sort((a, b) => a.order - b.order);
  const map: Record<string, string[]> = {};
  for (const { path, file } of found) {
    const key = String(files.indexOf(file));
    map[key] = [...(map[key] ?? []), path];
  }
  const boundary = `----fedgw-upload-${randomBytes(12).toString('hex')}`;
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'apollo-require-preflight': 'true' },
    body: Readable.from(parts(boundary, operation, JSON.stringify(map), files), { objectMode: false }),
  };
}

async function* parts(
  boundary: string,
  operations: string,
  map: string,
  files: readonly UploadedFile[],
): AsyncGenerator<Buffer> {
  yield Buffer.from(`--${boundary}\r\n${disposition('operations')}\r\n\r\n${operations}\r\n`);
  yield Buffer.from(`--${boundary}\r\n${disposition('map')}\r\n\r\n${map}\r\n`);
  for (const [index, file] of files.entries()) {
    const arrived = await file.claim();
    const type = arrived.mimeType.replace(/[\r\n]/g, '') || 'application/octet-stream';
    const head = `${disposition(String(index), arrived.filename)}\r\nContent-Type: ${type}\r\n\r\n`;
    yield Buffer.from(`--${boundary}\r\n${head}`);
    yield* chunksOf(arrived.stream, file.owner);
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${boundary}--\r\n`);
}

/** The file's chunks; the upload's idle timer runs while the next one is awaited. */
async function* chunksOf(stream: Readable, owner: UploadOwner): AsyncGenerator<Buffer> {
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  try {
    for (;;) {
      owner.waiting(true);
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } finally {
        owner.waiting(false);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await chunks.return?.();
  }
}

/** A part's Content-Disposition, its file name escaped as browsers' FormData does (UTF-8, `"` and line breaks as %XX). */
function disposition(name: string, filename?: string): string {
  const escaped = filename?.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return `Content-Disposition: form-data; name="${name}"${escaped === undefined ? '' : `; filename="${escaped}"`}`;
}
