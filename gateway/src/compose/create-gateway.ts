import type { Clock } from '../clock.js';
import type { GatewayConfig } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import { assembleGateway, type Gateway } from '../gateway-core.js';
import type { Logger } from '../logger.js';
import { authorization, claimPolicies, type PolicyDecider } from '../plugins/authorization/index.js';
import { CostEstimator, costDeclarations } from '../plugins/demand-control/cost-estimator.js';
import { demandControl } from '../plugins/demand-control/index.js';
import { inboundDeduplication } from '../plugins/inbound-dedup/index.js';
import { operationLimits } from '../plugins/operation-limits/index.js';
import { operationResolution } from '../plugins/operation-resolution/index.js';
import { requestLog } from '../plugins/request-log/index.js';
import { requestShape } from '../plugins/request-shape/index.js';
import { responseSizeLimit } from '../plugins/response-size-limit/index.js';
import { entityCacheFromConfig } from './entity-cache-from-config.js';
import { shadowFromConfig } from './shadow-from-config.js';
import { supergraphSourceOf } from './supergraph-from-config.js';
import { trustedDocumentsFromConfig } from './trusted-documents-from-config.js';

export interface CreateGatewayOptions {
  logger: Logger;
  /**
   * The plugins, after the gateway's own checks; hooks run in this order. `config.plugins`
   * is not read here: `createGatewayFromConfig` builds those and puts them first.
   */
  plugins?: readonly GatewayPlugin[];
  /** Decides `@policy` for each request; replaces the AUTHORIZATION_POLICIES rules. */
  policies?: PolicyDecider;
  /** What schedules the supergraph's polls. Default: the real clock. Tests pass their own to move time. */
  clock?: Clock;
  /** The draw for `percent(N)` progressive-override labels (default `Math.random`; tests pass a seeded one). */
  overrideRandom?: () => number;
}

/**
 * A gateway from `config` with the checks every request goes through, then `options.plugins`.
 * Operation limits, demand control and the response size limit are always on (the token
 * limit is enforced by the parser itself): cheap checks first, cost last.
 */
export function createGateway(config: GatewayConfig, options: CreateGatewayOptions): Gateway {
  const { logger } = options;
  // One estimate per request, read by demand control and RATE_LIMIT_COST=estimated alike.
  const costs = new CostEstimator(config.limits.defaultListSize);
  // The operation-limits plugin's options, out of the `limits` group (which holds the others' too).
  const { maxDepth, maxAliases, maxRootFields, maxCharacters, maxFields } = config.limits;
  const plugins: GatewayPlugin[] = [
    requestLog(logger),
    costDeclarations(costs),
    // Trusted documents before everything: a refused operation is never parsed, checked or
    // planned. They resolve `extensions.persistedQuery` themselves (any manifest id is one).
    // Their load events reach every plugin, so they read the list once it is complete.
    ...trustedDocumentsFromConfig(config, logger, () => plugins),
    // Then the request's JSON: how deep it nests, a well-formed automatic persisted query.
    requestShape(),
    operationResolution(),
    operationLimits({ maxDepth, maxAliases, maxRootFields, maxCharacters, maxFields }),
    ...(config.limits.maxCost > 0 ? [demandControl({ maxCost: config.limits.maxCost })] : []),
    // The supergraph's @authenticated, @requiresScopes and @policy (a no-op when it has none).
    // config.authorization is the plugin's options, the built-in policies given as claim rules.
    authorization({
      ...config.authorization,
      policies: options.policies ?? claimPolicies(config.authorization.policies),
      logger: logger.child({ component: 'authorization' }),
    }),
    responseSizeLimit(),
    ...(options.plugins ?? []),
    // Its fetch wrapper runs after every plugin's onSubgraphRequest, whatever its place here.
    ...entityCacheFromConfig(config, logger, () => plugins),
    // SHADOW_URL / SHADOW_SUPERGRAPH: reads each answer as written, mirrors it once sent.
    ...shadowFromConfig(config, logger, () => plugins, createGateway, options.clock),
    // Identical queries in flight share one execution: last, so every caller passed every check.
    ...(config.inboundDeduplicate
      ? [inboundDeduplication({ plugins: () => plugins, logger: logger.child({ component: 'inbound-dedup' }) })]
      : []),
  ];
  return assembleGateway(config, {
    logger,
    supergraph: supergraphSourceOf(config),
    plugins,
    estimateCost: (request) => costs.costOf(request),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.overrideRandom && { overrideRandom: options.overrideRandom }),
  });
}
