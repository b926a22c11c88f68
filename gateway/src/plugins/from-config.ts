import type { GatewayConfig, PluginName } from '../config/types.js';
import type { CostEstimator } from '../demand-control/cost-estimator.js';
import type { Logger } from '../logger.js';
import { apiKeyAuth } from './api-key-auth.js';
import { clientAwareness } from './client-awareness.js';
import { type HeaderRulesOptions, headerRules } from './header-rules.js';
import { type JwtAlgorithm, jwtAuth } from './jwt-auth.js';
import { rateLimit } from './rate-limit/index.js';
import { responseHeaders } from './response-headers.js';
import type { GatewayPlugin } from './types.js';

/** Builds the plugins `config.plugins` names, in that (hook) order, each from its settings. */
export function pluginsFromConfig(config: GatewayConfig, logger: Logger, costs: CostEstimator): GatewayPlugin[] {
  const factories: Record<PluginName, () => GatewayPlugin> = {
    'header-rules': () => headerRules(config.headerRules as HeaderRulesOptions),
    'client-awareness': () =>
      clientAwareness({ nameClaim: config.clientNameClaim, versionClaim: config.clientVersionClaim }),
    jwt: () =>
      jwtAuth({
        algorithms: config.jwtAlgorithms as JwtAlgorithm[],
        ...(config.jwtJwksUrl !== undefined && { jwksUrl: config.jwtJwksUrl }),
        ...(config.jwtJwksFile !== undefined && { jwksFile: config.jwtJwksFile }),
        ...(config.jwtSecret !== undefined && { secret: config.jwtSecret }),
        ...(config.jwtIssuer !== undefined && { issuer: config.jwtIssuer }),
        ...(config.jwtAudience !== undefined && { audience: config.jwtAudience }),
        ...(config.jwtCookie !== undefined && { cookieName: config.jwtCookie }),
        jwksTimeoutMs: config.jwtJwksTimeoutMs,
        jwksCooldownMs: config.jwtJwksCooldownMs,
        jwksCacheMaxAgeMs: config.jwtJwksCacheMaxAgeMs,
        clockToleranceSec: config.jwtClockToleranceSec,
        required: config.jwtRequired,
        header: config.jwtHeader,
        scheme: config.jwtPrefix,
        claimHeaders: config.jwtClaimHeaders,
        forwardToken: config.jwtForwardToken,
        // Without it a JWKS outage would never be logged (the plugin's lines carry `plugin` themselves).
        logger,
      }),
    'api-key': () => apiKeyAuth({ keys: config.apiKeys, header: config.apiKeyHeader }),
    'rate-limit': () =>
      rateLimit({
        max: config.rateLimitMax,
        windowMs: config.rateLimitWindowMs,
        keyBy: config.rateLimitKey,
        ...(config.rateLimitCost === 'estimated' && { cost: (request) => costs.costOf(request) }),
        failureMode: config.rateLimitFailureMode,
        ...(config.redisUrl !== undefined && { redisUrl: config.redisUrl }),
        logger, // the plugin adds `plugin: 'rate-limit'` itself
      }),
    'response-headers': () => responseHeaders({ headers: [...config.responseHeaders] }),
  };
  return config.plugins.map((name) => factories[name]());
}
