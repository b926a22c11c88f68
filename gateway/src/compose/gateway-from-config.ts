import type { GatewayConfig, PluginName } from '../config/types.js';
import type { GatewayPlugin } from '../contract/index.js';
import type { Gateway } from '../gateway-core.js';
import type { Logger } from '../logger.js';
import { apiKeyAuth } from '../plugins/api-key/index.js';
import { clientAwareness } from '../plugins/client-awareness/index.js';
import { type HeaderRulesOptions, headerRules } from '../plugins/header-rules/index.js';
import { loadShedding } from '../plugins/load-shedding/index.js';
import { responseHeaders } from '../plugins/response-headers/index.js';
import { tracingSettings } from '../plugins/tracing/settings.js';
import { type CreateGatewayOptions, createGateway } from './create-gateway.js';

/**
 * The gateway a deployment configures by environment: the plugins GATEWAY_PLUGINS names
 * (in their fixed hook order), the metrics plugin when METRICS_ENABLED, then
 * `options.plugins` added in code.
 */
export async function createGatewayFromConfig(config: GatewayConfig, options: CreateGatewayOptions): Promise<Gateway> {
  let all: readonly GatewayPlugin[] = [];
  const configured = await pluginsFromConfig(config, options.logger, () => all);
  const metrics = config.metrics.enabled ? await metricsFromConfig(config) : undefined;
  // After the auth plugins (it classes requests by what they verified), before any hook that charges.
  const shedding = sheddingFromConfig(config, () => all);
  all = [...configured, ...(shedding ? [shedding] : []), ...(metrics ? [metrics] : []), ...(options.plugins ?? [])];
  const gateway = createGateway(config, { ...options, plugins: all });
  // The adapters serve it (or, with METRICS_PORT, the server's own listener).
  return metrics ? Object.assign(gateway, { metrics: metrics.endpoint }) : gateway;
}

/** SHED_CLASSES set: the load-shedding plugin from its group of settings. */
function sheddingFromConfig(config: GatewayConfig, plugins: () => readonly GatewayPlugin[]): GatewayPlugin | undefined {
  const { defaultClass, ...options } = config.shedding;
  if (Object.keys(options.classes).length === 0) return undefined;
  return loadShedding({ ...options, ...(defaultClass !== undefined && { defaultClass }), plugins });
}

/** prom-client is imported only when metrics are on. */
async function metricsFromConfig(config: GatewayConfig) {
  // The group is the plugin's options (METRICS_ENABLED, which starts it, aside).
  const { enabled: _, ...options } = config.metrics;
  return (await import('../plugins/metrics/index.js')).metrics(options);
}

/**
 * Builds the plugins `config.plugins` names, in that (hook) order, each from its settings.
 * The JWT and rate-limit plugins are imported only when named, so a gateway without them
 * never loads jose or ioredis.
 */
export async function pluginsFromConfig(
  config: GatewayConfig,
  logger: Logger,
  /** Every plugin of the gateway, once built: tracing tells them of spans it lost. */
  everyPlugin: () => readonly GatewayPlugin[] = () => [],
): Promise<GatewayPlugin[]> {
  const factories: Record<PluginName, () => GatewayPlugin | Promise<GatewayPlugin>> = {
    // Each group is its plugin's options, as read and typed from their specs (config/settings/plugins.ts).
    'header-rules': () => {
      // GATEWAY_HEADER_RULES is Router-shaped JSON, checked by the plugin (unknown rule keys refused).
      const { rules, ...limits } = config.headerRules;
      return headerRules({ ...(rules as HeaderRulesOptions), ...limits });
    },
    'client-awareness': () => clientAwareness(config.clientAwareness),
    jwt: async () =>
      // A JWKS outage must be logged (the plugin's lines carry `plugin` themselves).
      (await import('../plugins/jwt/index.js')).jwtAuth({ ...config.jwt, logger }),
    'api-key': () => apiKeyAuth(config.apiKey),
    'rate-limit': async () => {
      const { cost, ...options } = config.rateLimit;
      return (await import('../plugins/rate-limit/index.js')).rateLimit({
        ...options,
        ipv6Prefix: config.clientIpv6Prefix,
        ...(cost === 'estimated' && {
          cost: (request) => {
            const estimate = request.contextValue.estimateCost(request);
            // Over MAX_COST, demand control refuses it before any subgraph is asked: it costs what
            // refusing cost (1), not its estimate, which could spend a shared (global, ip) budget for all.
            return config.limits.maxCost > 0 && estimate > config.limits.maxCost ? 1 : estimate;
          },
        }),
        logger, // the plugin adds `plugin: 'rate-limit'` itself
      });
    },
    'response-headers': () => responseHeaders(config.responseHeaders),
  };
  const plugins: GatewayPlugin[] = [];
  for (const name of config.plugins) plugins.push(await factories[name]());
  // Tracing is on by OTEL_* settings, not GATEWAY_PLUGINS; last, so the gateway's traceparent
  // replaces any a header rule propagated. The SDK is loaded only then.
  const tracing = tracingSettings(config);
  if (tracing) {
    const { startTracing } = await import('../plugins/tracing/index.js');
    plugins.push(await startTracing(tracing, { route: config.graphqlPath, logger, plugins: everyPlugin }));
  }
  return plugins;
}
