import { performance } from 'node:perf_hooks';
import type { EventSink, SubscriberPool } from './subscribers.js';

/** What Apollo Client 4's HttpLink sends for a subscription. */
const ACCEPT =
  'multipart/mixed;boundary=graphql;subscriptionSpec=1.0,application/graphql-response+json,application/json;q=0.9';
const DELIMITER = '\r\n--graphql';
/** Requests opened at once while connecting, as for the WebSocket clients. */
const CONNECT_BATCH = 100;
const CONNECT_TIMEOUT_MS = 15_000;

interface Message {
  readonly payload?: {
    readonly data?: {
      readonly reviewAdded?: {
        readonly id?: unknown;
        readonly author?: { readonly name?: unknown } | null;
        readonly product?: { readonly name?: unknown } | null;
      } | null;
    } | null;
    readonly errors?: readonly unknown[];
  } | null;
  readonly errors?: readonly unknown[];
}

/**
 * Opens `count` multipart HTTP subscriptions to `url` (Apollo's protocol, what Apollo Client's
 * HttpLink speaks), each its own request and response: `count` separate clients. Resolves once
 * every response has its 200 head; a subscription is only known to be live once its first
 * event arrives (`live`). Parts are read as Apollo Client reads them: split at the boundary,
 * `{}` heartbeats skipped, `{"payload": …}` an event.
 */
export async function openMultipartSubscribers(url: string, count: number, document: string): Promise<SubscriberPool> {
  const controllers: AbortController[] = [];
  const reading: Promise<void>[] = [];
  const seen = new Uint8Array(count);
  const problems: Record<string, number> = {};
  const problem = (message: string) => {
    problems[message] = (problems[message] ?? 0) + 1;
  };
  let live = 0;
  let wrongEvents = 0;
  let closing = false;
  let sink: EventSink = () => {};

  const onMessage = (index: number, message: Message, at: number) => {
    if (!('payload' in message)) return;
    const review = message.payload?.data?.reviewAdded;
    if (typeof review?.id !== 'string' || message.payload?.errors || message.errors) {
      wrongEvents++;
      const errors = message.errors ?? message.payload?.errors;
      if (errors) problem(`event with errors: ${JSON.stringify(errors).slice(0, 200)}`);
      return;
    }
    if (typeof review.author?.name !== 'string' || typeof review.product?.name !== 'string') wrongEvents++;
    if (seen[index] === 0) {
      seen[index] = 1;
      live++;
    }
    sink(index, review.id, at);
  };

  const read = async (index: number, body: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const at = performance.now();
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf(DELIMITER);
        while (end !== -1) {
          const part = buffer.slice(0, end);
          buffer = buffer.slice(end + DELIMITER.length);
          const json = part.indexOf('\r\n\r\n');
          if (json !== -1) onMessage(index, JSON.parse(part.slice(json + 4)) as Message, at);
          end = buffer.indexOf(DELIMITER);
        }
      }
      if (!closing) problem(buffer.startsWith('--') ? 'completed by the server' : 'response ended early');
    } catch (error) {
      if (!closing) problem(`error: ${(error as Error).message}`);
    }
  };

  const subscribe = async (index: number): Promise<void> => {
    const controller = new AbortController();
    controllers.push(controller);
    const timer = setTimeout(() => controller.abort(), CONNECT_TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: ACCEPT },
        body: JSON.stringify({ query: document }),
        signal: controller.signal,
      });
    } catch (error) {
      throw new Error(`subscriber ${index}: no response within ${CONNECT_TIMEOUT_MS} ms (${(error as Error).message})`);
    } finally {
      clearTimeout(timer);
    }
    if (response.status !== 200 || !response.body) {
      throw new Error(`subscriber ${index}: HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`);
    }
    reading.push(read(index, response.body));
  };

  const abortAll = async () => {
    closing = true;
    sink = () => {};
    for (const controller of controllers) controller.abort();
    await Promise.all(reading);
  };
  try {
    for (let first = 0; first < count; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, i) => subscribe(first + i));
      await Promise.all(batch);
    }
  } catch (error) {
    await abortAll();
    throw error;
  }

  return {
    size: count,
    get live() {
      return live;
    },
    get wrongEvents() {
      return wrongEvents;
    },
    problems: () => ({ ...problems }),
    setSink(next) {
      sink = next;
    },
    close: abortAll,
  };
}
