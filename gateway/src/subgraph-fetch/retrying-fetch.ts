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
 * with less, it would most likely turn the failure the client gets into GATEWAY_TIMEOUT.
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
  /** The clock of the breaker's cool-down and windows and of the retry budget, in ms. Default: `performance.now()`. */
  readonly now?: (() => number) | undefined;
}

/** What the retry loop hands each attempt. */
export interface AttemptControl {
  /** The fetch's deadline: every attempt and backoff share it. */
  readonly signal: AbortSignal;
  /** This attempt, counted from 1. */
  readonly attempt: number;
  /**
   * Asked when a failure may be retried (no answer, or 502/503): the wait before the retry,
   * or undefined for none. A wait it gives has taken the retry budget.
   */
  retryDelay(): number | undefined;
}

/** Sends a request once and says how it ended (http-attempt.ts). */
export interface Attempter<Request> {
  send(request: Request, control: AttemptControl): Promise<Attempt>;
  /** Told of an attempt the circuit breaker refused (nothing sent), for its observers. */
  refused?(control: AttemptControl): void;
}

/** What decides whether a failed attempt is retried; one per subgraph. */
interface RetryRules {
  readonly timeoutMs: number;
  readonly retry: SubgraphRetryOptions | undefined;
  readonly budget: RetryBudget | undefined;
  readonly breaker: CircuitBreaker | undefined;
}

/**
 * One fetch across its attempts. A class rather than a closure per attempt: the hot path
 * allocates this one object per fetch, as the loop it replaced did.
 */
class FetchState implements AttemptControl {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  /**
   * The deadline's timer, cleared as soon as the fetch ends. Not `AbortSignal.timeout`: its
   * timer, weak reference and finalization cell live the whole timeout (30 s by default) after
   * a fetch that took milliseconds, so every fetch left them to be promoted to the old
   * generation (issue 31's heap profile: the largest single site of what survived scavenges).
   */
  readonly #timer: NodeJS.Timeout;
  readonly #rules: RetryRules;
  readonly #retryable: boolean;
  /** When the fetch's time (SUBGRAPH_TIMEOUT_MS) runs out, on the `performance.now()` clock. */
  readonly #deadlineAt: number;
  attempt = 1;
  retries = 0;

  constructor(rules: RetryRules, retryable: boolean) {
    this.#rules = rules;
    this.signal = this.#controller.signal;
    const controller = this.#controller;
    const ms = rules.timeoutMs;
    // The reason AbortSignal.timeout gives, for anything that reads it.
    this.#timer = setTimeout(
      () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      ms,
    ).unref();
    this.#retryable = retryable && (rules.retry?.maxRetries ?? 0) > 0;
    this.#deadlineAt = performance.now() + rules.timeoutMs;
  }

  /** The fetch is over: its timer goes now, not when the timeout would have run out. */
  end(): void {
    clearTimeout(this.#timer);
  }

  retryDelay(): number | undefined {
    const { retry, breaker, budget, timeoutMs } = this.#rules;
    if (!retry || !this.#retryable || this.retries >= retry.maxRetries) return undefined;
    const delay = fullJitterDelay(this.attempt, retry.backoffMs);
    const left = this.#deadlineAt - performance.now() - delay;
    if (left < timeoutMs * RETRY_MIN_TIME_SHARE) return undefined;
    if (breaker && !breaker.allows()) return undefined;
    return budget?.tryWithdraw() ? delay : undefined;
  }
}

/**
 * A subgraph's retries (within the fetch's timeout and a retry budget) and its circuit
 * breaker, around the attempts of each fetch.
 */
export class RetryingFetch {
  readonly #onRetry: (attempt: number, code: ClientErrorCode) => void;
  readonly #rules: RetryRules;

  constructor(options: RetryingFetchOptions) {
    this.#onRetry = options.onRetry;
    if (options.retry) checkRetryOptions(options.retry);
    this.#rules = {
      timeoutMs: options.timeoutMs,
      retry: options.retry,
      budget: options.retry
        ? new RetryBudget({
            ratio: options.retry.budgetRatio,
            minPerSecond: options.retry.budgetMinPerSecond,
            ...(options.now ? { now: options.now } : {}),
          })
        : undefined,
      breaker: options.circuitBreaker
        ? new CircuitBreaker(options.circuitBreaker, {
            onStateChange: options.onCircuitChange,
            ...(options.now ? { now: options.now } : {}),
          })
        : undefined,
    };
  }

  /** Sends `request` with `attempter` until it is received or the failure is final; `retryable`: a query's fetch. */
  async run<Request>(retryable: boolean, attempter: Attempter<Request>, request: Request): Promise<Fetched> {
    // One deadline for every attempt and backoff: retries never make a client wait past the timeout.
    const fetch = new FetchState(this.#rules, retryable);
    try {
      return await this.#attempts(fetch, attempter, request);
    } finally {
      fetch.end();
    }
  }

  async #attempts<Request>(fetch: FetchState, attempter: Attempter<Request>, request: Request): Promise<Fetched> {
    const { budget, breaker } = this.#rules;
    budget?.recordRequest();
    let failure: Failure | undefined;
    for (; ; fetch.attempt++) {
      const permit = breaker?.acquire();
      if (breaker && !permit) {
        attempter.refused?.(fetch);
        // A retry the breaker refuses leaves the client the failure it retried.
        const refused: Failure = {
          code: ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN,
          what: 'was not asked: it has been failing and its circuit breaker is open',
        };
        return { failure: failure ?? refused, retries: fetch.retries };
      }
      let outcome: Attempt | undefined;
      try {
        outcome = await attempter.send(request, fetch);
      } finally {
        // Always handed back: a half-open breaker waits for its probe's outcome.
        if (permit) breaker?.record(permit, outcome?.unhealthy ?? true);
      }
      if ('received' in outcome) return { received: outcome.received, retries: fetch.retries };
      failure = outcome.failure;
      if (outcome.retryInMs === undefined || (breaker && !breaker.allows())) {
        return { failure, retries: fetch.retries };
      }
      this.#onRetry(fetch.attempt, failure.code);
      await sleep(outcome.retryInMs);
      fetch.retries++;
    }
  }
}
