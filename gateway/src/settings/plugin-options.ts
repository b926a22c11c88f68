// The options toolkit every plugin factory uses: it collects every problem into one list
// and throws one PluginOptionsError naming each, so a deploy is fixed in one round.
import { type ConfigIssue, PluginOptionsError } from '../errors.js';
import { isHeaderName, RESERVED_HEADERS } from '../header-names.js';
import { defaultOf, describeValue, readValue, type ValueParser } from './kinds.js';

export class OptionIssues {
  readonly issues: ConfigIssue[] = [];

  /** `prefix` names where the options sit (`RedisStore.`): each issue's field starts with it. */
  constructor(private readonly prefix = '') {}

  add(field: string, message: string): void {
    this.issues.push({ field: `${this.prefix}${field}`, message });
  }

  /**
   * Checks `value` with `schema`, the same one the setting's environment variable is read
   * with, so an option and its variable accept the same values. `undefined` is fine unless
   * `required`. Options are typed: a value the schema would have to convert (`"42"` for 42,
   * `"true"` for true) is refused.
   */
  check(field: string, value: unknown, schema: ValueParser<unknown>, required = false): void {
    if (value === undefined) {
      if (required) this.add(field, 'is required');
      return;
    }
    const parsed = readValue(schema, value);
    if (!parsed.ok) this.add(field, parsed.message);
    else if (parsed.value !== value && (typeof value !== 'object' || value === null)) {
      this.add(field, `expected ${describeValue(schema)}, got ${describe(value)}`);
    }
  }

  /** Throws a PluginOptionsError listing every issue added so far, if any. */
  throwIfAny(plugin: string): void {
    if (this.issues.length > 0) throw new PluginOptionsError(plugin, this.issues);
  }
}

/** Options must be a plain object; anything else is reported on `options`. */
export function asOptionsObject(plugin: string, value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PluginOptionsError(plugin, [{ field: 'options', message: 'must be an object' }]);
  }
  return value as Record<string, unknown>;
}

/** Reports keys the factory does not know: a typo (`algorithm`) must not be silently ignored. */
export function checkKnownKeys(
  issues: OptionIssues,
  options: object,
  known: readonly string[],
  /** Prefixes the field named in the issue (`MemoryStore.`). */
  prefix = '',
): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) issues.add(`${prefix}${key}`, `unknown option (known: ${known.join(', ')})`);
  }
}

/**
 * `options[field]` checked with `schema` (see `OptionIssues.check`), or, when unset or bad,
 * `fallback` (by default the one the schema carries, `withDefault`).
 */
export function optionalValue<T>(
  issues: OptionIssues,
  options: Record<string, unknown>,
  field: string,
  schema: ValueParser<T>,
  fallback: T = defaultOf(schema) as T,
): T {
  const value = options[field];
  if (value === undefined) return fallback;
  const before = issues.issues.length;
  issues.check(field, value, schema);
  return issues.issues.length === before ? (value as T) : fallback;
}

/**
 * Checks a header name and returns it lower-cased. `forbidden` adds names this plugin
 * must not use on top of the reserved ones (e.g. `authorization` for claim headers).
 */
export function headerName(
  issues: OptionIssues,
  field: string,
  value: unknown,
  forbidden: readonly string[] = [],
): string | undefined {
  if (!isHeaderName(value)) {
    issues.add(field, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)");
    return undefined;
  }
  const name = value.toLowerCase();
  if (RESERVED_HEADERS.has(name) || forbidden.includes(name)) {
    issues.add(field, `cannot be "${name}": that header is reserved`);
    return undefined;
  }
  return name;
}

/** A value as an error message shows it: strings quoted, objects by type (never their content). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}
