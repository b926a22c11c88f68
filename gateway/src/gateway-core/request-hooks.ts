import { GraphQLError } from 'graphql';
import { type CostOf, createContext } from '../context.js';
import type { GatewayContext, GatewayPlugin, Identity, RequestScope } from '../contract/index.js';
import type { CoreSettings } from '../core-settings.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import type { Logger } from '../logger.js';

export type RunRequest = <T>(scope: RequestScope, handler: () => T) => T;
export type OnResponse = (scope: RequestScope, status: number) => void;

/** Builds a request's context: every plugin's `authenticate`, merged into one frozen identity. */
export function contextBuilder(
  config: CoreSettings,
  plugins: readonly GatewayPlugin[],
  logger: Logger,
  estimateCost: CostOf | undefined,
): (scope: RequestScope) => Promise<GatewayContext> {
  const authenticators = plugins.filter((plugin) => plugin.authenticate);
  return async (scope: RequestScope) => {
    let identity: Identity = {};
    for (const plugin of authenticators) {
      const found = await authenticateWith(plugin, scope, identity, logger);
      if (found) identity = { ...identity, ...found };
    }
    const context = createContext(scope, Object.freeze(identity), config.limits.maxResponseBytes, estimateCost);
    // Who made the request, for its log line (absent when authentication rejected it).
    scope.identity = context.identity;
    return context;
  };
}

/** Runs a request inside every plugin's `aroundRequest`; only when a plugin wraps requests (tracing), so adapters pay nothing otherwise. */
export function requestRunner(plugins: readonly GatewayPlugin[]): RunRequest | undefined {
  const wrappers = plugins.flatMap((plugin) => (plugin.aroundRequest ? [plugin.aroundRequest.bind(plugin)] : []));
  return wrappers.length > 0
    ? <T>(scope: RequestScope, handler: () => T): T =>
        wrappers.reduceRight<() => T>((next, wrap) => () => wrap(scope, next), handler)()
    : undefined;
}

/** Tells every plugin's `onResponse` a request's status. */
export function responseHook(plugins: readonly GatewayPlugin[], runRequest: RunRequest | undefined): OnResponse {
  const responders = plugins.filter((plugin) => plugin.onResponse);
  const respond = (scope: RequestScope, status: number) => {
    for (const plugin of responders) plugin.onResponse?.(scope, status);
  };
  // Inside the request's wrappers too (tracing: its span), so the request's log line joins its trace.
  return runRequest
    ? (scope: RequestScope, status: number) => runRequest(scope, () => respond(scope, status))
    : respond;
}

/**
 * Runs one plugin's `authenticate`. A rejection made with `httpError()` (401, 400…) is the
 * plugin's answer; anything else is a bug in that plugin: logged with its name and
 * answered 500 INTERNAL_SERVER_ERROR, never passed off as the client's fault.
 */
async function authenticateWith(
  plugin: GatewayPlugin,
  scope: RequestScope,
  established: Identity,
  logger: Logger,
): Promise<Partial<Identity> | undefined> {
  try {
    return await plugin.authenticate?.(scope, established);
  } catch (error) {
    if (error instanceof GraphQLError && error.extensions.http) throw error;
    logger.error({ err: error, plugin: plugin.name, requestId: scope.requestId }, 'plugin authenticate hook failed');
    throw httpError(ClientErrorCode.INTERNAL_SERVER_ERROR, 'Internal server error');
  }
}
