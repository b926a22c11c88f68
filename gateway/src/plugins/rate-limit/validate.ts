import { type ConfigIssue, PluginOptionsError } from '../../errors.js';

export const PLUGIN_NAME = 'rate-limit';

/** Collects option problems so a factory reports all of them at once. */
export class OptionIssues {
  readonly list: ConfigIssue[] = [];

  add(field: string, message: string): void {
    this.list.push({ field, message });
  }

  /** An integer in [min, max]; `undefined` is fine when the option is optional. */
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

  oneOf(field: string, value: unknown, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value as string)) {
      this.add(field, `expected one of ${allowed.join(' | ')}, got ${describe(value)}`);
    }
  }

  /** Flags keys the options type does not have (typos, or options of another plugin). */
  unknownKeys(prefix: string, options: object, known: readonly string[]): void {
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) this.add(`${prefix}${key}`, 'unknown option (a typo?)');
    }
  }

  throwIfAny(): void {
    if (this.list.length > 0) throw new PluginOptionsError(PLUGIN_NAME, this.list);
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  return typeof value;
}

export function isRedisUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'redis:' || url.protocol === 'rediss:') && url.hostname !== '';
  } catch {
    return false;
  }
}
