import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GatewayError, GatewayErrorCode, type GatewayPlugin, type PluginModuleEntry } from '@fedgw/gateway';

/**
 * Loads the operator's plugin modules named in GATEWAY_CONFIG_FILE, in order: each is an ES
 * module whose default export is a factory, called with the entry's `options`, that returns a
 * plugin. Any failure stops the start with one error naming the entry and the reason (the
 * module is missing, its import or its factory throws, it exports no factory, or the factory's
 * result is not a plugin): a plugin the operator asked for never silently goes missing.
 */
export async function loadPluginModules(entries: readonly PluginModuleEntry[] = []): Promise<GatewayPlugin[]> {
  const plugins: GatewayPlugin[] = [];
  for (const entry of entries) plugins.push(await loadOne(entry));
  return plugins;
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
