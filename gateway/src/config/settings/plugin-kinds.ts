import type { ApiKeyEntry } from '../../plugins/api-key/index.js';
import { custom, type ValueParser } from '../../settings/kinds.js';
import { PLUGIN_NAMES, PLUGIN_PROFILES, type PluginName } from '../choices.js';

const fail = (message: string) => ({ ok: false as const, message });

/**
 * Profile and plugin names, comma-separated (`rate-limit+api-key,jwt`), expanded and put
 * in the order their hooks must run: header rules before auth (so auth has the last
 * word on identity headers), auth before rate limiting (which keys by identity).
 */
export const pluginList: ValueParser<PluginName[]> = custom('profile or plugin names separated by commas', (raw) => {
  const names = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()) : Array.isArray(raw) ? raw : null;
  if (!names) return fail('expected profile or plugin names separated by commas');
  // Separators alone are as blank as an empty value, which is read as not set: not an empty list.
  if (typeof raw === 'string' && names.every((name) => name === '')) {
    return fail(
      "names no plugin; to run no plugin, write GATEWAY_PLUGINS=none; to keep the config file's, leave it unset",
    );
  }
  const enabled = new Set<PluginName>();
  for (const name of names) {
    if (name === '') continue;
    const profile = PLUGIN_PROFILES[name];
    if (profile) {
      for (const plugin of profile) enabled.add(plugin);
    } else if ((PLUGIN_NAMES as readonly string[]).includes(name)) enabled.add(name as PluginName);
    else {
      return fail(
        `unknown profile or plugin ${JSON.stringify(name)} (profiles: ${Object.keys(PLUGIN_PROFILES).join(', ')}; ` +
          `plugins: ${PLUGIN_NAMES.join(', ')})`,
      );
    }
  }
  return { ok: true, value: PLUGIN_NAMES.filter((plugin) => enabled.has(plugin)) };
});

/** `consumer:key` or `consumer:sha256:<64 hex>`, comma-separated. Errors never show a key. */
export const apiKeys: ValueParser<ApiKeyEntry[]> = custom('consumer:key entries separated by commas', (raw) => {
  const items = typeof raw === 'string' ? raw.split(',').map((item) => item.trim()) : Array.isArray(raw) ? raw : null;
  if (!items) return fail('expected consumer:key entries separated by commas (values not shown: secrets)');
  const entries: ApiKeyEntry[] = [];
  for (const [index, item] of items.entries()) {
    if (typeof item === 'object' && item !== null) {
      entries.push(item as ApiKeyEntry);
      continue;
    }
    const text = String(item);
    const at = text.indexOf(':');
    const consumer = text.slice(0, at);
    const rest = text.slice(at + 1);
    if (at <= 0 || rest === '') return fail(`entry ${index + 1} is not consumer:key (values not shown: secrets)`);
    if (rest.startsWith('sha256:')) {
      const sha256 = rest.slice('sha256:'.length);
      if (!/^[0-9a-f]{64}$/i.test(sha256))
        return fail(`entry ${index + 1} (${consumer}) has a malformed sha256 digest`);
      entries.push({ consumer, sha256: sha256.toLowerCase() });
    } else {
      entries.push({ consumer, key: rest });
    }
  }
  return { ok: true, value: entries };
});

/** `name:value` pairs (values may use `{uuid}` and `{requestId}`), or a JSON list of `{ name, value }`. */
export const headerPairs: ValueParser<{ name: string; value: string }[]> = custom(
  'name:value pairs separated by commas',
  (raw) => {
    if (Array.isArray(raw)) return { ok: true, value: raw as { name: string; value: string }[] };
    if (typeof raw !== 'string') return fail('expected name:value pairs separated by commas');
    const headers: { name: string; value: string }[] = [];
    for (const part of raw.split(',')) {
      const at = part.indexOf(':');
      if (at <= 0) return fail(`expected name:value, got ${JSON.stringify(part.trim())}`);
      headers.push({ name: part.slice(0, at).trim(), value: part.slice(at + 1).trim() });
    }
    return { ok: true, value: headers };
  },
);
