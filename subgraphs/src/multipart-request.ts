import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import { GraphQLScalarType } from 'graphql';

/** What an `Upload` argument holds in a subgraph resolver: the file part, once it begins. */
export interface FileUpload {
  readonly filename: string;
  readonly mimetype: string;
  readonly stream: Readable;
}

/** A placeholder a resolver awaits; it resolves when its part begins, rejects if the request ends without it. */
export class PendingUpload {
  readonly file: Promise<FileUpload>;
  arrive!: (file: FileUpload) => void;
  fail!: (error: Error) => void;
  constructor() {
    this.file = new Promise((resolve, reject) => {
      this.arrive = resolve;
      this.fail = reject;
    });
    this.file.catch(() => {});
  }
}

/** The `Upload` scalar of the GraphQL multipart request spec: only a file part can fill it, never JSON. */
export const UploadScalar = new GraphQLScalarType({
  name: 'Upload',
  description: 'A file, sent as a part of a multipart request (the GraphQL multipart request spec).',
  parseValue(value) {
    if (value instanceof PendingUpload) return value;
    throw new TypeError('Upload values come from a multipart request file part.');
  },
  serialize() {
    throw new TypeError('Upload is an input-only scalar.');
  },
});

/** The bytes of an upload, counted and hashed as they stream: the answer proves what arrived. */
export async function digestOf(
  upload: PendingUpload,
): Promise<{ filename: string; mimetype: string; size: number; sha256: string }> {
  const { filename, mimetype, stream } = await upload.file;
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  if ((stream as Readable & { truncated?: boolean }).truncated) throw new Error('The file is over the size limit.');
  return { filename, mimetype, size, sha256: hash.digest('hex') };
}

/** Files and bytes a subgraph takes in one request. */
const LIMITS = { files: 10, fileSize: 1024 ** 3, fieldSize: 1024 ** 2, fields: 2 };

/**
 * A multipart request (the spec: `operations`, `map`, then the files) as the JSON body Apollo
 * reads, each file's path holding a PendingUpload; the files keep streaming after it returns.
 * `undefined`: the body is not one (the handler answers 400).
 */
export function readMultipart(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    const pending = new Map<string, PendingUpload>();
    let operations: Record<string, unknown> | undefined;
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: LIMITS });
    } catch {
      return resolve(undefined);
    }
    const fail = (error: Error) => {
      resolve(undefined);
      for (const upload of pending.values()) upload.fail(error);
    };
    parser.on('field', (name, value) => {
      if (name === 'operations') operations = parseObject(value);
      else if (name === 'map' && operations) {
        const placed = placeFiles(operations, parseObject(value), pending);
        return placed ? resolve(operations) : fail(new Error('bad map'));
      }
    });
    parser.on('file', (name, stream, info) => {
      const upload = pending.get(name);
      if (!upload) return void stream.resume();
      pending.delete(name);
      upload.arrive({ filename: info.filename, mimetype: info.mimeType, stream });
    });
    parser.on('error', (error: Error) => fail(error));
    parser.on('close', () => fail(new Error('the request ended before the file')));
    req.on('close', () => {
      if (!req.complete) fail(new Error('the upload was aborted'));
    });
    req.pipe(parser);
  });
}

function placeFiles(
  operations: Record<string, unknown>,
  map: Record<string, unknown> | undefined,
  pending: Map<string, PendingUpload>,
): boolean {
  if (!map) return false;
  for (const [key, paths] of Object.entries(map)) {
    if (!Array.isArray(paths)) return false;
    const upload = new PendingUpload();
    pending.set(key, upload);
    for (const path of paths) {
      const steps = String(path).split('.');
      if (steps.some((step) => step === '__proto__' || step === 'constructor' || step === 'prototype')) return false;
      const last = steps.pop() as string;
      let at: unknown = operations;
      for (const step of steps)
        at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[step] : undefined;
      if (typeof at !== 'object' || at === null) return false;
      (at as Record<string, unknown>)[last] = upload;
    }
  }
  return true;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
