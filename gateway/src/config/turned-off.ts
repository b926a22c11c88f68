import { readValue } from '../settings/kinds.js';
import type { PluginName } from './choices.js';
import { pluginList } from './settings/plugin-kinds.js';

/** Plugins that keep callers out: turning one off opens the graph (authentication) or its budget (rate limiting). */
const SECURITY_PLUGINS: readonly PluginName[] = ['jwt', 'api-key', 'rate-limit'];

/** One setting's warning: a security plugin the config file enables that GATEWAY_PLUGINS leaves out. */
export interface TurnedOff {
  readonly plugin: PluginName;
  readonly message: string;
}

/**
 * GATEWAY_PLUGINS replaces the config file's list of built-in plugins: each security plugin the
 * file enables and the environment's list leaves out is reported, so a deployment that meant to
 * add one plugin (or set GATEWAY_PLUGINS=none) sees at start that it also turned off its JWT check.
 */
export function securityPluginsTurnedOff(
  fromEnv: readonly string[],
  fileList: unknown,
  fileName: string | undefined,
): TurnedOff[] {
  if (fileList === undefined) return [];
  const inFile = readValue(pluginList, fileList);
  if (!inFile.ok) return [];
  return SECURITY_PLUGINS.filter((plugin) => inFile.value.includes(plugin) && !fromEnv.includes(plugin)).map(
    (plugin) => ({
      plugin,
      message:
        `turns off the ${plugin} plugin, which ${fileName}'s plugins list enables: GATEWAY_PLUGINS replaces ` +
        `that list, so name ${plugin} in GATEWAY_PLUGINS too to keep it`,
    }),
  );
}
