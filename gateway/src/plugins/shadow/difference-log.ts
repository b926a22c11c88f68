import { randomUUID } from 'node:crypto';
import { type Logger, LogThrottle } from '../../plugin-sdk/index.js';
import type { Difference } from './diff.js';

/** Distinct differences remembered (their counts); past it, new ones are logged at most 10 a minute. */
const MAX_DISTINCT = 1000;

/** The message of a difference's line: `pnpm shadow:report` reads these. */
export const DIFFERS_MESSAGE = 'shadow answer differs';

/**
 * Logs each distinct difference (target, operation name, differing paths) the first time it is
 * seen, then again at its 2nd, 4th, 8th… occurrence with the count so far: the log stays small
 * whatever the traffic, and `shadow:report` still counts. Values only when `logValues`.
 */
export class DifferenceLog {
  readonly #seen = new Map<string, number>();
  readonly #overflow = new LogThrottle(10, 60_000);
  /** This process's counts, told apart from another replica's or an earlier run's in one log. */
  readonly #run = randomUUID().slice(0, 8);
  constructor(
    private readonly logger: Logger,
    private readonly logValues: boolean,
  ) {}

  record(target: string, operationName: string | undefined, found: readonly Difference[]): void {
    const paths = found.map((difference) => difference.path);
    const key = JSON.stringify([target, operationName ?? null, paths]);
    const count = (this.#seen.get(key) ?? 0) + 1;
    if (this.#seen.has(key) || this.#seen.size < MAX_DISTINCT) this.#seen.set(key, count);
    else if (this.#overflow.take() === undefined) return;
    if ((count & (count - 1)) !== 0) return; // logged at 1, 2, 4, 8…
    const values = this.logValues ? found.map(({ path, client, shadow }) => ({ path, client, shadow })) : undefined;
    this.#write(target, operationName ?? null, paths, count, values);
  }

  /** When the gateway stops: each difference seen since its last line, with its final count. */
  flush(): void {
    for (const [key, count] of this.#seen) {
      if ((count & (count - 1)) === 0) continue;
      const [target, operationName, paths] = JSON.parse(key) as [string, string | null, string[]];
      this.#write(target, operationName, paths, count, undefined);
    }
  }

  #write(target: string, operationName: string | null, paths: string[], count: number, values: unknown): void {
    this.logger.warn(
      { shadow: { target, operationName, paths, count, run: this.#run, ...(values !== undefined && { values }) } },
      DIFFERS_MESSAGE,
    );
  }
}
