// ADR 019 prototype, not part of the build: gateway/src/subgraph-fetch/retrying-fetch.ts on
// cockatiel 4.0.0 with the same API, in place of ours and of resilience/circuit-breaker.ts's class.
// Copied over retrying-fetch.ts in a scratch copy of the repository (cockatiel installed beside it),
// it passes gateway/test/subgraph-*.test.ts and tests/adversarial/shared-breaker.test.ts. Lines
// marked "Glue" are what our semantics add to cockatiel's.
import {
  BrokenCircuitError,
  type CircuitBreakerPolicy,
  CircuitState as CockatielState,
  circuitBreaker,
  DelegateBackoff,
  handleAll,
  handleWhenResult,
  type RetryPolicy,
  retry,
  SamplingBreaker,
} from 'cockatiel';
import type { CircuitState } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { fullJitterDelay } from '../resilience/backoff.js';
import {
  CIRCUIT_WINDOW_MS,
  type CircuitBreakerOptions,
  checkCircuitBreakerOptions,
} from '../resilience/circuit-breaker.js';
import { RetryBudget } from '../resilience/retry-budget.js';
import { checkRetryOptions, type SubgraphRetryOptions } from '../resilience/retry-policy.js';
import type { Attempt, Failure, Fetched } from './outcomes.js';

const RETRY_MIN_TIME_SHARE = 0.1;

export interface RetryingFetchOptions {
  readonly timeoutMs: number;
  readonly retry?: SubgraphRetryOptions | undefined;
  readonly circuitBreaker?: CircuitBreakerOptions | undefined;
  readonly onCircuitChange: (state: CircuitState) => void;
  readonly onRetry: (attempt: number, code: ClientErrorCode) => void;
}
export interface AttemptControl {
  readonly signal: AbortSignal;
  retryDelay(): number | undefined;
}
export interface Attempter<Request> {
  send(request: Request, control: AttemptControl): Promise<Attempt>;
}

// Glue: cockatiel's states are numbers, ours are names; Isolated is never used.
const STATE_NAMES: Record<CockatielState, CircuitState> = {
  [CockatielState.Closed]: 'closed',
  [CockatielState.Open]: 'open',
  [CockatielState.HalfOpen]: 'half-open',
  [CockatielState.Isolated]: 'open',
};

const refused: Failure = {
  code: ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN,
  what: 'was not asked: it has been failing and its circuit breaker is open',
};

export class RetryingFetch {
  readonly #timeoutMs: number;
  readonly #retryOptions: SubgraphRetryOptions | undefined;
  readonly #budget: RetryBudget | undefined;
  readonly #breaker: CircuitBreakerPolicy | undefined;
  readonly #cooldownMs: number;
  readonly #retry: RetryPolicy;
  // Glue: cockatiel keeps when it opened to itself (and on Date.now()); `allows()` needs it.
  #openedAt = 0;

