import { SlidingCounts } from './sliding-counts.js';

/** Requests and retries are counted over this window (Finagle's and Apollo Router's 10 s TTL). */
export const RETRY_BUDGET_WINDOW_MS = 10_000;

export interface RetryBudgetOptions {
  /** Retries may be at most this share of the requests in the window (0.1: 10 % extra load). */
  ratio: number;
  /** Retries allowed per second whatever the traffic, so a quiet subgraph can still be retried. */
  minPerSecond: number;
  /** Default: `RETRY_BUDGET_WINDOW_MS`. */
  windowMs?: number;
  now?: () => number;
}

/**
 * A subgraph's retry budget (Finagle's RetryBudget, Envoy's retry budgets): retries in the
 * last window may be at most `ratio` × requests + `minPerSecond` × window seconds. When a
 * subgraph fails every request, retries stay a bounded share of the traffic instead of
 * multiplying it, so they cannot deepen the outage they react to.
 */
export class RetryBudget {
  readonly #ratio: number;
  readonly #reserve: number;
  readonly #counts: SlidingCounts<'requests' | 'retries'>;

  constructor(options: RetryBudgetOptions) {
    const windowMs = options.windowMs ?? RETRY_BUDGET_WINDOW_MS;
    this.#ratio = options.ratio;
    this.#reserve = options.minPerSecond * (windowMs / 1000);
    this.#counts = new SlidingCounts(['requests', 'retries'], windowMs, 10, options.now ?? (() => performance.now()));
  }

  /** A first attempt: it earns `ratio` of a retry. */
  recordRequest(): void {
    this.#counts.add('requests');
  }

  /** Takes one retry from the budget; false when it is spent (do not retry). */
  tryWithdraw(): boolean {
    const allowed = this.#reserve + this.#ratio * this.#counts.total('requests');
    if (this.#counts.total('retries') + 1 > allowed) return false;
    this.#counts.add('retries');
    return true;
  }
}
