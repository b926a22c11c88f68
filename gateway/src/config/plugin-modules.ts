import { isAbsolute, resolve } from 'node:path';
import type { ConfigIssue } from '../errors.js';

/** A plugin of the operator's own, named in the config file: loaded by the process at start. */
export interface PluginModuleEntry {
  /** Where it was named, for messages: `gateway.json: plugins[1] (./maint.mjs)`. */
  readonly entry: string;
  /** The module's absolute path (resolved from the config file's folder). */
  readonly path: string;
  /** Given to the module's default export, the factory: `(options) => GatewayPlugin`. */
  readonly options: unknown;
}

const ENTRY_KEYS = new Set(['module', 'options']);

/**
 * The config file's `plugins` list may mix built-in names (`"jwt"`, a profile) with modules of
 * one's own (`{ "module": "./maint.mjs", "options": {…} }`). Returns the file without the module
 * entries (so the built-in names parse as GATEWAY_PLUGINS does) and the modules, resolved from
 * `folder` (the config file's). Module entries exist only in the file: GATEWAY_PLUGINS, when
 * set, replaces the file's built-in names and leaves its modules in place.
 */
export function takePluginModules(
  file: Record<string, unknown>,
  fileName: string | undefined,
  folder: string,
  issues: ConfigIssue[],
): { file: Record<string, unknown>; modules: PluginModuleEntry[] } {
  const list = file.plugins;
  if (!Array.isArray(list) || !list.some((item) => typeof item === 'object' && item !== null)) {
    return { file, modules: [] };
  }
  const modules: PluginModuleEntry[] = [];
  list.forEach((item, index) => {
    if (typeof item !== 'object' || item === null) return;
    const field = `${fileName}: plugins[${index}]`;
    const { module, options } = item as { module?: unknown; options?: unknown };
    const unknown = Object.keys(item).filter((key) => !ENTRY_KEYS.has(key));
    if (unknown.length > 0)
      issues.push({ field, message: `unknown key ${unknown.join(', ')} (expected module, options)` });
    if (typeof module !== 'string' || module === '') {
      issues.push({ field, message: 'expected { "module": "./file.mjs", "options": {…} }: module is missing' });
    } else if (!module.startsWith('.') && !isAbsolute(module)) {
      issues.push({
        field,
        message: `module ${JSON.stringify(module)} must be a file path (./${module}.mjs), relative to ${fileName}'s folder`,
      });
    } else {
      modules.push({ entry: `${field} (${module})`, path: resolve(folder, module), options: options ?? {} });
    }
  });
  const names = list.filter((item) => typeof item !== 'object' || item === null);
  const { plugins: _modulesAndNames, ...rest } = file;
  return { file: names.length > 0 ? { ...rest, plugins: names } : rest, modules };
}
