/**
 * @apollo/gateway's `deepMerge` (utilities/deepMerge.js), step for step: the same keys in the
 * same order, the same `defineOwn` guard for inherited names, the same element-wise merge of
 * lists of one length. It walks `source` with `for…in` and an own-property check where the
 * original calls `Object.keys`: that array, one per merged object, was most of what merging
 * subgraph answers into the result allocated (issue 31); `for…in` over an object with a
 * fast map reads V8's enum cache and allocates nothing.
 */
export function deepMerge(target: unknown, source: unknown): unknown {
  if (source === undefined || source === null) return target;
  const from = source as Record<string, unknown>;
  const into = target as Record<string, unknown>;
  for (const key in from) {
    if (!Object.hasOwn(from, key)) continue;
    const value = from[key];
    if (value === undefined) continue;
    defineOwn(into, key);
    const existing = into[key];
    if (existing && isObject(value)) {
      deepMerge(existing, value);
    } else if (Array.isArray(value) && Array.isArray(existing) && value.length === existing.length) {
      for (let i = 0; i < value.length; i++) {
        if (isObject(existing[i]) && isObject(value[i])) deepMerge(existing[i], value[i]);
        else existing[i] = value[i];
      }
    } else {
      into[key] = value;
    }
  }
  return target;
}

/** own.js's `defineOwn`: an inherited name (`toString`) becomes an own property before it is written. */
function defineOwn(object: Record<string, unknown>, key: string): void {
  if (!Object.hasOwn(object, key) && key in object) {
    Object.defineProperty(object, key, { configurable: true, enumerable: true, value: undefined, writable: true });
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== undefined && value !== null && typeof value === 'object' && !Array.isArray(value);
}
