import type { IncomingHttpHeaders } from 'node:http';
import type {
  GatewayContext,
  GatewayPlugin,
  SubgraphHookAnswer,
  SubgraphRequest,
  SubgraphResult,
} from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import type { Logger } from '../logger.js';
import type { Failure } from './outcomes.js';

/** A plugin answered the request itself. */
export interface PluginAnswer {
  readonly answeredBy: string;
  readonly result: SubgraphResult;
}

/** How the request hooks ended: nothing to do (ask the subgraph), a plugin's answer, or a hook's failure. */
export type RequestOutcome = PluginAnswer | { failure: Failure } | undefined;

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | undefined)?.then === 'function';

/**
 * The plugins' subgraph hooks for one subgraph. A hook that throws is a bug in that plugin,
 * not a subgraph outage: it is logged with the plugin's name and the request fails as an
 * internal error.
 */
export class SubgraphHooks {
  readonly #subgraph: string;
  readonly #logger: Logger | undefined;
  readonly #requestHooks: readonly GatewayPlugin[];
  readonly #responseHooks: readonly GatewayPlugin[];
  readonly #fetchWrappers: readonly GatewayPlugin[];

  constructor(subgraph: string, plugins: readonly GatewayPlugin[], logger: Logger | undefined) {
    this.#subgraph = subgraph;
    this.#logger = logger;
    this.#requestHooks = plugins.filter((plugin) => plugin.onSubgraphRequest);
    this.#responseHooks = plugins.filter((plugin) => plugin.onSubgraphResponse);
    this.#fetchWrappers = plugins.filter((plugin) => plugin.aroundSubgraphFetch);
  }

  get hasRequestHooks(): boolean {
    return this.#requestHooks.length > 0;
  }

  /** The plugins whose `aroundSubgraphFetch` wraps each fetch, outermost first. */
  get fetchWrappers(): readonly GatewayPlugin[] {
    return this.#fetchWrappers;
  }

  /**
   * `onSubgraphRequest` in order: undefined to ask the subgraph, a plugin's answer, or the
   * failure of a hook. Synchronous while every hook is; a Promise from the first hook that
   * returned one (the hooks after it run once it settles).
   */
  request(request: SubgraphRequest): RequestOutcome | Promise<RequestOutcome> {
    return this.#requestFrom(0, request);
  }

  #requestFrom(first: number, request: SubgraphRequest): RequestOutcome | Promise<RequestOutcome> {
    for (let index = first; index < this.#requestHooks.length; index++) {
      const plugin = this.#requestHooks[index] as GatewayPlugin;
      let result: SubgraphHookAnswer | Promise<SubgraphHookAnswer>;
      try {
        result = plugin.onSubgraphRequest?.(request);
      } catch (error) {
        return { failure: this.#failed(plugin, request.context, error) };
      }
      if (isThenable(result)) {
        return Promise.resolve(result).then(
          (answer): RequestOutcome | Promise<RequestOutcome> =>
            answer ? { answeredBy: plugin.name, result: answer } : this.#requestFrom(index + 1, request),
          (error: unknown) => ({ failure: this.#failed(plugin, request.context, error) }),
        );
      }
      if (result) return { answeredBy: plugin.name, result };
    }
    return undefined;
  }

  /** The failure to answer when an `aroundSubgraphFetch` hook threw or rejected. */
  wrapperFailed(plugin: GatewayPlugin, context: GatewayContext, error: unknown): Failure {
    return this.#failed(plugin, context, error);
  }

  /** `onSubgraphResponse` in order; the failure of a hook that threw. */
  response(
    context: GatewayContext,
    headers: IncomingHttpHeaders,
    result: SubgraphResult,
    answeredBy?: string,
  ): Failure | undefined {
    if (this.#responseHooks.length === 0) return undefined;
    const response = { subgraph: this.#subgraph, headers, context, result, ...(answeredBy && { answeredBy }) };
    for (const plugin of this.#responseHooks) {
      try {
        plugin.onSubgraphResponse?.(response);
      } catch (error) {
        return this.#failed(plugin, context, error);
      }
    }
    return undefined;
  }

  #failed(plugin: GatewayPlugin, context: GatewayContext, error: unknown): Failure {
    this.#logger?.error(
      { err: error, plugin: plugin.name, subgraph: this.#subgraph, requestId: context.requestId },
      'plugin subgraph hook failed',
    );
    return { code: ClientErrorCode.INTERNAL_SERVER_ERROR, what: `request failed in the ${plugin.name} plugin` };
  }
}
