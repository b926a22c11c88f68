import type { Readable } from 'node:stream';
import type { GraphQLError } from 'graphql';

/** A file part as it starts arriving: its stream is read once, by the one fetch that sends it. */
export interface ArrivingFile {
  readonly stream: Readable;
  readonly filename: string;
  readonly mimeType: string;
}

/** What an UploadedFile asks of the upload it belongs to. */
export interface UploadOwner {
  /** The first failure of the upload (a limit, a stall, a malformed part), if any. */
  readonly failure: GraphQLError | undefined;
  /** While a fetch waits for bytes of this upload, its idle timer runs. */
  waiting(on: boolean): void;
}

/**
 * The value an `Upload` variable holds in the gateway, in place of the file: a placeholder the
 * subgraph fetch recognises (uploads/multipart-body.ts). It serializes as `null`, which is what the
 * multipart request spec puts at a file's path in `operations`. One fetch may send it, once.
 */
export class UploadedFile {
  /** The file's key in the client's `map` ("0", "1"…). */
  readonly key: string;
  /** Its place in the `map`: the order its part must arrive in, and is sent on in. */
  readonly order: number;
  readonly owner: UploadOwner;
  readonly #arrived: Promise<ArrivingFile>;
  #arrive!: (file: ArrivingFile) => void;
  #fail!: (error: GraphQLError) => void;
  #claimed = false;

  constructor(key: string, order: number, owner: UploadOwner) {
    this.key = key;
    this.order = order;
    this.owner = owner;
    this.#arrived = new Promise<ArrivingFile>((resolve, reject) => {
      this.#arrive = resolve;
      this.#fail = reject;
    });
    // A file nobody claims may fail unobserved.
    this.#arrived.catch(() => {});
  }

  /** The file part began: its stream now carries the file's bytes. */
  arrived(file: ArrivingFile): void {
    this.#arrive(file);
  }

  /** The upload failed before this part began. */
  failed(error: GraphQLError): void {
    this.#fail(error);
  }

  /** The part, once it begins; a second claim is refused (a file goes to one fetch). */
  claim(): Promise<ArrivingFile> {
    if (this.#claimed) return Promise.reject(new Error(`upload ${this.key} was already sent`));
    this.#claimed = true;
    this.owner.waiting(true);
    return this.#arrived.finally(() => this.owner.waiting(false));
  }

  toJSON(): null {
    return null;
  }
}

/** Every UploadedFile in a value (variables), with its path below `prefix` (`variables.photo`, `variables.input.files.0`). */
export function uploadsIn(value: unknown, prefix = 'variables'): { path: string; file: UploadedFile }[] {
  const found: { path: string; file: UploadedFile }[] = [];
  const walk = (at: unknown, path: string, depth: number) => {
    if (at instanceof UploadedFile) found.push({ path, file: at });
    else if (depth < 64 && typeof at === 'object' && at !== null)
      for (const [name, inner] of Object.entries(at)) walk(inner, `${path}.${name}`, depth + 1);
  };
  walk(value, prefix, 0);
  return found;
}
