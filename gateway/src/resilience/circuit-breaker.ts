import type { CircuitState } from '../contract/index.js';
import { OptionIssues } from '../settings/plugin-options.js';
import { RESILIENCE_VALUES } from './settings.js';
import { SlidingCounts } from './sliding-counts.js';

/** Attempts and failures are counted over this window (Hystrix's rolling 10 s). */
export const CIRCUIT_WINDOW_MS = 10_000;

export interface CircuitBreakerOptions {
  /** Opens when at least this share (0..1] of the attempts in the window failed… */
  failureRate: number;
  /** …and at least this many attempts were made in it, so a few failures at low traffic do not open it. */
  minRequests: number;
  /** How long it stays open before one probe is let through (half-open). */
  cooldownMs: number;
}

export interface CircuitBreakerHooks {
  /** Called on every change of state. */
  onStateChange?: (state: CircuitState) => void;
  now?: () => number;
}

/** Permission to send one request; hand it back to `record`. */
export interface CircuitPermit {
  readonly probe: boolean;
  /** Results of requests let through under an earlier state are ignored. */
  readonly generation: number;
}

/** Throws a PluginOptionsError naming every bad option. */
export function checkCircuitBreakerOptions(options: CircuitBreakerOptions): void {
  const issues = new OptionIssues();
  issues.check('circuitBreaker.failureRate', options.failureRate, RESILIENCE_VALUES.circuitFailureRate, true);
  issues.check('circuitBreaker.minRequests', options.minRequests, RESILIENCE_VALUES.circuitMinRequests, true);
  issues.check('circuitBreaker.cooldownMs', options.cooldownMs, RESILIENCE_VALUES.circuitCooldownMs, true);
  issues.throwIfAny('subgraph data source');
}

/**
 * One subgraph's circuit breaker. Closed: requests go through and their outcomes are
 * counted. Open (failure rate over the threshold): requests are refused at once, so a
 * failing subgraph gets time to recover and clients get an answer without waiting for a
 * timeout. After the cool-down, half-open: exactly one probe goes through; its success
 * closes the circuit, its failure opens it for another cool-down.
 */
export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  readonly #onStateChange: (state: CircuitState) => void;
  readonly #now: () => number;
  readonly #counts: SlidingCounts<'attempts' | 'failures'>;
  #state: CircuitState = 'closed';
  #generation = 0;
  #openedAt = 0;
  #probing = false;

  constructor(options: CircuitBreakerOptions, hooks: CircuitBreakerHooks = {}) {
    checkCircuitBreakerOptions(options);
    this.#options = options;
    this.#onStateChange = hooks.onStateChange ?? (() => {});
    this.#now = hooks.now ?? (() => performance.now());
    this.#counts = new SlidingCounts(['attempts', 'failures'], CIRCUIT_WINDOW_MS, 10, this.#now);
  }

  get state(): CircuitState {
    return this.#state;
  }

  /** A permit to send one request now, or undefined while the circuit is open (or a probe is out). */
  acquire(): CircuitPermit | undefined {
    if (this.#state === 'open' && this.#now() - this.#openedAt >= this.#options.cooldownMs) {
      this.#enter('half-open');
    }
    if (this.#state === 'closed') return { probe: false, generation: this.#generation };
    if (this.#state === 'half-open' && !this.#probing) {
      this.#probing = true;
      return { probe: true, generation: this.#generation };
    }
    return undefined;
  }

  /** Whether `acquire` would give a permit now (without taking it). */
  allows(): boolean {
    if (this.#state === 'closed') return true;
    if (this.#state === 'half-open') return !this.#probing;
    return this.#now() - this.#openedAt >= this.#options.cooldownMs;
  }

  /** The outcome of a request sent with `permit`: `failed` when the subgraph failed to answer. */
  record(permit: CircuitPermit, failed: boolean): void {
    if (permit.generation !== this.#generation) return;
    if (permit.probe) {
      this.#probing = false;
      this.#enter(failed ? 'open' : 'closed');
      return;
    }
    this.#counts.add('attempts');
    if (!failed) return;
    this.#counts.add('failures');
    const attempts = this.#counts.total('attempts');
    if (
      attempts >= this.#options.minRequests &&
      this.#counts.total('failures') >= this.#options.failureRate * attempts
    ) {
      this.#enter('open');
    }
  }

  #enter(state: CircuitState): void {
    this.#generation++;
    this.#state = state;
    if (state === 'open') this.#openedAt = this.#now();
    if (state === 'closed') this.#counts.reset();
    this.#onStateChange(state);
  }
}
