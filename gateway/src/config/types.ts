import type { CoreSettings } from '../core-settings.js';
import { LOG_LEVELS, type LoggerSettings, type LogLevel } from '../logger.js';
import type { ApiKeyEntry } from '../plugins/api-key/index.js';
import type { TracingConfig } from '../plugins/tracing/options.js';
import { type SubgraphOverride, subgraphKey } from '../subgraph-overrides.js';
import type { ConfigValues } from './fields.js';
import type { PluginModuleEntry } from './plugin-modules.js';

export type { ApiKeyEntry, LogLevel, SubgraphOverride };
export { LOG_LEVELS, subgraphKey };
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

/**
 * The whole gateway configuration, every default filled in by `parseConfig`: its settings' keys
 * and types are derived from their specs (fields/*.ts, ConfigValues), never written twice.
 * The core, tracing and the logger read it through narrower interfaces of their own
 * (CoreSettings, TracingConfig, LoggerSettings); `ConfigServesItsReaders` checks that it is all three.
 */
export interface GatewayConfig extends ConfigValues {
  readonly subgraphs: CoreSettings['subgraphs'];
  /** The operator's own plugin modules (GATEWAY_CONFIG_FILE `plugins` entries with a `module`), loaded by the process. */
  readonly pluginModules?: readonly PluginModuleEntry[];
}

/** Compiles only while the derived config still gives the core, tracing and the logger what they read. */
type Holds<T extends true> = T;
export type ConfigServesItsReaders = Holds<
  GatewayConfig extends CoreSettings & TracingConfig & LoggerSettings ? true : false
>;
