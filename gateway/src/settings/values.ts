/**
 * Parsers for single config values. Each takes a raw value (a string from the
 * environment, or a JSON value from the config file) and returns the typed value or
 * a message saying what was expected.
 */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
export type ValueParser<T> = (raw: unknown) => Parsed<T>;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = (message: string): Parsed<never> => ({ ok: false, message });
const shown = (raw: unknown) => JSON.stringify(raw);

export function oneOf<const T extends string>(choices: readonly T[]): ValueParser<T> {
  return (raw) =>
    typeof raw === 'string' && (choices as readonly string[]).includes(raw)
      ? ok(raw as T)
      : fail(`expected one of ${choices.join(' | ')}, got ${shown(raw)}`);
}

export function integer(min: number, max: number): ValueParser<number> {
  return (raw) => {
    const value = typeof raw === 'string' && /^-?\d+$/.test(raw.trim()) ? Number(raw) : raw;
    return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
      ? ok(value)
      : fail(`expected an integer from ${min} to ${max}, got ${shown(raw)}`);
  };
}

export const boolean: ValueParser<boolean> = (raw) => {
  if (raw === true || raw === 'true' || raw === '1') return ok(true);
  if (raw === false || raw === 'false' || raw === '0') return ok(false);
  return fail(`expected true or false, got ${shown(raw)}`);
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2 };

/** Bytes, as a number or a string like `2mb`, `512kb`, `1048576`. */
export function byteSize(min: number, max: number): ValueParser<number> {
  return (raw) => {
    const match =
      typeof raw === 'number'
        ? ([String(raw), String(raw), ''] as const)
        : typeof raw === 'string'
          ? /^\s*(\d+)\s*(b|kb|mb)?\s*$/i.exec(raw)
          : null;
    const value = match ? Number(match[1]) * (SIZE_UNITS[(match[2] ?? '').toLowerCase()] ?? 1) : Number.NaN;
    return Number.isInteger(value) && value >= min && value <= max
      ? ok(value)
      : fail(`expected a size in bytes from ${min} to ${max} (e.g. 2mb, 512kb), got ${shown(raw)}`);
  };
}

export const httpUrl: ValueParser<string> = (raw) => {
  if (typeof raw === 'string') {
    try {
      const url = new URL(raw);
      if (url.protocol === 'http:' || url.protocol === 'https:') return ok(url.toString());
    } catch {
      // reported below
    }
  }
  return fail(`expected an http(s) URL, got ${shown(raw)}`);
};

export const nonEmpty: ValueParser<string> = (raw) =>
  typeof raw === 'string' && raw.trim() !== ''
    ? ok(raw.trim())
    : fail(`expected a non-empty string, got ${shown(raw)}`);

export const urlPath: ValueParser<string> = (raw) =>
  typeof raw === 'string' && /^\/[A-Za-z0-9._~\-/]*$/.test(raw)
    ? ok(raw)
    : fail(`expected a path starting with "/", got ${shown(raw)}`);

/** A comma-separated list of non-empty items. */
export function list<T>(item: ValueParser<T> = nonEmpty as ValueParser<T>): ValueParser<T[]> {
  return (raw) => {
    const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',').map((part) => part.trim()) : null;
    if (!items || items.some((part) => part === '')) return fail(`expected a comma-separated list, got ${shown(raw)}`);
    const values: T[] = [];
    for (const part of items) {
      const parsed = item(part);
      if (!parsed.ok) return parsed;
      values.push(parsed.value);
    }
    return ok(values);
  };
}

/** `key:value,key:value` (or a JSON object in the config file); values parsed by `value`. */
export function pairs<T>(value: ValueParser<T>, what = 'key:value'): ValueParser<Record<string, T>> {
  return (raw) => {
    const entries: [string, unknown][] = [];
    if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) entries.push(...Object.entries(raw));
    else if (typeof raw === 'string') {
      for (const part of raw.split(',')) {
        const at = part.indexOf(':');
        if (at <= 0) return fail(`expected ${what} pairs separated by commas, got ${shown(raw)}`);
        entries.push([part.slice(0, at).trim(), part.slice(at + 1).trim()]);
      }
    } else return fail(`expected ${what} pairs separated by commas, got ${shown(raw)}`);
    const result: Record<string, T> = {};
    for (const [key, item] of entries) {
      const parsed = value(item);
      if (!parsed.ok) return fail(`${key}: ${parsed.message}`);
      result[key] = parsed.value;
    }
    return ok(result);
  };
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A duration such as `500ms`, `60s`, `5m`, `1h`, or a number of milliseconds. */
export function duration(minMs: number, maxMs: number): ValueParser<number> {
  return (raw) => {
    const match =
      typeof raw === 'number'
        ? ['', String(raw), 'ms']
        : typeof raw === 'string'
          ? /^\s*(\d+)\s*(ms|s|m|h)?\s*$/.exec(raw)
          : null;
    const value = match ? Number(match[1]) * (DURATION_UNITS[match[2] ?? 'ms'] ?? 1) : Number.NaN;
    return Number.isInteger(value) && value >= minMs && value <= maxMs
      ? ok(value)
      : fail(`expected a duration from ${minMs} ms to ${maxMs} ms (e.g. 60s, 500ms, 5m), got ${shown(raw)}`);
  };
}

/** JSON text (environment) or an already-parsed value (config file). */
export const json: ValueParser<unknown> = (raw) => {
  if (typeof raw !== 'string') return ok(raw);
  try {
    return ok(JSON.parse(raw));
  } catch (error) {
    return fail(`expected JSON: ${(error as Error).message}`);
  }
};

/** Wraps a parser so its error never shows the raw value (secrets). */
export function secret<T>(parser: ValueParser<T>, expected: string): ValueParser<T> {
  return (raw) => {
    const parsed = parser(raw);
    return parsed.ok ? parsed : fail(`${expected} (value not shown: it is a secret)`);
  };
}
