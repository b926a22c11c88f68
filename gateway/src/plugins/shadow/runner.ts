import { type Clock, emitEvent, type GatewayPlugin, type Logger, LogThrottle } from '../../plugin-sdk/index.js';
import { type DiffRules, differences } from './diff.js';
import { DifferenceLog } from './difference-log.js';
import { type MirroredQuery, type ShadowAnswer, ShadowFailure, type ShadowTarget } from './target.js';

export interface RunnerParts {
  readonly targets: readonly ShadowTarget[];
  readonly timeoutMs: number;
  readonly maxConcurrency: number;
  readonly maxResponseBytes: number;
  readonly rules: DiffRules;
  readonly logValues: boolean;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly plugins: () => readonly GatewayPlugin[];
}

type Outcome = 'same' | 'differs' | 'shadow_error' | 'dropped';

/**
 * Sends mirrored queries to each target, at most `maxConcurrency` in flight (one more is
 * dropped, never queued), each bounded by `timeoutMs` and `maxResponseBytes`; compares each
 * answer with the client's, counts the outcome (a `shadow` event) and logs differences.
 * Nothing here can throw into the request that was mirrored: it was answered already.
 */
export class ShadowRunner {
  #inFlight = 0;
  readonly #differences: DifferenceLog;
  readonly #failures = new LogThrottle(5, 60_000);
  /** Settles when every shadow in flight has (for `close` and tests). */
  readonly #running = new Set<Promise<void>>();
  /** Aborted when the gateway stops: shadows in flight end at once, none starts. */
  readonly #stopping = new AbortController();

  constructor(private readonly parts: RunnerParts) {
    this.#differences = new DifferenceLog(parts.logger, parts.logValues);
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  mirror(query: MirroredQuery): void {
    if (this.#stopping.signal.aborted) return;
    for (const target of this.parts.targets) {
      if (this.#inFlight >= this.parts.maxConcurrency) {
        this.#count(target, 'dropped');
        continue;
      }
      this.#inFlight++;
      const run = this.#run(target, query).finally(() => {
        this.#inFlight--;
        this.#running.delete(run);
      });
      this.#running.add(run);
    }
  }

  /** Waits for the shadows in flight (they end by their timeout at the latest). */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Waits for the shadows in flight, then logs each difference's final count (for `shadow:report`). */
  async close(): Promise<void> {
    this.#stopping.abort();
    await this.settled();
    this.#differences.flush();
  }

  async #run(target: ShadowTarget, query: MirroredQuery): Promise<void> {
    let outcome: Outcome = 'shadow_error';
    try {
      const answer = await this.#send(target, query);
      const found = differences(query.answer, answer, this.parts.rules);
      outcome = found.length > 0 ? 'differs' : 'same';
      if (found.length > 0) this.#differences.record(target.name, query.resolvedName, found);
    } catch (error) {
      this.#reportFailure(target, error);
    }
    this.#count(target, outcome);
  }

  /** One target's answer within the timeout: the signal aborts the request, the race ends the wait. */
  async #send(target: ShadowTarget, query: MirroredQuery): Promise<ShadowAnswer> {
    const controller = new AbortController();
    let timedOut: () => void = () => undefined;
    const timeout = new Promise<never>((_, reject) => {
      timedOut = () => reject(new ShadowFailure('timeout'));
    });
    const giveUp = () => {
      controller.abort();
      timedOut();
    };
    const timer = this.parts.clock.after(this.parts.timeoutMs, giveUp);
    this.#stopping.signal.addEventListener('abort', giveUp, { once: true });
    try {
      const sending = target.send(query, { maxResponseBytes: this.parts.maxResponseBytes, signal: controller.signal });
      sending.catch(() => undefined); // a late failure after the timeout is not unhandled
      return await Promise.race([sending, timeout]);
    } finally {
      timer.cancel();
      this.#stopping.signal.removeEventListener('abort', giveUp);
      controller.abort();
    }
  }

  #reportFailure(target: ShadowTarget, error: unknown): void {
    const suppressed = this.#failures.take();
    if (suppressed === undefined) return;
    const reason = error instanceof ShadowFailure ? error.reason : 'failed';
    // Never the error's message: a shadow's answer may hold anything.
    this.parts.logger.warn({ shadow: { target: target.name, reason }, suppressed }, 'shadow request failed');
  }

  #count(target: ShadowTarget, outcome: Outcome): void {
    emitEvent(this.parts.plugins(), { type: 'shadow', target: target.name, outcome }, this.parts.logger);
  }
}
