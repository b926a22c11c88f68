import type { IncomingHttpHeaders } from 'node:http';
import type { GatewayContext, GatewayPlugin, SubgraphRequest, SubgraphResult } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import type { Logger } from '../logger.js';
import type { Failure } from './outcomes.js';

/** A plugin answered the request itself. */
export interface PluginAnswer {
  readonly answeredBy: string;
  readonly result: SubgraphResult;
}

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

  constructor(subgraph: string, plugins: readonly GatewayPlugin[], logger: Logger | undefined) {
    this.#subgraph = subgraph;
    this.#logger = logger;
    this.#requestHooks = plugins.filter((plugin) => plugin.onSubgraphRequest);
    this.#responseHooks = plugins.filter((plugin) => plugin.onSubgraphResponse);
  }

  get hasRequestHooks(): boolean {
    return this.#requestHooks.length > 0;
  }

  /** `onSubgraphRequest` in order: undefined to ask the subgraph, a plugin's answer, or the failure of a hook. */
  request(request: SubgraphRequest): PluginAnswer | { failure: Failure } | undefined {
    for (const plugin of this.#requestHooks) {
      let result: SubgraphResult | undefined;
      try {
        result = plugin.onSubgraphRequest?.(request) ?? undefined;
      } catch (error) {
        return { failure: this.#failed(plugin, request.context, error) };
      }
      if (result) return { answeredBy: plugin.name, result };
    }
    return undefined;
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
