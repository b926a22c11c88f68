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
  const state: Subscribers = {
    controllers: [],
    reading: [],
    seen: new Uint8Array(count),
    problems: {},
    live: 0,
    wrongEvents: 0,
    closing: false,
    sink: () => {},
  };
  try {
    for (let first = 0; first < count; first += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, count - first) }, (_, i) =>
        subscribe(state, url, document, first + i),
      );
      await Promise.all(batch);
    }
  } catch (error) {
    await abortAll(state);
    throw error;
  }
  return poolOf(count, state);
}

/** The subscribers' requests and readers, what they have received so far, and where each good event goes. */
interface Subscribers {
  readonly controllers: AbortController[];
  readonly reading: Promise<void>[];
  readonly seen: Uint8Array;
  readonly problems: Record<string, number>;
  live: number;
  wrongEvents: number;
  closing: boolean;
  sink: EventSink;
}

function problem(state: Subscribers, message: string): void {
  state.problems[message] = (state.problems[message] ?? 0) + 1;
}

/** One subscriber: its POST answered 200 within CONNECT_TIMEOUT_MS, then its parts read in the background. */
async function subscribe(state: Subscribers, url: string, document: string, index: number): Promise<void> {
  const controller = new AbortController();
  state.controllers.push(controller);
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
  state.reading.push(read(state, index, response.body));
}

/** A subscriber's response, part by part, until it ends (a problem unless closing) or fails. */
async function read(state: Subscribers, index: number, body: ReadableStream<Uint8Array>): Promise<void> {
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
        if (json !== -1) countMessage(state, index, JSON.parse(part.slice(json + 4)) as Message, at);
        end = buffer.indexOf(DELIMITER);
      }
    }
    if (!state.closing) problem(state, buffer.startsWith('--') ? 'completed by the server' : 'response ended early');
  } catch (error) {
    if (!state.closing) problem(state, `error: ${(error as Error).message}`);
  }
}

/** A part: a wrong event counted (its errors as a problem), a good one marks its subscriber live and goes to the sink. */
function countMessage(state: Subscribers, index: number, message: Message, at: number): void {
  if (!('payload' in message)) return;
  const review = message.payload?.data?.reviewAdded;
  if (typeof review?.id !== 'string' || message.payload?.errors || message.errors) {
    state.wrongEvents++;
    const errors = message.errors ?? message.payload?.errors;
    if (errors) problem(state, `event with errors: ${JSON.stringify(errors).slice(0, 200)}`);
    return;
  }
  if (typeof review.author?.name !== 'string' || typeof review.product?.name !== 'string') state.wrongEvents++;
  if (state.seen[index] === 0) {
    state.seen[index] = 1;
    state.live++;
  }
  state.sink(index, review.id, at);
}

async function abortAll(state: Subscribers): Promise<void> {
  state.closing = true;
  state.sink = () => {};
  for (const controller of state.controllers) controller.abort();
  await Promise.all(state.reading);
}

function poolOf(count: number, state: Subscribers): SubscriberPool {
  return {
    size: count,
    get live() {
      return state.live;
    },
    get wrongEvents() {
      return state.wrongEvents;
    },
    problems: () => ({ ...state.problems }),
    setSink(next) {
      state.sink = next;
    },
    close: () => abortAll(state),
  };
}
