import { readdirSync, readFileSync } from 'node:fs';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';
import { CONFIG_FIELDS, parseConfig, settingOf } from '../src/config/parse.js';
import type { GatewayConfig } from '../src/config/types.js';
import { API_KEY_DEFAULTS } from '../src/plugins/api-key/index.js';
import { CLIENT_AWARENESS_DEFAULTS } from '../src/plugins/client-awareness/index.js';
import { DEFAULT_LIST_SIZE, DEFAULT_MAX_COST } from '../src/plugins/demand-control/index.js';
import { JWT_DEFAULTS } from '../src/plugins/jwt/options.js';
import { DEFAULT_OPERATION_LIMITS } from '../src/plugins/operation-limits/index.js';
import { RATE_LIMIT_DEFAULTS } from '../src/plugins/rate-limit/index.js';
import { readValue } from '../src/settings/kinds.js';

// Every page that documents settings: the README and docs/*.md (the generated reference among them).
const PAGES = [
  'README.md',
  ...readdirSync(`${ROOT}docs`)
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const DOCUMENTED = PAGES.map((page) => readFileSync(`${ROOT}${page}`, 'utf8')).join('\n\n');
const defaults: GatewayConfig = parseConfig({}, { cwd: '/srv/gateway' });

/**
 * Every documentation table with a "default" column: the environment variables named in its
 * first column, with the backticked defaults of that row (several when the row lists
 * several variables, `A` / `B` and `1` / `2`, or `1`, `2`).
 */
function readmeDefaults(): { env: string; value: string }[] {
  const found: { env: string; value: string }[] = [];
  let defaultColumn = -1;
  for (const line of DOCUMENTED.split('\n')) {
    if (!line.startsWith('|')) {
      defaultColumn = -1;
      continue;
    }
    const cells = line.split('|').map((cell) => cell.trim());
    const header = cells.indexOf('default');
    if (header >= 0) {
      defaultColumn = header;
      continue;
    }
    if (defaultColumn < 0) continue;
    const envs = [...(cells[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1] as string);
    const values = [...(cells[defaultColumn] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const known = envs.filter((env) => CONFIG_FIELDS.some((field) => field.env === env));
    if (known.length === 0 || known.length !== envs.length || values.length !== envs.length) continue;
    if (/dev:|prod:/.test(cells[defaultColumn] ?? '')) continue;
    known.forEach((env, index) => {
      found.push({ env, value: values[index] as string });
    });
  }
  return found;
}

describe('defaults, one source', () => {
  it("the documented defaults are the parser's", () => {
    const documented = readmeDefaults();
    // The generated reference alone documents every setting with a default.
    expect(new Set(documented.map((d) => d.env)).size).toBeGreaterThan(60);
    for (const { env, value } of documented) {
      const field = CONFIG_FIELDS.find((f) => f.env === env);
      if (!field || field.key === 'supergraph.path') continue;
      const parsed = readValue(field.parse, value);
      expect(parsed.ok, `${env}: README default ${value} does not parse`).toBe(true);
      if (parsed.ok) expect(parsed.value, `${env}: README says ${value}`).toEqual(settingOf(defaults, field.key));
    }
  });

  it("the plugins' defaults are the parser's", () => {
    expect({
      maxDepth: defaults.limits.maxDepth,
      maxAliases: defaults.limits.maxAliases,
      maxRootFields: defaults.limits.maxRootFields,
      maxCharacters: defaults.limits.maxCharacters,
      maxFields: defaults.limits.maxFields,
    }).toEqual(DEFAULT_OPERATION_LIMITS);
    expect([defaults.limits.maxCost, defaults.limits.defaultListSize]).toEqual([DEFAULT_MAX_COST, DEFAULT_LIST_SIZE]);
    expect({
      jwksTimeoutMs: defaults.jwt.jwksTimeoutMs,
      jwksCooldownMs: defaults.jwt.jwksCooldownMs,
      jwksCacheMaxAgeMs: defaults.jwt.jwksCacheMaxAgeMs,
      clockToleranceSec: defaults.jwt.clockToleranceSec,
      required: defaults.jwt.required,
      forwardToken: defaults.jwt.forwardToken,
      header: defaults.jwt.header,
      scheme: defaults.jwt.scheme,
      // An option of the code only: no variable turns it on.
      allowInsecureJwksUrl: false,
    }).toEqual(JWT_DEFAULTS);
    expect(defaults.apiKey.header).toBe(API_KEY_DEFAULTS.header);
    expect([defaults.clientAwareness.nameClaim, defaults.clientAwareness.versionClaim]).toEqual([
      CLIENT_AWARENESS_DEFAULTS.nameClaim,
      CLIENT_AWARENESS_DEFAULTS.versionClaim,
    ]);
    expect([defaults.rateLimit.keyBy, defaults.rateLimit.failureMode]).toEqual([
      RATE_LIMIT_DEFAULTS.keyBy,
      RATE_LIMIT_DEFAULTS.failureMode,
    ]);
  });
});
