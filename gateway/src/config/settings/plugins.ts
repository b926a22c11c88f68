import type { ConfigIssue } from '../../errors.js';
import { integer, withDefault } from '../../settings/kinds.js';
import type { PluginName } from '../choices.js';
import { API_KEY_PLUGIN_FIELDS } from './plugin-api-key.js';
import { CLIENT_AWARENESS_PLUGIN_FIELDS } from './plugin-client-awareness.js';
import { HEADER_RULES_PLUGIN_FIELDS } from './plugin-header-rules.js';
import { JWT_PLUGIN_FIELDS } from './plugin-jwt.js';
import { pluginList } from './plugin-kinds.js';
import { RATE_LIMIT_PLUGIN_FIELDS } from './plugin-rate-limit.js';
import { RESPONSE_HEADERS_PLUGIN_FIELDS } from './plugin-response-headers.js';

import { type ConfigOf, defineFields, type FlatConfigOf } from './spec.js';

export { redisUrl } from './plugin-rate-limit.js';

/** GATEWAY_PLUGINS and the settings of each plugin it can name (each plugin's in a file of its own). */
export const PLUGIN_FIELDS = defineFields([
  {
    key: 'plugins',
    env: 'GATEWAY_PLUGINS',
    parse: withDefault(pluginList, []),
    meaning:
      "plugins to run: a profile or a comma list of profiles and plugin names (`jwt`, `api-key`, `client-awareness`, `header-rules`, `response-headers`, `rate-limit`, `full`…); see [Plugins](plugins.md). Set, it replaces the config file's list of built-in plugins (its modules stay), with a warning for each of `jwt`, `api-key` and `rate-limit` the file enables and it leaves out; empty is not set, `none` runs none",
  },
  {
    key: 'pluginModuleTimeoutMs',
    env: 'GATEWAY_PLUGIN_MODULE_TIMEOUT_MS',
    parse: withDefault(integer(100, 600_000), 10_000),
    meaning:
      'each plugin module the config file names must be imported and its factory done within this, or the start stops with `ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT` naming it (a module that never finished loading left the process up, never ready, saying nothing); see [Plugins](plugins.md#from-i-wrote-a-plugin-to-it-runs-in-the-image-and-in-kubernetes)',
  },
  ...JWT_PLUGIN_FIELDS,
  ...API_KEY_PLUGIN_FIELDS,
  ...CLIENT_AWARENESS_PLUGIN_FIELDS,
  ...HEADER_RULES_PLUGIN_FIELDS,
  ...RESPONSE_HEADERS_PLUGIN_FIELDS,
  ...RATE_LIMIT_PLUGIN_FIELDS,
]);

type PluginSettings = ConfigOf<typeof PLUGIN_FIELDS>;
type PluginSettingKey = keyof FlatConfigOf<typeof PLUGIN_FIELDS>;

/** Settings each plugin cannot run without, read from the typed config; checked only when the plugin is on. */
const REQUIRED_BY_PLUGIN: {
  readonly [P in PluginName]?: (config: PluginSettings) => readonly (readonly [PluginSettingKey, unknown])[];
} = {
  jwt: ({ jwt }) => [['jwt.algorithms', jwt.algorithms]],
  'api-key': ({ apiKey }) => [['apiKey.keys', apiKey.keys]],
  'header-rules': ({ headerRules }) => [['headerRules.rules', headerRules.rules]],
  'response-headers': ({ responseHeaders }) => [['responseHeaders.headers', responseHeaders.headers]],
};
/** A setting's environment variable, as errors name it. */
const envOf = (key: PluginSettingKey) => PLUGIN_FIELDS.find((field) => field.key === key)?.env ?? key;

/** The plugins' rule (ADR 052): what a setting needs only when a plugin that uses it is on, named by variable. */
export function checkPluginSettings(config: PluginSettings, issues: ConfigIssue[]): void {
  for (const plugin of config.plugins) {
    for (const [key, value] of REQUIRED_BY_PLUGIN[plugin]?.(config) ?? []) {
      if (value === undefined || (Array.isArray(value) && value.length === 0)) {
        issues.push({ field: envOf(key), message: `required by the ${plugin} plugin` });
      }
    }
  }
  if (config.plugins.includes('jwt')) {
    const { jwksUrl, jwksFile, secret } = config.jwt;
    const sources = [jwksUrl, jwksFile, secret].filter((source) => source !== undefined);
    if (sources.length !== 1) {
      issues.push({
        field: 'JWT_JWKS_URL | JWT_JWKS_FILE | JWT_SECRET',
        message: `the jwt plugin needs exactly one key source, got ${sources.length}`,
      });
    }
  }
}
