import { setTimeout as sleep } from 'node:timers/promises';
import type { CircuitState } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { fullJitterDelay } from '../resilience/backoff.js';
import { CircuitBreaker, type CircuitBreakerOptions } from '../resilience/circuit-breaker.js';
import { RetryBudget } from '../resilience/retry-budget.js';
import { checkRetryOptions, type SubgraphRetryOptions } from '../resilience/retry-policy.js';
import type { Attempt, Failure, Fetched } from './outcomes.js';

/**
 * A retry is sent only if, after its backoff, at least this share of the timeout is left:
 * with less, it would most likely turn the failure the client gets into SUBGRAPH_TIMEOUT.
 */
const RETRY_MIN_TIME_SHARE = 0.1;

export interface RetryingFetchOptions {
  readonly timeoutMs: number;
  /** Default: no retries. */
  readonly retry?: SubgraphRetryOptions | undefined;
  /** Default: no circuit breaker. */
  readonly circuitBreaker?: CircuitBreakerOptions | undefined;
  readonly onCircuitChange: (state: CircuitState) => void;
  readonly onRetry: (attempt: number, code: ClientErrorCode) => void;
}

/** One fetch across its attempts. */
interface FetchState {
  readonly retryable: boolean;
  /** When the fetch's time (SUBGRAPH_TIMEOUT_MS) runs out, on the `performance.now()` clock. */
  readonly deadlineAt: number;
  retries: number;
}

/** One attempt, given the fetch's deadline and how to ask for a retry's wait. */
export type SendAttempt = (signal: AbortSignal, retryDelay: () => number | undefined) => Promise<Attempt>;

/**
 * A subgraph's retries (within the fetch's timeout and a retry budget) and its circuit
 * breaker, around the attempts of each fetch.
 */
export class RetryingFetch {
  readonly #options: RetryingFetchOptions;
  readonly #budget: RetryBudget | undefined;
  readonly #breaker: CircuitBreaker | undefined;

  constructor(options: RetryingFetchOptions) {
    this.#options = options;
    if (options.retry) {
      checkRetryOptions(options.retry);
      this.#budget = new RetryBudget({
        ratio: options.retry.budgetRatio,
        minPerSecond: options.retry.budgetMinPerSecond,
      });
    }
    if (options.circuitBreaker) {
      this.#breaker = new CircuitBreaker(options.circuitBreaker, { onStateChange: options.onCircuitChange });
    }
  }

  /** Attempts until one is received or the failure is final; `retryable`: a query's fetch. */
  async run(retryable: boolean, send: SendAttempt): Promise<Fetched> {
    // One deadline for every attempt and backoff: retries never make a client wait past the timeout.
    const { timeoutMs } = this.#options;
    const signal = AbortSignal.timeout(timeoutMs);
    const fetch: FetchState = {
      retryable: retryable && (this.#options.retry?.maxRetries ?? 0) > 0,
      deadlineAt: performance.now() + timeoutMs,
      retries: 0,
    };
    this.#budget?.recordRequest();
    let failure: Failure | undefined;
    for (let attempt = 1; ; attempt++) {
      const permit = this.#breaker?.acquire();
      if (this.#breaker && !permit) {
        // A retry the breaker refuses leaves the client the failure it retried.
        const refused: Failure = {
          code: ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN,
          what: 'was not asked: it has been failing and its circuit breaker is open',
        };
        return { failure: failure ?? refused, retries: fetch.retries };
      }
      let outcome: Attempt | undefined;
      try {
        outcome = await send(signal, () => this.#retryDelay(fetch, attempt));
      } finally {
        // Always handed back: a half-open breaker waits for its probe's outcome.
        if (permit) this.#breaker?.record(permit, outcome?.unhealthy ?? true);
      }
      if ('received' in outcome) return { received: outcome.received, retries: fetch.retries };
      failure = outcome.failure;
      if (outcome.retryInMs === undefined || (this.#breaker && !this.#breaker.allows())) {
        return { failure, retries: fetch.retries };
      }
      this.#options.onRetry(attempt, failure.code);
      await sleep(outcome.retryInMs);
      fetch.retries++;
    }
  }

  /** The wait before retrying `attempt`, or undefined when it must not be retried; takes the budget. */
  #retryDelay(fetch: FetchState, attempt: number): number | undefined {
    const retry = this.#options.retry;
    if (!retry || !fetch.retryable || fetch.retries >= retry.maxRetries) return undefined;
    const delay = fullJitterDelay(attempt, retry.backoffMs);
    const left = fetch.deadlineAt - performance.now() - delay;
    if (left < this.#options.timeoutMs * RETRY_MIN_TIME_SHARE) return undefined;
    if (this.#breaker && !this.#breaker.allows()) return undefined;
    return this.#budget?.tryWithdraw() ? delay : undefined;
  }
}
