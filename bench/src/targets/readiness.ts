import { setTimeout as sleep } from 'node:timers/promises';
import { postJson } from '../load/http-post.js';
import type { ManagedProcess } from './child.js';

/**
 * Polls `{ __typename }` until the endpoint answers it (a listening socket is not enough: a
 * gateway answers only once its supergraph is loaded). `headers` carry the credentials an auth
 * plugin asks for. Fails early, with the process's output, when the process dies.
 */
export async function waitForGraphQL(
  url: string,
  process: ManagedProcess | null,
  timeoutMs = 60_000,
  headers: Readonly<Record<string, string>> = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const exit = process?.exitDescription();
    if (exit) throw new Error(`${process?.name} exited (${exit}) before it was ready:\n${tail(process)}`);
    try {
      const response = await postJson(url, '{"query":"{ __typename }"}', headers, 2_000);
      if (response.status === 200 && response.text.includes('"__typename"')) return;
      last = `HTTP ${response.status}: ${response.text.slice(0, 200)}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline) {
      const name = process?.name ?? url;
      throw new Error(`${name} not ready at ${url} after ${timeoutMs / 1000} s (${last})\n${tail(process)}`);
    }
    await sleep(100);
  }
}

function tail(process: ManagedProcess | null): string {
  if (!process) return '';
  const output = process.output().trim();
  return output ? `--- last output of ${process.name} ---\n${output.split('\n').slice(-30).join('\n')}` : '';
}
