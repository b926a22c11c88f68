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
