// The options toolkit every plugin factory uses: it collects every problem into one list
// and throws one PluginOptionsError naming each, so a deploy is fixed in one round.
import { type ConfigIssue, PluginOptionsError } from '../errors.js';
import { isHeaderName, RESERVED_HEADERS } from '../header-names.js';

export class OptionIssues {
  readonly issues: ConfigIssue[] = [];

  add(field: string, message: string): void {
    this.issues.push({ field, message });
  }

  /** An integer in [min, max]; `undefined` is fine unless `required`. */
  integer(field: string, value: unknown, min: number, max = Number.MAX_SAFE_INTEGER, required = false): void {
    if (value === undefined) {
      if (required) this.add(field, 'is required');
      return;
    }
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`;
      this.add(field, `expected an integer ${range}, got ${describe(value)}`);
    }
  }

  /** One of `allowed`; `undefined` is fine. */
  oneOf(field: string, value: unknown, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value as string)) {
      this.add(field, `expected one of ${allowed.join(' | ')}, got ${describe(value)}`);
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

export function optionalBoolean(
  issues: OptionIssues,
  options: Record<string, unknown>,
  field: string,
  fallback: boolean,
): boolean {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    issues.add(field, 'must be a boolean');
    return fallback;
  }
  return value;
}

export function optionalNonEmptyString(
  issues: OptionIssues,
  options: Record<string, unknown>,
  field: string,
): string | undefined {
  const value = options[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    issues.add(field, 'must be a non-empty string');
    return undefined;
  }
  return value;
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

/** A non-negative (or, with `positive`, strictly positive) integer number of milliseconds. */
export function optionalDuration(
  issues: OptionIssues,
  options: Record<string, unknown>,
  field: string,
  fallback: number,
  { positive = false }: { positive?: boolean } = {},
): number {
  const value = options[field];
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || (positive && value === 0)) {
    issues.add(field, `must be a ${positive ? 'positive' : 'non-negative'} integer (milliseconds)`);
    return fallback;
  }
  return value;
}

/** A value as an error message shows it: strings quoted, objects by type (never their content). */
export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}
