import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { type ConfigIssue, GatewayConfigError } from '../errors.js';
import { checkOriginSettings } from '../origin-policy/settings.js';
import { checkMetricsConfig } from '../plugins/metrics/settings.js';
import { checkTracingConfig } from '../plugins/tracing/settings.js';
import { defaultOf, type Parsed, readValue } from '../settings/kinds.js';
import { checkSupergraphSource } from '../supergraph/settings.js';
import { closestName } from './closest-name.js';
import { settingsWithoutTheirFeature } from './features.js';
import { freezeGroups, inFile, intoGroups, reportUnknownFileKeys } from './groups.js';
import { takePluginModules } from './plugin-modules.js';
import { hasServiceLinkName, isServiceLink, serviceLinkWarning } from './service-links.js';
import { CONFIG_FIELDS, type ConfigValues, type FieldSpec, SUBGRAPH_ENV, SUBGRAPH_FIELDS } from './settings/all.js';
import { fillInEntityCacheRedis } from './settings/entity-cache.js';
import { checkHttp } from './settings/http.js';
import { fillInTrustedDocuments } from './settings/limits.js';
import { checkPluginSettings } from './settings/plugins.js';
import { checkWorkers } from './settings/process.js';
import { checkSheddingSettings } from './settings/shedding.js';
import type { Open } from './settings/spec.js';
import { securityPluginsTurnedOff } from './turned-off.js';
import { type GatewayConfig, type SubgraphOverride, subgraphKey } from './types.js';

export { settingOf } from './groups.js';
export { CONFIG_FIELDS };

type Env = Readonly<Record<string, string | undefined>>;

export const CONFIG_FILE_ENV = 'GATEWAY_CONFIG_FILE';

export interface ParseConfigOptions {
  /** Resolves relative paths (supergraph, config file). Default: `process.cwd()`. */
  cwd?: string;
  readFile?: (path: string) => string;
  /** Told about each setting that was set but has no effect; main logs them once its logger exists. */
  onWarning?: (warning: ConfigWarning) => void;
}

/** A setting that does not stop startup but is not applied as written. */
export interface ConfigWarning {
  readonly setting: string;
  readonly message: string;
  /** The plugin it is about, when it turns one off (logged as its own field, for alerts). */
  readonly plugin?: string;
}

/**
 * Turns the environment (and the optional JSON file named by GATEWAY_CONFIG_FILE) into a
 * frozen GatewayConfig. Environment variables win over the file. Throws a
 * GatewayConfigError listing every invalid field.
 */
export function parseConfig(given: Env, options: ParseConfigOptions = {}): GatewayConfig {
  const cwd = options.cwd ?? process.cwd();
  const issues: ConfigIssue[] = [];
  const env = withoutEmptyValues(given, options.onWarning);
  const fileName = env[CONFIG_FILE_ENV];
  const { file, modules: pluginModules } = takePluginModules(
    readConfigFile(env, cwd, options.readFile, issues),
    fileName,
    dirname(resolve(cwd, fileName ?? '.')),
    issues,
  );
  const values: Record<string, unknown> = {};

  for (const field of CONFIG_FIELDS) {
    const name = nameInEnv(env, field, options.onWarning);
    let fromEnv = name === undefined ? undefined : env[name];
    if (name !== undefined && fromEnv !== undefined && isServiceLink(field.env, fromEnv)) {
      options.onWarning?.({ setting: name, message: serviceLinkWarning(name, fromEnv) });
      fromEnv = undefined;
    }
    const { raw, source } =
      fromEnv !== undefined
        ? { raw: fromEnv, source: name as string }
        : inFile(file, field, fileName, options.onWarning);
    if (raw === undefined) continue;
    record(values, field.key, readValue(field.parse, raw), source, issues);
    if (field.key === 'plugins' && fromEnv !== undefined && Array.isArray(values.plugins)) {
      for (const { plugin, message } of securityPluginsTurnedOff(values.plugins, file.plugins, fileName)) {
        options.onWarning?.({ setting: name as string, message, plugin });
      }
    }
  }
  // Before defaults fill in: only what was set can be a contradiction, or be set in vain.
  checkSupergraphSource(intoGroups(values), issues);
  const explicit = new Set(CONFIG_FIELDS.filter((field) => field.key in values).map((field) => field.env));
  const gatewayEnv = (values.env as GatewayConfig['env']) ?? 'production';
  for (const field of CONFIG_FIELDS) {
    if (!(field.key in values)) values[field.key] = defaultOf(field.parse, gatewayEnv);
  }

  // From here on every rule reads the typed config, each its group's (ADR 052).
  const config = intoGroups<Open<ConfigValues>>(values);

  const subgraphs = parseSubgraphs(env, file.subgraphs, fileName, issues);
  for (const warning of settingsWithoutTheirFeature(CONFIG_FIELDS, explicit, config)) options.onWarning?.(warning);
  checkHttp(config, issues);
  checkPluginSettings(config, issues);
  checkSheddingSettings(config, issues);
  fillInTrustedDocuments(config, cwd, issues);
  fillInEntityCacheRedis(config, issues);
  checkTracingConfig(config, issues);
  checkMetricsConfig(config, issues);
  checkWorkers(config, issues);
  checkOriginSettings(config, issues);
  rejectRemovedSettings(env, file, fileName, issues);
  reportUnknownFileKeys(file, fileName, ['subgraphs', ...Object.keys(REMOVED_SETTINGS)], issues);
  reportTypos(env, issues);
  if (issues.length > 0) throw new GatewayConfigError(issues);

  config.supergraph.path = resolve(cwd, config.supergraph.path);
  if (config.shadow.supergraph) config.shadow.supergraph = resolve(cwd, config.shadow.supergraph);
  return Object.freeze({
    ...freezeGroups(config),
    subgraphs: Object.freeze(subgraphs),
    ...(pluginModules.length > 0 && { pluginModules: Object.freeze(pluginModules) }),
  });
}