  constructor(options: RetryingFetchOptions) {
    this.#timeoutMs = options.timeoutMs;
    this.#retryOptions = options.retry;
    if (options.retry) {
      checkRetryOptions(options.retry);
      this.#budget = new RetryBudget({
        ratio: options.retry.budgetRatio,
        minPerSecond: options.retry.budgetMinPerSecond,
      });
    }
    this.#cooldownMs = options.circuitBreaker?.cooldownMs ?? 0;
    if (options.circuitBreaker) {
      checkCircuitBreakerOptions(options.circuitBreaker);
      const { failureRate, minRequests, cooldownMs } = options.circuitBreaker;
      this.#breaker = circuitBreaker(
        handleAll.orWhenResult((attempt) => (attempt as Attempt).unhealthy),
        {
          halfOpenAfter: cooldownMs,
          breaker: new SamplingBreaker({
            // Glue: cockatiel opens above the threshold and refuses 1; ours opens at the rate.
            threshold: Math.min(Math.max(failureRate - 1e-9, 1e-9), 1 - 1e-9),
            duration: CIRCUIT_WINDOW_MS,
            // Glue: a minimum count over the window, written as the rate cockatiel asks for.
            minimumRps: minRequests / (CIRCUIT_WINDOW_MS / 1000),
          }),
        },
      );
      this.#breaker.onStateChange((state) => {
        if (state === CockatielState.Open) this.#openedAt = performance.now();
        options.onCircuitChange(STATE_NAMES[state]);
      });
    }
    // Glue: the wait is decided inside the attempt (it may discard the body only if a retry follows).
    this.#retry = retry(
      handleWhenResult((attempt) => (attempt as Attempt & { retryInMs?: number }).retryInMs !== undefined),
      {
        maxAttempts: options.retry?.maxRetries ?? 0,
        backoff: new DelegateBackoff((context) => (context.result as { value: { retryInMs: number } }).value.retryInMs),
      },
    );
    this.#retry.onRetry((event) => {
      const { failure } = (event as unknown as { value: { failure: Failure } }).value;
      options.onRetry(event.attempt, failure.code);
    });
  }

  /** Whether the breaker would let an attempt through now. */
  allows(): boolean {
    const breaker = this.#breaker;
    if (!breaker || breaker.state === CockatielState.Closed) return true;
    if (breaker.state === CockatielState.HalfOpen) return false;
    return performance.now() - this.#openedAt >= this.#cooldownMs;
  }

  async run<Request>(retryable: boolean, attempter: Attempter<Request>, request: Request): Promise<Fetched> {
    const fetch = new FetchState(this, this.#timeoutMs, this.#retryOptions, this.#budget, retryable);
    this.#budget?.recordRequest();
    const breaker = this.#breaker;
    try {
      const outcome: Attempt = await this.#retry.execute(async ({ attempt }) => {
        fetch.attempt = attempt + 1;
        fetch.retries = attempt;
        if (!breaker) return attempter.send(request, fetch);
        // Glue: cockatiel makes callers wait for a half-open probe; ours refuses them.
        if (breaker.state === CockatielState.HalfOpen) throw new BrokenCircuitError();
        const outcome = (await breaker.execute(() => attempter.send(request, fetch))) as Attempt;
        if ('failure' in outcome) fetch.failure = outcome.failure;
        // Glue: ours does not retry into a breaker that would refuse the retry.
        if ('retryInMs' in outcome && !this.allows()) return { ...outcome, retryInMs: undefined };
        return outcome;
      }, fetch.signal);
      if ('received' in outcome) return { received: outcome.received, retries: fetch.retries };
      return { failure: outcome.failure, retries: fetch.retries };
    } catch (error) {
      // Glue: a retry the breaker refuses leaves the client the failure it retried (cockatiel throws).
      if (error instanceof BrokenCircuitError) return { failure: fetch.failure ?? refused, retries: fetch.retries };
      throw error;
    }
  }
}

class FetchState implements AttemptControl {
  readonly signal: AbortSignal;
  readonly #deadlineAt: number;
  attempt = 1;
  retries = 0;
  failure: Failure | undefined;

  constructor(
    readonly owner: RetryingFetch,
    readonly timeoutMs: number,
    readonly retry: SubgraphRetryOptions | undefined,
    readonly budget: RetryBudget | undefined,
    readonly retryable: boolean,
  ) {
    this.signal = AbortSignal.timeout(timeoutMs);
    this.#deadlineAt = performance.now() + timeoutMs;
    this.retryable = retryable && (retry?.maxRetries ?? 0) > 0;
  }

  retryDelay(): number | undefined {
    const retry = this.retry;
    if (!retry || !this.retryable || this.retries >= retry.maxRetries) return undefined;
    const delay = fullJitterDelay(this.attempt, retry.backoffMs);
    if (this.#deadlineAt - performance.now() - delay < this.timeoutMs * RETRY_MIN_TIME_SHARE) return undefined;
    if (!this.owner.allows()) return undefined;
    return this.budget?.tryWithdraw() ? delay : undefined;
  }
}
