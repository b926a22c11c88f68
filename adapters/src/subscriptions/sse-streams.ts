// Writing graphql-sse's answers to a Node response: the stream's messages (counted, to notice a
// client that stopped reading), the close of a response, and the answers that are not a stream.
import type { ServerResponse } from 'node:http';

/** Per response: events handed to graphql-sse and events written, to notice a client that stopped reading. */
export interface Flow {
  produced: number;
  written: number;
  readonly res: ServerResponse;
}
export interface Context {
  readonly res: ServerResponse;
  readonly flow: Flow;
}
/** `then` once the response is closed: at once when its client left while graphql-sse was still answering. */
export function whenClosed(res: ServerResponse, then: () => void): void {
  if (res.destroyed || res.socket?.destroyed || res.socket === null) then();
  else res.once('close', then);
}

/**
 * Writes graphql-sse's messages until the stream ends or the client leaves. Every wait races
 * the response's `close`: a client gone mid-wait must not leave the request open (a drain waits
 * for it), and a response stays `writable` after its client left.
 */
export async function writeStream(res: ServerResponse, messages: AsyncIterable<string>, flow: Flow): Promise<void> {
  const gone = new Promise<undefined>((resolve) => whenClosed(res, () => resolve(undefined)));
  const iterator = messages[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = await Promise.race([iterator.next(), gone]);
      if (!step || step.done) return;
      const written = await Promise.race([
        new Promise<boolean>((resolve) => res.write(step.value, (error) => resolve(!error))),
        gone,
      ]);
      if (!written) return;
      if (step.value.startsWith('event: next')) flow.written += 1;
    }
  } finally {
    void iterator.return?.();
    res.end();
  }
}

/**
 * graphql-sse stops an operation (its stream closed, or a DELETE) only when it is an async
 * generator: with `throw` as well as `return`. Any other iterator was never returned, so a client
 * that left kept its subscription, its subgraph socket and its SUBSCRIPTION_MAX_PER_CLIENT slot.
 */
export function asGenerator(events: AsyncIterableIterator<unknown>): AsyncIterableIterator<unknown> {
  const generator = {
    next: () => events.next(),
    return: async (value?: unknown) => (await events.return?.(value)) ?? { done: true as const, value },
    throw: async (error: unknown) => {
      await events.return?.();
      throw error;
    },
    [Symbol.asyncIterator]: () => generator,
  };
  return generator;
}

/** graphql-sse's 400 for a request it could not read, as the `next` and `complete` events of a distinct stream; coded. */
export function unreadableAsEvents(body: string): string {
  let errors: unknown;
  try {
    errors = (JSON.parse(body) as { errors?: unknown }).errors;
  } catch {
    errors = undefined;
  }
  const messages = Array.isArray(errors) ? errors.map((error) => String((error as { message?: unknown }).message)) : [];
  const result = {
    errors: (messages.length > 0 ? messages : ['The request could not be read.']).map((message) => ({
      message,
      extensions: { code: 'BAD_REQUEST' },
    })),
  };
  return `event: next\ndata: ${JSON.stringify(result)}\n\nevent: complete\ndata: \n\n`;
}

/** A JSON answer graphql-sse's handler returns: its body and init. */
export function answer(
  status: number,
  result: unknown,
  headers: Readonly<Record<string, string>> = {},
): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify(result),
    { status, statusText: '', headers: { ...headers, 'content-type': 'application/json; charset=utf-8' } },
  ];
}
