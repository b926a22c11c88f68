import type { ServerResponse } from 'node:http';

/** What the response says it is: Apollo Router's exact header, which Apollo Client and Kotlin/iOS parse. */
export const MULTIPART_CONTENT_TYPE = 'multipart/mixed;boundary="graphql";subscriptionSpec="1.0"';
const DELIMITER = '\r\n--graphql';
const PART_HEADERS = '\r\ncontent-type: application/json\r\n\r\n';
// The close delimiter is the last delimiter written, followed by `--`.
const CLOSE = '--\r\n';
const HEARTBEAT = '{}';
// Heartbeat intervals with bytes waiting and none of them written: the client stopped reading.
const STALLED_TICKS = 2;

/**
 * One subscription's response in Apollo's multipart subscription protocol (multipart/mixed,
 * boundary `graphql`): each part is one JSON message, a heartbeat `{}` every `heartbeatMs`
 * (the first one at once, so the client knows the subscription is open), and the close
 * delimiter when it ends. Parts are handed over one at a time (`part` resolves once written),
 * so a slow reader slows the reading of its events and the gateway's bounded queue, not this
 * response, takes what it does not read; a client that reads nothing at all for two heartbeat
 * intervals is cut off.
 */
export class MultipartStream {
  readonly #res: ServerResponse;
  readonly #timer: NodeJS.Timeout;
  #ended = false;
  #progressed = false;
  #stalled = 0;

  #quiet: boolean;

  /**
   * Writes the opening delimiter and a first heartbeat; `res`'s head must be written already.
   * `quietUntilFirstPart`: no heartbeat before the first message, for a client that did not ask
   * for Apollo's protocol (`multipart/mixed` without `subscriptionSpec`, urql's): urql reads a
   * first part without `data` or `errors` as a failed operation.
   */
  constructor(res: ServerResponse, heartbeatMs: number, quietUntilFirstPart = false) {
    this.#res = res;
    this.#quiet = quietUntilFirstPart;
    res.write(DELIMITER);
    if (!this.#quiet) this.#write(HEARTBEAT);
    this.#timer = setInterval(() => this.#tick(), heartbeatMs);
    this.#timer.unref();
  }

  /** One message; resolves true once it is written, false when the stream ended or the client left. */
  part(json: string): Promise<boolean> {
    if (this.#ended) return Promise.resolve(false);
    this.#quiet = false;
    return this.#write(json);
  }

  /** Ends the response after `json`, if given (a last message), with the close delimiter. */
  end(json?: string): void {
    if (this.#ended) return;
    if (json !== undefined) this.#write(json);
    this.#stop();
    this.#res.end(CLOSE);
  }

  /** Stops without the close delimiter (the client is gone or must be cut off). */
  destroy(): void {
    this.#stop();
    this.#res.destroy();
  }

  #stop(): void {
    this.#ended = true;
    clearInterval(this.#timer);
  }

  #write(json: string): Promise<boolean> {
    return new Promise((resolve) =>
      this.#res.write(PART_HEADERS + json + DELIMITER, (error) => {
        if (!error) this.#progressed = true;
        resolve(!error);
      }),
    );
  }

  #tick(): void {
    const waiting = this.#res.writableLength > 0;
    this.#stalled = waiting && !this.#progressed ? this.#stalled + 1 : 0;
    this.#progressed = false;
    if (this.#stalled >= STALLED_TICKS) this.destroy();
    // With bytes still waiting, a heartbeat would only queue behind them.
    else if (!waiting && !this.#quiet) void this.#write(HEARTBEAT);
  }
}
