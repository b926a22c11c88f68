/** What Apollo Client 4's `HttpLink` sends for a subscription. */
export const MULTIPART_ACCEPT =
  'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9';

const DELIMITER = '\r\n--graphql';

export interface MultipartResponse {
  readonly status: number;
  readonly headers: Headers;
  /** The body so far (the whole body once `ended` resolved). */
  text(): string;
  /** Every complete part so far, parsed: `{}` heartbeats, `{ payload }` messages. */
  parts(): Record<string, unknown>[];
  /** Whether the close delimiter (`--graphql--`) arrived. */
  closed(): boolean;
  /** Resolves when the body ends: with the close delimiter, or cut off. */
  readonly ended: Promise<void>;
  /** Waits until `count` parts arrived (rejects when the body ends first or after `timeoutMs`). */
  take(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  /** Leaves: aborts the request. */
  abort(): void;
}

/**
 * A raw multipart subscription request (Apollo's protocol, read by hand rather than by
 * Apollo Client), to look at the wire: heartbeats, framing, the close delimiter.
 */
export async function openMultipart(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<MultipartResponse> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: MULTIPART_ACCEPT, ...headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  let text = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  let over = false;
  const ended = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body ?? []) {
        text += decoder.decode(chunk as Uint8Array, { stream: true });
        wake();
      }
    } catch {
      // aborted or cut off: `closed()` tells which way it ended
    } finally {
      over = true;
      wake();
    }
  })();
  const parts = () => {
    const segments = text.split(DELIMITER);
    // The first segment is the preamble; the last is incomplete unless it is the close delimiter's `--`.
    return segments.slice(1, -1).map((segment) => {
      const bodyStart = segment.indexOf('\r\n\r\n');
      return JSON.parse(segment.slice(bodyStart + 4)) as Record<string, unknown>;
    });
  };
  return {
    status: response.status,
    headers: response.headers,
    text: () => text,
    parts,
    closed: () => text.endsWith(`${DELIMITER}--\r\n`),
    ended,
    take: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(new Error(`${parts().length} of ${count} parts: ${text}`)), timeoutMs);
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolve(parts().slice(0, count));
        };
        const check = () => {
          if (parts().length >= count) finish();
          else if (over) finish(new Error(`the body ended after ${parts().length} of ${count} parts: ${text}`));
        };
        waiters.add(check);
        check();
      }),
    abort: () => controller.abort(),
  };
}
