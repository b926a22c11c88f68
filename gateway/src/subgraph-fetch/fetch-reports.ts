import type { CircuitState, GatewayPlugin } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { emitEvent } from '../events.js';
import { LogThrottle } from '../log-throttle.js';
import type { Logger } from '../logger.js';
import type { Failure, Report } from './outcomes.js';

/** At most this many "subgraph fetch failed" lines per subgraph per interval. */
const FAILURE_LOG_LIMIT = 10;
const FAILURE_LOG_INTERVAL_MS = 10_000;
/** At most this many circuit state lines per subgraph per minute (a flapping subgraph). */
const CIRCUIT_LOG_LIMIT = 10;
const CIRCUIT_LOG_INTERVAL_MS = 60_000;

/**
 * What one subgraph's fetches tell the outside: events for observing plugins (metrics,
 * tracing) and warnings in the log, throttled per subgraph so an outage cannot flood it.
 * Never a URL or a body.
 */
export class FetchReports {
  readonly #subgraph: string;
  readonly #logger: Logger | undefined;
  readonly #observers: readonly GatewayPlugin[];
  readonly #failureLog = new LogThrottle(FAILURE_LOG_LIMIT, FAILURE_LOG_INTERVAL_MS);
  readonly #circuitLog = new LogThrottle(CIRCUIT_LOG_LIMIT, CIRCUIT_LOG_INTERVAL_MS);

  constructor(subgraph: string, plugins: readonly GatewayPlugin[], logger: Logger | undefined) {
    this.#subgraph = subgraph;
    this.#logger = logger;
    this.#observers = plugins.filter((plugin) => plugin.onEvent);
  }

  /** A fetch ended with `failure`: logged (an open circuit once, when it opens; a shared fetch by its sender) and reported. */
  failed(failure: Failure, report: Report): void {
    if (failure.code === ClientErrorCode.INTERNAL_SERVER_ERROR) return; // a plugin's bug, logged where it happened
    if (failure.code !== ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN && !report.joined) this.#logFailure(failure, report);
    this.fetched(failure.code, report);
  }

  /** Tells observing plugins how the fetch ended, once per caller. */
  fetched(outcome: 'ok' | ClientErrorCode, report: Report): void {
    if (this.#observers.length === 0) return;
    const { context, startedAt, retries = 0, joined } = report;
    emitEvent(
      this.#observers,
      {
        type: 'subgraph-fetch',
        subgraph: this.#subgraph,
        durationMs: performance.now() - startedAt,
        outcome,
        retries,
        ...(context && { requestId: context.requestId }),
        ...(joined && { deduplicated: true }),
      },
      this.#logger,
    );
  }

  retried(attempt: number, code: ClientErrorCode): void {
    emitEvent(this.#observers, { type: 'subgraph-retry', subgraph: this.#subgraph, attempt, code }, this.#logger);
  }

  /** Logs (warn, throttled) and reports a change of the subgraph's circuit breaker. */
  circuitChanged(state: CircuitState): void {
    const logger = this.#logger;
    const suppressed = logger?.isLevelEnabled('warn') ? this.#circuitLog.take() : undefined;
    if (suppressed !== undefined) {
      logger?.warn(
        { subgraph: this.#subgraph, state, ...(suppressed > 0 && { suppressedSinceLastLine: suppressed }) },
        'subgraph circuit breaker state changed',
      );
    }
    emitEvent(this.#observers, { type: 'circuit-state', subgraph: this.#subgraph, state }, logger);
  }

  #logFailure(failure: Failure, { context, startedAt, retries = 0 }: Report): void {
    const logger = this.#logger;
    if (!logger?.isLevelEnabled('warn')) return;
    const suppressed = this.#failureLog.take();
    if (suppressed === undefined) return;
    logger.warn(
      {
        subgraph: this.#subgraph,
        code: failure.code,
        durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000,
        ...(context && { requestId: context.requestId }),
        ...failure.detail,
        ...(retries > 0 && { retries }),
        ...(suppressed > 0 && { suppressedSinceLastLine: suppressed }),
      },
      'subgraph fetch failed',
    );
  }
}
