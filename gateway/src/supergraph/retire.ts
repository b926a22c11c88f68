import type { ApolloServerPlugin } from '@apollo/server';

interface Closable {
  close(): Promise<void>;
}

/**
 * Closes the subgraph data sources a supergraph update replaced (a subgraph's URL
 * changed) once no request that may still use them is running. Closing at once is not
 * enough: @apollo/gateway copies its data sources when a request starts executing its
 * query plan, so a request in flight during the swap sends its later fetches through the
 * old source, and undici's `Pool.close()` waits for requests already queued but rejects
 * new ones (ClientClosedError). Requests are counted per generation, a generation being
 * the span between two retirements.
 */
export class DataSourceRetirement {
  #generation = 0;
  /** Generation → requests started in it and still running. */
  readonly #running = new Map<number, number>();
  #retired: { generation: number; source: Closable }[] = [];

  /** A request started; call the returned function when it ended (extra calls are ignored). */
  begin(): () => void {
    const generation = this.#generation;
    this.#running.set(generation, (this.#running.get(generation) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const left = (this.#running.get(generation) ?? 1) - 1;
      if (left === 0) this.#running.delete(generation);
      else this.#running.set(generation, left);
      this.#sweep();
    };
  }

  /** `source` was replaced: it closes once the requests that started before now have ended. */
  retire(source: Closable): void {
    this.#generation++;
    this.#retired.push({ generation: this.#generation, source });
    this.#sweep();
  }

  /** Retired sources still waiting for their requests (for tests and `stop`). */
  get pending(): number {
    return this.#retired.length;
  }

  /** At stop: closes every retired source now (undici still lets queued requests finish). */
  async closeAll(): Promise<void> {
    const all = this.#retired;
    this.#retired = [];
    await Promise.all(all.map(({ source }) => source.close()));
  }

  /** Marks each GraphQL request's start and end for `begin`. */
  apolloPlugin(): ApolloServerPlugin {
    return {
      requestDidStart: async () => {
        const end = this.begin();
        return { willSendResponse: async () => end() };
      },
    };
  }

  #sweep(): void {
    const oldestRunning = Math.min(...this.#running.keys()); // Infinity when none runs
    this.#retired = this.#retired.filter(({ generation, source }) => {
      if (oldestRunning < generation) return true;
      void source.close();
      return false;
    });
  }
}
