import type { CoreSettings } from '../core-settings.js';
import { LOG_LEVELS, type LoggerSettings, type LogLevel } from '../logger.js';
import type { ApiKeyEntry } from '../plugins/api-key/index.js';
import type { TracingConfig } from '../plugins/tracing/settings.js';
import { type SubgraphOverride, subgraphKey } from '../subgraph-overrides.js';
import type { FeatureSwitches } from './features.js';
import type { PluginModuleEntry } from './plugin-modules.js';
import type { ConfigValues } from './settings/all.js';

export {
  ADAPTERS,
  type AdapterName,
  ENTITY_CACHE_STORES,
  type EntityCacheStore,
  GATEWAY_ENVS,
  type GatewayEnv,
  PLUGIN_NAMES,
  PLUGIN_PROFILES,
  type PluginName,
  RATE_LIMIT_COSTS,
  RUNTIMES,
  type Runtime,
  TRUSTED_DOCUMENTS_MODES,
} from './choices.js';
export type { ApiKeyEntry, LogLevel, SubgraphOverride };
export { LOG_LEVELS, subgraphKey };

/**
 * The whole gateway configuration, every default filled in by `parseConfig`: its settings' keys
 * and types are derived from their specs (config/settings/*.ts, ConfigValues), never written twice.
 * The core, tracing and the logger read it through narrower interfaces of their own
 * (CoreSettings, TracingConfig, LoggerSettings), which type each group they read from the same
 * schemas the specs parse it with (SettingsOf<typeof SUBSCRIPTION_VALUES>…), since nothing below
 * config/ may import it; `ConfigServesItsReaders` checks that it is all three.
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
/** Compiles only while the features' switches (config/features.ts) read what the config holds, as typed. */
export type ConfigServesTheFeatures = Holds<ConfigValues extends FeatureSwitches ? true : false>;
