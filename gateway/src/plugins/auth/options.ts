// Shared option checks for the auth plugins: each factory collects every problem into a
// list and throws one PluginOptionsError, so a deploy is fixed in one round.
import { type ConfigIssue, PluginOptionsError } from '../../errors.js';

/** An HTTP field name (RFC 9110 `token`), lower-cased the way Node reports incoming headers. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/**
 * Headers a plugin must never be configured to read from or write claims into: transport
 * framing (undici owns them), the body type, and headers the gateway itself sets.
 */
const RESERVED_HEADERS = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
  'content-type',
  'accept',
  'x-request-id',
]);

export class OptionIssues {
  readonly issues: ConfigIssue[] = [];

  add(field: string, message: string): void {
    this.issues.push({ field, message });
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
export function checkKnownKeys(issues: OptionIssues, options: Record<string, unknown>, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) issues.add(key, `unknown option (known: ${known.join(', ')})`);
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
  if (typeof value !== 'string' || !HEADER_NAME.test(value.toLowerCase())) {
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
