import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { declaredLength, utf8Text } from '../read-bounded-body.js';
import { isRetryableStatus } from '../resilience/retry-policy.js';
import type { AttemptControl } from './retrying-fetch.js';

/**
 * How one dispatch ended; the reader's fields say the rest.
 * - `read`: the whole body was read (`status`, `headers`, `bytes`, `text()`);
 * - `discarded`: a retryable status with a retry planned (`retryInMs`), the body left unread;
 * - `too large`: the body was announced or found longer than the limit, its read aborted;
 * - `failed`: no answer, or an answer that broke off (`answered`), with `error`.
 */
export type ReadEnd = 'read' | 'discarded' | 'too large' | 'failed';

/** Given to `controller.abort` when the reader itself abandons a body; nobody reads it. */
const ABANDONED = new Error('subgraph answer abandoned by the gateway');
const NO_HEADERS: IncomingHttpHeaders = Object.freeze({});

/**
 * Reads one subgraph answer straight from undici's dispatcher, as a handler (undici 8's
 * DispatchHandler): no RequestHandler, Readable body stream or `body.text()` promise per fetch,
 * which `pool.request()` allocated and which survived scavenges (issue 31). Everything is on
 * the prototype: per fetch this one object, its promise and the body's chunks.
 *
 * Aborting through the controller destroys the socket (undici's client does), so a body
 * abandoned mid-read never leaves its connection to be reused.
 */
export class AnswerReader implements Dispatcher.DispatchHandler {
  /** Settles once, when the answer was read or abandoned, or the dispatch failed. */
  readonly ended: Promise<ReadEnd>;
  status = 0;
  headers: IncomingHttpHeaders = NO_HEADERS;
  /** The answer began (a final status arrived): a failure after it is not retried. */
  answered = false;
  bytes = 0;
  retryInMs: number | undefined = undefined;
  error: unknown = undefined;

  readonly #limit: number;
  readonly #control: AttemptControl;
  #resolve!: (end: ReadEnd) => void;
  #settled = false;
  #controller: Dispatcher.DispatchController | undefined = undefined;
  /** The first chunk on its own: most answers come in one, so no array for them. */
  #first: Buffer | undefined = undefined;
  #more: Buffer[] | undefined = undefined;

  constructor(limit: number, control: AttemptControl) {
    this.#limit = limit;
    this.#control = control;
    this.ended = new Promise<ReadEnd>((resolve) => {
      this.#resolve = resolve;
    });
    if (control.signal.aborted) {
      this.error = control.signal.reason;
      this.#settle('failed');
    } else {
      control.signal.addEventListener('abort', this);
    }
  }

  /** The fetch's deadline passed: abort the dispatch, or end now if it still waits for a connection. */
  handleEvent(): void {
    const reason = this.#control.signal.reason ?? ABANDONED;
    if (this.#controller) {
      this.#controller.abort(reason); // calls onResponseError, which settles
    } else {
      // Still queued in the pool: it is aborted in onRequestStart, before anything is sent.
      this.error = reason;
      this.#settle('failed');
    }
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    if (this.#settled) {
      controller.abort(this.#control.signal.reason ?? ABANDONED);
      return;
    }
    this.#controller = controller;
  }

  onResponseStart(controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200 || this.#settled) return; // 1xx: informational, the answer follows
    this.answered = true;
    this.status = statusCode;
    // Parsed by undici as `pool.request()` gave them: lower-case names, string | string[].
    this.headers = headers;
    if (isRetryableStatus(statusCode)) {
      this.retryInMs = this.#control.retryDelay();
      if (this.retryInMs !== undefined) {
        this.#abandon(controller, 'discarded');
        return;
      }
    }
    const declared = declaredLength(headers['content-length'], this.#limit);
    if (declared === 'over') {
      this.#abandon(controller, 'too large');
      return;
    }
    // undici never reads past a content-length, so the count below only matters without one.
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.bytes += chunk.length;
    if (this.bytes > this.#limit) {
      this.#abandon(controller, 'too large');
      return;
    }
    if (this.#first === undefined) this.#first = chunk;
    else if (this.#more === undefined) this.#more = [this.#first, chunk];
    else this.#more.push(chunk);
  }

  onResponseEnd(): void {
    this.#settle('read');
  }

  onResponseError(_controller: Dispatcher.DispatchController | null, error: Error): void {
    if (this.#settled) return;
    this.error = error;
    this.#settle('failed');
  }

  /** The body as text, decoded once. */
  text(): string {
    const body = this.#more ? Buffer.concat(this.#more, this.bytes) : this.#first;
    this.#first = this.#more = undefined;
    return body ? utf8Text(body) : '';
  }

  #abandon(controller: Dispatcher.DispatchController, end: ReadEnd): void {
    this.#settle(end);
    controller.abort(ABANDONED);
  }

  #settle(end: ReadEnd): void {
    if (this.#settled) return;
    this.#settled = true;
    // Nothing of this attempt stays on the fetch's signal, which outlives it across retries.
    this.#control.signal.removeEventListener('abort', this);
    this.#resolve(end);
  }
}
