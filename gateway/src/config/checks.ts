import { resolve } from 'node:path';
import type { ConfigIssue } from '../errors.js';
import { CONFIG_FIELDS, type ScalarKey } from './settings/all.js';

// Rules across settings, applied once each value is read: what a plugin needs, a trusted-documents
// mode without a manifest, metrics and the memory entity cache under cluster.

/** Settings each plugin needs; checked only when the plugin is enabled. */
const REQUIRED_BY_PLUGIN: Partial<Record<string, readonly ScalarKey[]>> = {
  jwt: ['jwt.algorithms'],
  'api-key': ['apiKey.keys'],
  'header-rules': ['headerRules.rules'],
  'response-headers': ['responseHeaders.headers'],
};
/** A setting's environment variable, as errors name it. */
const envOf = (key: ScalarKey) => CONFIG_FIELDS.find((field) => field.key === key)?.env ?? key;

/**
 * A manifest without a mode is enforced (it is given to lock the graph down). A mode that
 * needs a manifest without one would silently run every operation, so it is an error.
 * The path is resolved like SUPERGRAPH_PATH.
 */
export function checkTrustedDocuments(values: Record<string, unknown>, cwd: string, issues: ConfigIssue[]): void {
  const path = values['trustedDocuments.manifestPath'] as string | undefined;
  const mode = values['trustedDocuments.mode'] as string | undefined;
  if (path === undefined) {
    if (mode !== undefined && mode !== 'off') {
      issues.push({ field: 'TRUSTED_DOCUMENTS_MODE', message: `${mode} needs a manifest: set TRUSTED_DOCUMENTS` });
    }
    values['trustedDocuments.mode'] = 'off';
    return;
  }
  values['trustedDocuments.manifestPath'] = resolve(cwd, path);
  values['trustedDocuments.mode'] = mode ?? 'enforce';
}

/** ENTITY_CACHE=redis needs a Redis: ENTITY_CACHE_REDIS_URL, else GATEWAY_REDIS_URL (filled in here). */
export function checkEntityCache(values: Record<string, unknown>, issues: ConfigIssue[]): void {
  if (values['entityCache.store'] !== 'redis') return;
  values['entityCache.redisUrl'] ??= values['rateLimit.redisUrl'];
  if (values['entityCache.redisUrl'] === undefined) {
    issues.push({ field: 'ENTITY_CACHE', message: 'redis needs ENTITY_CACHE_REDIS_URL (or GATEWAY_REDIS_URL)' });
  }
}

/**
 * Under cluster every worker has its own metrics registry and a scrape reaches one worker at
 * random (the main port and METRICS_PORT alike are shared sockets), so the numbers would be
 * one worker's, jumping between scrapes: refused rather than served wrong.
 */
export function checkWorkers(values: Record<string, unknown>, issues: ConfigIssue[]): void {
  if ((values.workers as number) > 1 && values['metrics.enabled'] === true) {
    issues.push({
      field: 'GATEWAY_WORKERS',
      message: `${values.workers} workers cannot serve METRICS_ENABLED: each scrape would see one worker; use GATEWAY_WORKERS=1 and more replicas`,
    });
  }
  // Each worker would keep its own cache, and an invalidation (a mutation's, the operator's)
  // would reach only the worker that received it: the others serve the old answer for its TTL.
  if ((values.workers as number) > 1 && values['entityCache.store'] === 'memory') {
    issues.push({
      field: 'GATEWAY_WORKERS',
      message: `${values.workers} workers cannot share ENTITY_CACHE=memory: an invalidation would reach one worker and the others would serve stale answers; use ENTITY_CACHE=redis (one cache for every worker) or GATEWAY_WORKERS=1`,
    });
  }
}

/** What a field needs only when a plugin that uses it is on, named by environment variable. */
export function checkPluginSettings(values: Record<string, unknown>, issues: ConfigIssue[]): void {
  const plugins = (values.plugins ?? []) as string[];
  for (const plugin of plugins) {
    for (const key of REQUIRED_BY_PLUGIN[plugin] ?? []) {
      const value = values[key];
      if (value === undefined || (Array.isArray(value) && value.length === 0)) {
        issues.push({ field: envOf(key), message: `required by the ${plugin} plugin` });
      }
    }
  }
  if (plugins.includes('jwt')) {
    const sources = ['jwt.jwksUrl', 'jwt.jwksFile', 'jwt.secret'].filter((key) => values[key] !== undefined);
    if (sources.length !== 1) {
      issues.push({
        field: 'JWT_JWKS_URL | JWT_JWKS_FILE | JWT_SECRET',
        message: `the jwt plugin needs exactly one key source, got ${sources.length}`,
      });
    }
  }
}
