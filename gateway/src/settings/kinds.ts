/**
 * The kinds of setting values, as valibot schemas (ADR 023). Each reads a raw value (a string
 * from the environment, or a JSON value from the config file) into its type; its description
 * says what it expects, and the one message a bad value gets is built from it:
 * `expected <description>, got <the raw value>` (never the value of a secret). The env
 * parser, the config-file parser and the plugin factories all check values with these, so a
 * range is written once.
 */
import * as v from 'valibot';

/** A setting's schema: from a raw value to `T`. */
export type ValueParser<T> = v.GenericSchema<unknown, T>;
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const shown = (raw: unknown) => JSON.stringify(raw);
const SECRET = 'secret';

/** Reads `raw` with `schema`: the value, or what was expected and what came. */
export function readValue<T>(schema: ValueParser<T>, raw: unknown): Parsed<T> {
  const result = v.safeParse(schema, raw, { abortEarly: true, abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const issue = result.issues[0];
  // An item of a list or a value of a pair failed: its own message says which.
  if (issue.message.startsWith('!')) return { ok: false, message: issue.message.slice(1) };
  const expected = v.getDescription(schema) ?? 'a valid value';
  if (v.getMetadata(schema)[SECRET])
    return { ok: false, message: `expected ${expected} (value not shown: it is a secret)` };
  return { ok: false, message: `expected ${expected}, got ${shown(raw)}` };
}

/** What `schema` expects, as its error messages say it ("an integer from 1 to 10"). */
export function describeValue(schema: ValueParser<unknown>): string {
  return v.getDescription(schema) ?? 'a valid value';
}

/** A whole number from the environment (`"42"`) or the file (`42`). */
const wholeNumber = v.union([
  v.pipe(v.number(), v.integer()),
  v.pipe(v.string(), v.trim(), v.regex(/^-?\d+$/), v.transform(Number)),
]);

export function oneOf<const T extends string>(choices: readonly T[]): ValueParser<T> {
  return v.pipe(v.picklist(choices), v.description(`one of ${choices.join(' | ')}`));
}

export function integer(min: number, max: number): ValueParser<number> {
  return v.pipe(wholeNumber, v.minValue(min), v.maxValue(max), v.description(`an integer from ${min} to ${max}`));
}

export const boolean: ValueParser<boolean> = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])]),
  v.transform((raw) => raw === true || raw === 'true' || raw === '1'),
  v.description('true or false'),
);

/**
 * A whole number with an optional unit (`2mb`, `60s`), or a number in the base unit; `units`
 * maps each unit to its size, and `baseUnit` is the one assumed without a unit.
 */
function withUnits(
  units: Readonly<Record<string, number>>,
  baseUnit: string,
  min: number,
  max: number,
  description: string,
): ValueParser<number> {
  const pattern = new RegExp(`^\\s*(\\d+)\\s*(${Object.keys(units).join('|')})?\\s*$`, 'i');
  return v.pipe(
    v.union([
      v.pipe(v.number(), v.integer()),
      v.pipe(
        v.string(),
        v.regex(pattern),
        v.transform((raw) => {
          const [, digits, unit = baseUnit] = pattern.exec(raw) as RegExpExecArray;
          return Number(digits) * (units[unit.toLowerCase()] ?? 1);
        }),
      ),
    ]),
    v.minValue(min),
    v.maxValue(max),
    v.description(description),
  );
}

/** Bytes, as a number or a string like `2mb`, `512kb`, `1048576`. */
export function byteSize(min: number, max: number): ValueParser<number> {
  const units = { b: 1, kb: 1024, mb: 1024 ** 2 };
  return withUnits(units, 'b', min, max, `a size in bytes from ${min} to ${max} (e.g. 2mb, 512kb)`);
}

/** A duration such as `500ms`, `60s`, `5m`, `1h`, or a number of milliseconds. */
export function duration(minMs: number, maxMs: number): ValueParser<number> {
  const units = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  return withUnits(units, 'ms', minMs, maxMs, `a duration from ${minMs} ms to ${maxMs} ms (e.g. 60s, 500ms, 5m)`);
}

/** A number in [min, max] (above `min` when `minExclusive`), from `0.1` or a number in the file. */
export function share(min: number, max: number, minExclusive = false): ValueParser<number> {
  return v.pipe(
    v.union([v.number(), v.pipe(v.string(), v.trim(), v.regex(/^\d+(\.\d+)?$/), v.transform(Number))]),
    v.check((value) => (minExclusive ? value > min : value >= min) && value <= max),
    v.description(
      `a number ${minExclusive ? 'above' : 'from'} ${min} ${minExclusive ? 'up ' : ''}to ${max} (e.g. 0.1)`,
    ),
  );
}

export const httpUrl: ValueParser<string> = v.pipe(
  v.string(),
  v.check((raw) => URL.canParse(raw) && ['http:', 'https:'].includes(new URL(raw).protocol)),
  v.transform((raw) => new URL(raw).toString()),
  v.description('an http(s) URL'),
);

export const nonEmpty: ValueParser<string> = v.pipe(
  v.string(),
  v.trim(),
  v.nonEmpty(),
  v.description('a non-empty string'),
);

export const urlPath: ValueParser<string> = v.pipe(
  v.string(),
  v.regex(/^\/[A-Za-z0-9._~\-/]*$/),
  v.description('a path starting with "/"'),
);

/** A message that `readValue` passes on as it is (an item's own problem, named). */
const named = (message: string) => `!${message}`;

