import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  GatewayError,
  GatewayErrorCode,
  type GatewayPlugin,
  type PluginModuleEntry,
  pluginShapeProblems,
} from '@fedgw/gateway';

/** GATEWAY_PLUGIN_MODULE_TIMEOUT_MS's default, for callers that pass no config. */
const DEFAULT_TIMEOUT_MS = 10_000;

export interface LoadPluginModulesOptions {
  /** Each module's import and factory together must finish within this (GATEWAY_PLUGIN_MODULE_TIMEOUT_MS). Default: 10 s. */
  readonly timeoutMs?: number;
}

/**
 * Loads the operator's plugin modules named in GATEWAY_CONFIG_FILE, in order: each is an ES
 * module whose default export is a factory, called with the entry's `options`, that returns a
 * plugin. Any failure stops the start with one error naming the entry and the reason (the
 * module is missing, its import or its factory throws, it exports no factory, the factory's
 * result is not a plugin, or one of its hooks is not a function): a plugin the operator asked for
 * never silently goes missing. A module still loading after `timeoutMs` (an import or a factory
 * that never settles) stops it too, with ERR_GATEWAY_PLUGIN_MODULE_TIMEOUT naming the entry.
 */
export async function loadPluginModules(
  entries: readonly PluginModuleEntry[] = [],
  { timeoutMs = DEFAULT_TIMEOUT_MS }: LoadPluginModulesOptions = {},
): Promise<GatewayPlugin[]> {
  const plugins: GatewayPlugin[] = [];
  for (const entry of entries) plugins.push(await withinDeadline(loadOne(entry), entry, timeoutMs));
  return plugins;
}

/**
 * `loading`, or a coded error once `ms` have passed. The import cannot be cancelled: the start
 * fails and the process exits, which ends it. The timer is not unref'd: a module awaiting
 * something that never comes leaves nothing else to keep the process alive until it fires.
 */
async function withinDeadline(loading: Promise<GatewayPlugin>, { entry }: PluginModuleEntry, ms: number) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new GatewayError(
            GatewayErrorCode.PLUGIN_MODULE_TIMEOUT,
            `plugin module ${entry}: still loading after ${ms} ms (its import or its factory never finished); ` +
              'raise GATEWAY_PLUGIN_MODULE_TIMEOUT_MS only if it is slow, not stuck',
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([loading, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

async function loadOne({ entry, path, options }: PluginModuleEntry): Promise<GatewayPlugin> {
  const refuse = (reason: string, cause?: unknown) =>
    new GatewayError(GatewayErrorCode.PLUGIN_MODULE_INVALID, `plugin module ${entry}: ${reason}`, { cause });
  if (!existsSync(path)) throw refuse(`no such file ${path}`);
  let module: { default?: unknown };
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    throw refuse(`importing ${path} failed: ${(error as Error)?.message ?? String(error)}`, error);
  }
  const factory = module.default;
  if (typeof factory !== 'function') {
    throw refuse(
      `its default export is ${describe(factory, 'no default export?')}, not a factory \`(options) => GatewayPlugin\``,
    );
  }
  let plugin: unknown;
  try {
    plugin = await factory(options);
  } catch (error) {
    throw refuse(`its factory threw: ${(error as Error)?.message ?? String(error)}`, error);
  }
  if (!isPlugin(plugin)) {
    throw refuse(
      `its factory returned ${describe(plugin, 'no return?')}, not a plugin (an object with a string \`name\`)`,
    );
  }
  const problems = pluginShapeProblems(plugin);
  if (problems.length > 0) throw refuse(`its plugin "${plugin.name}": ${problems.join('; ')}`);
  return plugin;
}

function isPlugin(value: unknown): value is GatewayPlugin {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    (value as { name: string }).name !== ''
  );
}

function describe(value: unknown, ifUndefined: string): string {
  if (value === undefined) return `undefined (${ifUndefined})`;
  if (value === null) return 'null';
  if (typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object without a string `name`';
  return `a ${typeof value}`;
}
