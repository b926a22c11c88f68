import type {
  ExecutionRequest,
  ExecutionResult,
  GatewayContext,
  GatewayPlugin,
  SubgraphResponse,
} from '../../plugin-sdk/index.js';
import { emitEvent, type Logger, markShared, mayDefer, shareableHeaders } from '../../plugin-sdk/index.js';
import { deduplicationKey } from './key.js';

export interface InboundDeduplicationOptions {
  /** Every gateway plugin: subgraph response hooks are replayed for callers that joined. */
  plugins: () => readonly GatewayPlugin[];
  logger: Logger;
}

/** The plugin (put it last: it runs after every other plugin's checks). */
export function inboundDeduplication(options: InboundDeduplicationOptions): GatewayPlugin {
  return new InboundDeduplication(options).plugin;
}

/** One execution in flight, and what its subgraphs answered (for the callers that join it). */
interface Execution {
  readonly result: Promise<ExecutionResult>;
  readonly leader: GatewayContext;
  readonly responses: SubgraphResponse[];
}

/**
 * Inbound request deduplication (INBOUND_DEDUPLICATE): identical queries in flight at the
 * same time share one execution, so N callers cost one query plan run and one set of
 * subgraph fetches. It wraps the execution (`aroundExecute`), so it runs after everything
 * per request (authentication, rate limit, operation limits, demand
 * control, trusted documents all still see every caller) and before any subgraph is called.
 * Each caller keeps its own HTTP request and response (status, headers, request id,
 * log line): only the execution result is shared, as a copy per caller.
 *
 * Only queries: a mutation runs once per request, whatever its twins. The key
 * (`deduplicationKey`) covers every fact a plugin or subgraph request could read, so callers
 * with different credentials, cookies or client headers never share an answer.
 *
 * Nothing a client does cancels an execution (the gateway never aborts subgraph fetches
 * when a client goes away), so a caller that disconnects does not cancel the others.
 */
class InboundDeduplication {
  readonly #options: InboundDeduplicationOptions;
  readonly #inFlight = new Map<string, Execution>();
  /** The subgraph responses of each execution in flight, by the context that runs it. */
  readonly #recording = new WeakMap<GatewayContext, SubgraphResponse[]>();
  /** Executes or joins, and records subgraph responses for the callers that join. */
  readonly plugin: GatewayPlugin;

  constructor(options: InboundDeduplicationOptions) {
    this.#options = options;
    this.plugin = {
      name: 'inbound-dedup',
      onSubgraphResponse: (response) => {
        this.#recording.get(response.context)?.push(response);
      },
      aroundExecute: (request, execute) => this.#execute(request, execute),
    };
  }

  async #execute(request: ExecutionRequest, execute: () => Promise<ExecutionResult>): Promise<ExecutionResult> {
    // Only queries: a mutation (or subscription) runs once per request, whatever its twins.
    if (request.operation.operation !== 'query') return execute();
    // Nor one with @defer: its later parts go to the request that ran it only.
    if (mayDefer(request.source)) return execute();
    const context = request.context as GatewayContext;
    const key = deduplicationKey({ ...request, context });
    const running = this.#inFlight.get(key);
    if (running) {
      this.#emit('joined', context);
      this.#options.logger.debug(
        { requestId: context.requestId, leader: running.leader.requestId },
        'joined a query in flight',
      );
      // A failed execution rejects here too: every caller gets the error.
      const result = await running.result;
      // Its data goes to the leader and every joined caller unchanged: one serialization for all.
      markShared(result.data);
      this.#adopt(running, context);
      return copy(result);
    }
    const responses: SubgraphResponse[] = [];
    this.#recording.set(context, responses);
    const result = execute().finally(() => {
      this.#inFlight.delete(key);
      this.#recording.delete(context);
    });
    this.#inFlight.set(key, { result, leader: context, responses });
    this.#emit('executed', context);
    return copy(await result);
  }

  /**
   * Gives a caller that joined what its own execution would have left in its context: the
   * subgraph response headers (header rules pass them back to the client) and the bytes
   * counted against its response budget (the key makes both budgets the same size).
   */
  #adopt(execution: Execution, context: GatewayContext): void {
    const spent = execution.leader.responseBudget;
    if (spent.exceeded) context.responseBudget.exceed();
    else if (Number.isFinite(spent.maxBytes)) context.responseBudget.take(spent.maxBytes - spent.remaining);
    const hooks = this.#options.plugins().filter((plugin) => plugin !== this.plugin && plugin.onSubgraphResponse);
    for (const response of execution.responses) {
      for (const plugin of hooks) {
        try {
          // Only the headers about the answer: the leader's cookies are the leader's.
          plugin.onSubgraphResponse?.({ ...response, headers: shareableHeaders(response.headers), context });
        } catch (error) {
          this.#options.logger.error(
            { err: error, plugin: plugin.name, requestId: context.requestId },
            'plugin onSubgraphResponse hook failed',
          );
        }
      }
    }
  }

  #emit(outcome: 'executed' | 'joined', context: GatewayContext): void {
    emitEvent(
      this.#options.plugins(),
      { type: 'inbound-dedup', outcome, requestId: context.requestId },
      this.#options.logger,
    );
  }
}

/**
 * Each caller gets its own result object (Apollo Server and plugins may set `errors` or
 * `extensions` on it). The data itself is shared: it is only serialized, never edited.
 */
function copy(result: ExecutionResult): ExecutionResult {
  return {
    ...result,
    ...(result.errors && { errors: [...result.errors] }),
    ...(result.extensions && { extensions: { ...result.extensions } }),
  };
}