/** A comma-separated list of non-empty items (a JSON array in the file), each read by `item`. */
export function list(): ValueParser<string[]>;
export function list<T>(item: ValueParser<T>): ValueParser<T[]>;
export function list<T>(item: ValueParser<T> = nonEmpty as ValueParser<T>): ValueParser<T[]> {
  return v.pipe(
    v.union([
      v.array(v.unknown()),
      v.pipe(
        v.string(),
        v.transform((raw) => raw.split(',').map((part) => part.trim())),
      ),
    ]),
    v.check((items) => items.every((part) => part !== '')),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const values: T[] = [];
      for (const part of dataset.value) {
        const parsed = readValue(item, part);
        if (!parsed.ok) {
          addIssue({ message: named(parsed.message) });
          return NEVER;
        }
        values.push(parsed.value);
      }
      return values;
    }),
    v.description('a comma-separated list'),
  );
}

/** `key:value,key:value` (or a JSON object in the config file); values read by `value`. */
export function pairs<T>(value: ValueParser<T>, what = 'key:value'): ValueParser<Record<string, T>> {
  return v.pipe(
    v.union([
      v.pipe(
        v.record(v.string(), v.unknown()),
        v.transform((raw) => Object.entries(raw)),
      ),
      v.pipe(
        v.string(),
        v.check((raw) => raw.split(',').every((part) => part.indexOf(':') > 0)),
        v.transform((raw) =>
          raw.split(',').map((part): [string, unknown] => {
            const at = part.indexOf(':');
            return [part.slice(0, at).trim(), part.slice(at + 1).trim()];
          }),
        ),
      ),
    ]),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const result: Record<string, T> = {};
      for (const [key, item] of dataset.value) {
        const parsed = readValue(value, item);
        if (!parsed.ok) {
          addIssue({ message: named(`${key}: ${parsed.message}`) });
          return NEVER;
        }
        result[key] = parsed.value;
      }
      return result;
    }),
    v.description(`${what} pairs separated by commas`),
  );
}

/** JSON text (environment) or an already-parsed value (config file). */
export const json: ValueParser<unknown> = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (typeof dataset.value !== 'string') return dataset.value;
    try {
      return JSON.parse(dataset.value);
    } catch (error) {
      addIssue({ message: named(`expected JSON: ${(error as Error).message}`) });
      return NEVER;
    }
  }),
  v.description('JSON'),
);

/**
 * A format of our own that the library's pieces do not express (API key entries, plugin
 * profiles): `read` returns the value, or the whole message a bad value gets.
 */
export function custom<T>(description: string, read: (raw: unknown) => Parsed<T>): ValueParser<T> {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const parsed = read(dataset.value);
      if (parsed.ok) return parsed.value;
      addIssue({ message: named(parsed.message) });
      return NEVER;
    }),
    v.description(description),
  );
}

/** The same schema, whose errors never show the raw value (secrets). */
export function secret<T>(schema: ValueParser<T>, expected: string): ValueParser<T> {
  return v.pipe(schema, v.description(expected.replace(/^expected /, '')), v.metadata({ [SECRET]: true }));
}

const DEVELOPMENT_DEFAULT = 'developmentDefault';

/**
 * The same schema with its default: the one place a setting's range and default live. A
 * missing value reads as `fallback`; `developmentDefault` is the one GATEWAY_ENV=development
 * uses instead (introspection on, pretty logs).
 */
export function withDefault<T>(
  schema: ValueParser<T>,
  fallback: NoInfer<T>,
  developmentDefault?: { development: NoInfer<T> },
): WithDefault<T> {
  const metadata = { ...v.getMetadata(schema) };
  if (developmentDefault) metadata[DEVELOPMENT_DEFAULT] = developmentDefault.development;
  return v.pipe(
    v.optional(schema, fallback as never),
    v.description(describeValue(schema)),
    v.metadata(metadata),
  ) as unknown as WithDefault<T>;
}

/** A schema that carries its default (made by `withDefault`). */
export type WithDefault<T> = ValueParser<T> & { readonly default: unknown };

/** The default `schema` carries (`withDefault`), for the given GATEWAY_ENV; `undefined` if none. */
export function defaultOf<T>(schema: ValueParser<T>, env: 'production' | 'development' = 'production'): T | undefined {
  const metadata = v.getMetadata(schema);
  if (env === 'development' && DEVELOPMENT_DEFAULT in metadata) return metadata[DEVELOPMENT_DEFAULT] as T;
  return v.getDefault(schema as never) as T | undefined;
}

/** Parsed lists and maps are shared by every reader of the config: typed read-only. */
export type Frozen<T> = T extends readonly (infer U)[] ? readonly U[] : T extends object ? Readonly<T> : T;

/**
 * The settings a group of schemas reads into, by name: required where the schema has a default,
 * optional otherwise, typed by its output. A part that reads a config group (`SUBSCRIPTION_VALUES`)
 * types it this way from the schemas the config's specs parse it with, so the type is written once.
 */
export type SettingsOf<S extends Readonly<Record<string, ValueParser<unknown>>>> = {
  readonly [K in keyof S as S[K] extends WithDefault<unknown> ? K : never]: Frozen<v.InferOutput<S[K]>>;
} & {
  readonly [K in keyof S as S[K] extends WithDefault<unknown> ? never : K]?: Frozen<v.InferOutput<S[K]>>;
};

/** The production defaults of a group of schemas, by name (`RATE_LIMIT_DEFAULTS`). */
export function defaultsOf<const S extends Readonly<Record<string, ValueParser<unknown>>>>(
  schemas: S,
): {
  readonly [K in keyof S as S[K] extends WithDefault<unknown> ? K : never]: S[K] extends ValueParser<infer T>
    ? T
    : never;
} {
  const defaults: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const value = defaultOf(schema);
    if (value !== undefined) defaults[name] = value;
  }
  return Object.freeze(defaults) as never;
}
