import type { ConfigIssue } from '../errors.js';
import { CONFIG_FIELDS, type FieldSpec, type ScalarKey } from './settings/all.js';
import type { GatewayConfig } from './types.js';

// Settings in groups (ADR 039): a spec key `jwt.issuer` is `config.jwt.issuer` and
// `{ "jwt": { "issuer": … } }` in the config file; the flat file key it had before groups
// (`formerKey`, `jwtIssuer`) is still read, with a deprecation warning.

/** The value of the setting whose spec key is `key` (`port`, `jwt.issuer`) in a parsed config. */
export function settingOf(config: GatewayConfig, key: ScalarKey): unknown {
  const [group, name] = splitKey(key);
  const holder = (group === undefined ? config : (config as unknown as Record<string, unknown>)[group]) as
    | Record<string, unknown>
    | undefined;
  return holder?.[name];
}

/** `jwt.issuer` → `['jwt', 'issuer']`; a key outside any group → `[undefined, key]`. */
function splitKey(key: string): [group: string | undefined, name: string] {
  const dot = key.indexOf('.');
  return dot < 0 ? [undefined, key] : [key.slice(0, dot), key.slice(dot + 1)];
}

/**
 * A setting's value in the config file: under its group (`{ "jwt": { "issuer": … } }`), else
 * under the flat key it had before groups (`jwtIssuer`), which still works with a warning.
 */
export function inFile(
  file: Record<string, unknown>,
  field: FieldSpec<string>,
  fileName: string | undefined,
  onWarning: ((warning: { setting: string; message: string }) => void) | undefined,
): { raw: unknown; source: string } {
  const [group, name] = splitKey(field.key);
  const holder = group === undefined ? file : file[group];
  const raw = isObject(holder) ? holder[name] : undefined;
  if (!hasFormer(file, field.formerKey)) return { raw, source: `${fileName}: ${field.key}` };
  if (raw !== undefined) {
    onWarning?.({
      setting: `${fileName}: ${field.formerKey}`,
      message: `deprecated and ignored: ${field.key} is set too, and wins`,
    });
    return { raw, source: `${fileName}: ${field.key}` };
  }
  const source = `${fileName}: ${field.formerKey}`;
  onWarning?.({
    setting: source,
    message: `deprecated: now ${field.key} (${group} is an object in the file); the old key still works`,
  });
  return { raw: file[field.formerKey], source };
}

/**
 * Whether the file sets a flat key from before the groups. A group may be named as one of its
 * settings was (`entityCache` held the store's name, now `entityCache.store`; `headerRules` the
 * rules object, now `headerRules.rules`): the value there is the group when it is an object
 * naming a member (or empty), else the old setting's value, so an existing file keeps its meaning.
 */
function hasFormer(file: Record<string, unknown>, formerKey: string | undefined): formerKey is string {
  if (formerKey === undefined || file[formerKey] === undefined) return false;
  return !isGroupObject(formerKey, file[formerKey]);
}

/** The settings in `group` (`['issuer', 'algorithms', …]` for `jwt`); none for a key that is no group. */
const membersOf = (group: string): string[] =>
  CONFIG_FIELDS.map((field) => splitKey(field.key)).flatMap(([of, name]) => (of === group ? [name] : []));

function isGroupObject(key: string, value: unknown): boolean {
  const members = membersOf(key);
  if (members.length === 0 || !isObject(value)) return false;
  if (!CONFIG_FIELDS.some((field) => field.formerKey === key)) return true;
  const names = Object.keys(value);
  return names.length === 0 || names.some((name) => members.includes(name));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every key of the file that no setting reads, at the top and inside each group. */
export function reportUnknownFileKeys(
  file: Record<string, unknown>,
  fileName: string | undefined,
  otherKeys: readonly string[],
  issues: ConfigIssue[],
): void {
  const keys = CONFIG_FIELDS.map((field) => [...splitKey(field.key), field.formerKey] as const);
  for (const [key, value] of Object.entries(file)) {
    if (otherKeys.includes(key)) continue;
    const members = membersOf(key);
    if (isGroupObject(key, value)) {
      for (const name of Object.keys(value as object).filter((name) => !members.includes(name))) {
        issues.push({
          field: `${fileName}: ${key}.${name}`,
          message: `unknown setting (expected ${members.join(', ')})`,
        });
      }
    } else if (keys.some(([group, name, former]) => (group === undefined && name === key) || former === key)) {
      // A setting outside any group, or the flat key a grouped setting had (inFile reads it).
    } else if (members.length > 0) {
      issues.push({ field: `${fileName}: ${key}`, message: 'expected an object' });
    } else {
      issues.push({ field: `${fileName}: ${key}`, message: 'unknown setting' });
    }
  }
}

/**
 * `{ 'jwt.issuer': … }` → `{ jwt: { issuer: … } }`, the groups still open (`freezeGroups` closes them).
 * Each value was read by its spec's schema, so `T` is the spec's type (ConfigValues): this is the one
 * place the flat values become the typed config that every rule across settings reads (ADR 052).
 */
export function intoGroups<T = Record<string, unknown>>(values: Readonly<Record<string, unknown>>): T {
  const tree: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    const [group, name] = splitKey(key);
    if (group === undefined) tree[key] = value;
    else {
      tree[group] ??= {};
      (tree[group] as Record<string, unknown>)[name] = value;
    }
  }
  return tree as T;
}

/** The config from `intoGroups` with each of its groups frozen. */
export function freezeGroups<T extends object>(config: T): T {
  for (const [name, value] of Object.entries(config)) {
    if (CONFIG_FIELDS.some((field) => field.key.startsWith(`${name}.`))) Object.freeze(value);
  }
  return config;
}
