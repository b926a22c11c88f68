import type { GatewayPlugin, SubgraphAttempt, SubgraphAttemptEnd } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import type { Logger } from '../logger.js';
import type { OutgoingRequest } from './http-attempt.js';
import type { Attempt } from './outcomes.js';
import type { AttemptControl, Attempter } from './retrying-fetch.js';

type AttemptEnd = (end: SubgraphAttemptEnd) => void;

/** Plugins whose attempt hook already failed once: logged once, so a broken observer cannot flood the log. */
const reported = new WeakSet<GatewayPlugin>();

/** Where a subgraph request goes, as an attempt shows it: no user info, no query string (either may hold a key). */
export function attemptTarget(url: string): Pick<SubgraphAttempt, 'url' | 'address' | 'port'> {
  const parsed = new URL(url);
  const port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
  // An IPv6 literal without its brackets, as `server.address` wants it.
  const address = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  return { url: `${parsed.origin}${parsed.pathname}`, address, port };
}

/**
 * A subgraph's HTTP attempts with the plugins' `onSubgraphAttempt` around each one. The data
 * source uses it only when a plugin has that hook (tracing), so without one nothing here runs.
 */
export class ObservedAttempts implements Attempter<OutgoingRequest> {
  readonly #http: Attempter<OutgoingRequest>;
  readonly #subgraph: string;
  readonly #target: Pick<SubgraphAttempt, 'url' | 'address' | 'port'>;
  readonly #observers: readonly GatewayPlugin[];
  readonly #logger: Logger | undefined;

  constructor(
    http: Attempter<OutgoingRequest>,
    subgraph: string,
    url: string,
    observers: readonly GatewayPlugin[],
    logger?: Logger,
  ) {
    this.#http = http;
    this.#subgraph = subgraph;
    this.#target = attemptTarget(url);
    this.#observers = observers;
    this.#logger = logger;
  }

  async send(request: OutgoingRequest, control: AttemptControl): Promise<Attempt> {
    const headers: Record<string, string> = {};
    const ends = this.#start(control.attempt, headers);
    // This attempt's headers (its span's trace context) over the request's, which every attempt shares.
    const sent =
      Object.keys(headers).length > 0 ? { ...request, headers: { ...request.headers, ...headers } } : request;
    const outcome = await this.#http.send(sent, control);
    this.#end(ends, endOf(outcome));
    return outcome;
  }

  refused(control: AttemptControl): void {
    const ends = this.#start(control.attempt, {});
    this.#end(ends, { sent: false, outcome: ClientErrorCode.SUBGRAPH_CIRCUIT_OPEN, retried: false });
  }

  #start(attempt: number, headers: Record<string, string>): [GatewayPlugin, AttemptEnd][] {
    const started: SubgraphAttempt = { subgraph: this.#subgraph, attempt, method: 'POST', ...this.#target, headers };
    const ends: [GatewayPlugin, AttemptEnd][] = [];
    for (const plugin of this.#observers) {
      try {
        const end = plugin.onSubgraphAttempt?.(started);
        if (end) ends.push([plugin, end]);
      } catch (error) {
        this.#failed(plugin, error);
      }
    }
    return ends;
  }

  #end(ends: [GatewayPlugin, AttemptEnd][], end: SubgraphAttemptEnd): void {
    for (const [plugin, observe] of ends) {
      try {
        observe(end);
      } catch (error) {
        this.#failed(plugin, error);
      }
    }
  }

  #failed(plugin: GatewayPlugin, error: unknown): void {
    if (reported.has(plugin)) return;
    reported.add(plugin);
    this.#logger?.error(
      { err: error, plugin: plugin.name, subgraph: this.#subgraph },
      'plugin onSubgraphAttempt hook failed',
    );
  }
}

function endOf(outcome: Attempt): SubgraphAttemptEnd {
  if ('received' in outcome) return { sent: true, status: outcome.received.status, outcome: 'ok', retried: false };
  const status = outcome.failure.detail?.status;
  return {
    sent: true,
    ...(typeof status === 'number' && { status }),
    outcome: outcome.failure.code,
    retried: outcome.retryInMs !== undefined,
  };
}