/**
 * The variable a setting is read from: its name, or a former name (renamed settings keep
 * working, with a warning). When both are set, the new name wins and the old one is reported.
 */
function nameInEnv(env: Env, field: FieldSpec<string>, onWarning: ParseConfigOptions['onWarning']): string | undefined {
  const former = (field.formerEnv ?? []).filter((name) => env[name] !== undefined);
  for (const name of former) {
    const message =
      env[field.env] !== undefined
        ? `deprecated and ignored: ${field.env} is set too, and wins`
        : `deprecated: renamed ${field.env}; the old name still works, but rename it before the next major version`;
    onWarning?.({ setting: name, message });
  }
  if (env[field.env] !== undefined) return field.env;
  return former[0];
}

/**
 * Every variable set to nothing (or only spaces) is read as not set, whatever the setting: the
 * config file's value or the default applies. `GATEWAY_PLUGINS=` from a template or a CI
 * variable left blank used to drop the file's jwt, api-key and rate-limit (an empty list), while
 * `METRICS_PORT=` failed startup and `GATEWAY_CONFIG_FILE=` was ignored: one rule now, as
 * OpenTelemetry's configuration spec has for its own variables. Each of ours is reported.
 */
function withoutEmptyValues(env: Env, onWarning: ParseConfigOptions['onWarning']): Env {
  const kept: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.trim() !== '') {
      kept[name] = value;
      continue;
    }
    if (!isOwnVariable(name)) continue;
    onWarning?.({ setting: name, message: EMPTY_MEANS[name] ?? (EMPTY_MEANS.default as string) });
  }
  return kept;
}

const EMPTY_MEANS: Readonly<Record<string, string>> = {
  default: "set but empty: read as not set, so the config file's value or the default applies",
  GATEWAY_PLUGINS:
    "set but empty: read as not set, so the config file's plugins (or none) apply; to run no plugin, set GATEWAY_PLUGINS=none",
  [CONFIG_FILE_ENV]: 'set but empty: read as not set (no config file)',
};

const isOwnVariable = (name: string): boolean =>
  name === CONFIG_FILE_ENV ||
  SUBGRAPH_ENV.test(name) ||
  Object.values(REMOVED_SETTINGS).some((removed) => removed.env === name) ||
  CONFIG_FIELDS.some((field) => field.env === name || field.formerEnv?.includes(name));

const OWN_GATEWAY_VARIABLES = [
  CONFIG_FILE_ENV,
  ...CONFIG_FIELDS.flatMap((field) => [field.env, ...(field.formerEnv ?? [])]),
].filter((name) => name.startsWith('GATEWAY_'));

/**
 * A `GATEWAY_*` variable that is a near miss of one the gateway owns (`GATEWAY_ADAPTR`) is
 * a typo that would silently change nothing, so it fails startup naming the right one.
 * Any other is not ours and is left alone: Kubernetes injects `GATEWAY_SERVICE_HOST`,
 * `GATEWAY_PORT_4000_TCP`... for a Service named `gateway`, and tools set their own.
 */
