// The closed sets of values settings choose from: read by the field specs (config/settings/*.ts) and
// by types.ts, which derives the config from those specs, so they live apart from both.
import { LOG_LEVELS, type LogLevel } from '../logger.js';

export { LOG_LEVELS, type LogLevel };
export const GATEWAY_ENVS = ['production', 'development'] as const;
export const RUNTIMES = ['nest', 'bare'] as const;
export const ADAPTERS = ['fastify', 'express'] as const;

export const PLUGIN_NAMES = [
  'header-rules',
  'client-awareness',
  'jwt',
  'api-key',
  'rate-limit',
  'response-headers',
] as const;
/** Named plugin sets, for GATEWAY_PLUGINS and the benchmark. */
export const PLUGIN_PROFILES: Readonly<Record<string, readonly PluginName[]>> = {
  none: [],
  jwt: ['jwt'],
  'jwt+client-awareness': ['jwt', 'client-awareness'],
  'rate-limit': ['rate-limit'],
  'rate-limit+api-key': ['api-key', 'rate-limit'],
  'rate-limit+api-key+jwt': ['jwt', 'api-key', 'rate-limit'],
  full: ['header-rules', 'client-awareness', 'jwt', 'rate-limit', 'response-headers'],
};
export const RATE_LIMIT_COSTS = ['request', 'estimated'] as const;
/** TRUSTED_DOCUMENTS_MODE; see the trusted-documents plugin. */
export const TRUSTED_DOCUMENTS_MODES = ['off', 'allow-ids', 'enforce'] as const;

export type PluginName = (typeof PLUGIN_NAMES)[number];
export type GatewayEnv = (typeof GATEWAY_ENVS)[number];
/** `nest`: the gateway mounted by GatewayModule in a NestJS app; `bare`: the framework alone. */
export type Runtime = (typeof RUNTIMES)[number];
export type AdapterName = (typeof ADAPTERS)[number];

export const ENTITY_CACHE_STORES = ['off', 'memory', 'redis'] as const;
export type EntityCacheStore = (typeof ENTITY_CACHE_STORES)[number];
