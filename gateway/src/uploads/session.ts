import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type { GraphQLError } from 'graphql';
import type { Clock } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import { placeUploads } from './operations.js';
import type { UploadedFile, UploadOwner } from './uploaded-file.js';

/** What one upload is held to (UPLOAD_*, and BODY_LIMIT for the `operations` and `map` fields). */
export interface UploadLimits {
  readonly bodyLimitBytes: number;
  readonly maxFiles: number;
  readonly maxFileBytes: number;
  readonly idleTimeoutMs: number;
}

/** A file part's headers are at most this many bytes (busboy's own cap), counted in the whole body's limit. */
const PART_OVERHEAD_BYTES = 16 * 1024;

/** How the reading of `operations` and `map` ended: the operation with its placeholders, or why not. */
export type Opened = { readonly body: Record<string, unknown> } | { readonly refused: GraphQLError };

const badRequest = (message: string) => httpError(ClientErrorCode.BAD_REQUEST, `Upload refused: ${message}`);
const tooLarge = (message: string) => httpError(ClientErrorCode.PAYLOAD_TOO_LARGE, `Upload refused: ${message}`);

/**
 * One multipart request, read by busboy as its bytes come: `operations` and `map` first (the
 * spec's order), then each file part handed to its placeholder, whose fetch pipes it on. Nothing
 * is buffered whole: busboy stops reading the request while a file's stream is not read. The
 * first failure (a limit, a stall, a malformed part, a client gone) ends it: every file stream
 * still open is destroyed, so a fetch sending one aborts its subgraph request.
 */
export class UploadSession implements UploadOwner {
  failure: GraphQLError | undefined;
  readonly opened: Promise<Opened>;
  readonly #limits: UploadLimits;
  readonly #clock: Clock;
  readonly #body: Readable;
  readonly #parser: busboy.Busboy;
  #open!: (opened: Opened) => void;
  #fields: { operations?: string } = {};
  #files: readonly UploadedFile[] = [];
  #nextFile = 0;
  #streams = new Set<Readable>();
  #bytes = 0;
  #waiting = 0;
  #timer: { cancel(): void } | undefined;
  #ended = false;

  constructor(headers: IncomingHttpHeaders, body: Readable, limits: UploadLimits, clock: Clock) {
    this.#limits = limits;
    this.#clock = clock;
    this.#body = body;
    this.opened = new Promise((resolve) => {
      this.#open = resolve;
    });
    this.#parser = busboy({
      headers,
      defParamCharset: 'utf8',
      // busboy calls a value that reaches its limit truncated: one byte more lets the limit itself through.
      limits: {
        fieldSize: limits.bodyLimitBytes + 1,
        fields: 2,
        files: limits.maxFiles,
        parts: limits.maxFiles + 2,
        fileSize: limits.maxFileBytes + 1,
      },
    });
    this.#listen();
    this.waiting(true);
    body.pipe(this.#parser);
  }

  /** The idle timer runs while someone waits for the client's bytes (UPLOAD_IDLE_TIMEOUT_MS). */
  waiting(on: boolean): void {
    this.#waiting += on ? 1 : -1;
    this.#timer?.cancel();
    this.#timer = undefined;
    if (this.#waiting > 0 && !this.#ended) this.#arm();
  }

  /** The response is over: stop reading the request (the adapter closes its connection if bytes remain). */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stop(badRequest('the response was sent before the file was read.'));
  }

  /** The first failure wins: every waiting placeholder and open file stream gets it, the parser stops. */
  fail(error: GraphQLError): void {
    if (this.failure || this.#ended) return;
    this.failure = error;
    this.#stop(error);
  }

  #stop(error: GraphQLError): void {
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#open({ refused: error });
    for (const file of this.#files.slice(this.#nextFile)) file.failed(error);
    for (const stream of this.#streams) stream.destroy(error);
    this.#body.unpipe(this.#parser);
    this.#parser.destroy();
  }

  /** A byte came: the wait starts over. */
  #rearm(): void {
    if (this.#ended) return;
    this.#timer?.cancel();
    this.#arm();
  }

  #arm(): void {
    this.#timer = this.#clock.after(this.#limits.idleTimeoutMs, () =>
      this.fail(
        httpError(
          ClientErrorCode.UPLOAD_IDLE_TIMEOUT,
          `Upload aborted: no byte came for ${this.#limits.idleTimeoutMs} ms.`,
        ),
      ),
    );
  }

  #listen(): void {
    const { maxFiles, maxFileBytes, bodyLimitBytes } = this.#limits;
    const bodyLimit = bodyLimitBytes + maxFiles * (maxFileBytes + PART_OVERHEAD_BYTES);
    this.#body.on('data', (chunk: Buffer) => {
      this.#bytes += chunk.length;
      if (this.#bytes > bodyLimit) this.fail(tooLarge(`the body is over ${bodyLimit} bytes.`));
      else if (this.#waiting > 0 && !this.failure) this.#rearm();
    });
    this.#body.on('close', () => {
      if (!this.#body.readableEnded) this.fail(badRequest('the client closed the request before its end.'));
    });
    this.#body.on('error', () => this.fail(badRequest('the request body could not be read.')));
    this.#parser.on('field', (name, value, info) => this.#field(name, value, info.valueTruncated));
    this.#parser.on('file', (name, stream, info) => this.#file(name, stream, info.filename, info.mimeType));
    this.#parser.on('filesLimit', () => this.fail(tooLarge(`more than ${maxFiles} files.`)));
    this.#parser.on('partsLimit', () => this.fail(badRequest('more parts than `operations`, `map` and the files.')));
    this.#parser.on('fieldsLimit', () => this.fail(badRequest('fields after `operations` and `map`.')));
    this.#parser.on('error', () => this.fail(badRequest('the multipart body is malformed.')));
    this.#parser.on('close', () => {
      if (this.#nextFile < this.#files.length) this.fail(badRequest('a file the `map` names has no part.'));
    });
  }

  #field(name: string, value: string, truncated: boolean): void {
    if (truncated) {
      this.fail(tooLarge(`the \`${name}\` field is over ${this.#limits.bodyLimitBytes} bytes.`));
      return;
    }
    if (name === 'operations' && this.#fields.operations === undefined) {
      this.#fields.operations = value;
      return;
    }
    if (name !== 'map' || this.#fields.operations === undefined || this.#files.length > 0) {
      this.fail(badRequest('the body must start with the `operations` field, then `map`.'));
      return;
    }
    const placed = placeUploads(this.#fields.operations, value, this.#limits.maxFiles, this);
    if ('files' in placed) {
      this.#files = placed.files;
      this.waiting(false);
      this.#open({ body: placed.body });
    } else this.fail(placed);
  }

  #file(key: string, stream: Readable, filename: string, mimeType: string): void {
    const expected = this.#files[this.#nextFile];
    if (!expected || expected.key !== key) {
      stream.resume();
      this.fail(badRequest(`file part "${key}" is not the next file of the \`map\`.`));
      return;
    }
    this.#nextFile += 1;
    this.#streams.add(stream);
    // Its failure is the session's (`failure`); a stream nobody reads any more must not throw it.
    stream.on('error', () => {});
    stream.once('limit', () => this.fail(tooLarge(`a file is over ${this.#limits.maxFileBytes} bytes.`)));
    stream.once('close', () => this.#streams.delete(stream));
    expected.arrived({ stream, filename, mimeType });
  }
}