function reportTypos(env: Env, issues: ConfigIssue[]): void {
  for (const name of Object.keys(env)) {
    if (!name.startsWith('GATEWAY_') || OWN_GATEWAY_VARIABLES.includes(name) || hasServiceLinkName(name)) continue;
    const meant = closestName(name, OWN_GATEWAY_VARIABLES, 'GATEWAY_');
    if (meant) issues.push({ field: name, message: `unknown setting: did you mean ${meant}?` });
  }
}

/**
 * Settings that existed once and were removed because they were unsafe: a deployment
 * that still sets one fails with the reason, instead of silently losing its limit.
 */
const REMOVED_SETTINGS: Readonly<Record<string, { env: string; message: string }>> = {
  rateLimitCosts: {
    env: 'RATE_LIMIT_COSTS',
    message:
      'removed: operation names are chosen by the client, so a per-name cost was a free pass ' +
      '(name any query "Health"); use RATE_LIMIT_COST=estimated to charge what the operation costs',
  },
};
function rejectRemovedSettings(
  env: Env,
  file: Record<string, unknown>,
  fileName: string | undefined,
  issues: ConfigIssue[],
): void {
  for (const [key, { env: name, message }] of Object.entries(REMOVED_SETTINGS)) {
    if (env[name] !== undefined) issues.push({ field: name, message });
    else if (file[key] !== undefined) issues.push({ field: `${fileName}: ${key}`, message });
  }
}

function record(
  target: Record<string, unknown>,
  key: string,
  parsed: Parsed<unknown>,
  source: string,
  issues: ConfigIssue[],
): void {
  if (parsed.ok) target[key] = parsed.value;
  else issues.push({ field: source, message: parsed.message });
}

function parseSubgraphs(
  env: Env,
  fromFile: unknown,
  fileName: string | undefined,
  issues: ConfigIssue[],
): Record<string, SubgraphOverride> {
  const result: Record<string, Record<string, unknown>> = {};
  if (fromFile !== undefined) {
    if (typeof fromFile !== 'object' || fromFile === null || Array.isArray(fromFile)) {
      issues.push({ field: `${fileName}: subgraphs`, message: 'expected an object keyed by subgraph name' });
    } else {
      for (const [name, settings] of Object.entries(fromFile)) {
        const target = settingsOf(result, name);
        for (const [key, raw] of Object.entries((settings ?? {}) as Record<string, unknown>)) {
          const spec = Object.values(SUBGRAPH_FIELDS).find((field) => field.key === key);
          const source = `${fileName}: subgraphs.${name}.${key}`;
          if (!spec)
            issues.push({
              field: source,
              message: `unknown setting (expected ${Object.values(SUBGRAPH_FIELDS)
                .map((field) => field.key)
                .join(', ')})`,
            });
          else record(target, key, readValue(spec.parse, raw), source, issues);
        }
      }
    }
  }
  for (const [name, raw] of Object.entries(env)) {
    const match = SUBGRAPH_ENV.exec(name);
    const spec = match && SUBGRAPH_FIELDS[match[2] as string];
    if (!match || !spec || raw === undefined) continue;
    record(settingsOf(result, match[1] as string), spec.key, readValue(spec.parse, raw), name, issues);
  }
  return Object.fromEntries(Object.entries(result).map(([name, value]) => [name, Object.freeze(value)]));
}

function settingsOf(all: Record<string, Record<string, unknown>>, name: string): Record<string, unknown> {
  const key = subgraphKey(name);
  all[key] ??= {};
  return all[key];
}

function readConfigFile(
  env: Env,
  cwd: string,
  readFile: ((path: string) => string) | undefined,
  issues: ConfigIssue[],
): Record<string, unknown> {
  const name = env[CONFIG_FILE_ENV];
  if (name === undefined || name === '') return {};
  let text: string;
  try {
    text = (readFile ?? ((path) => readFileSync(path, 'utf8')))(resolve(cwd, name));
  } catch (error) {
    issues.push({ field: CONFIG_FILE_ENV, message: `cannot read ${name}: ${(error as Error).message}` });
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
    issues.push({ field: CONFIG_FILE_ENV, message: `${name} must hold a JSON object` });
  } catch (error) {
    issues.push({ field: CONFIG_FILE_ENV, message: `${name} is not valid JSON: ${(error as Error).message}` });
  }
  return {};
}
