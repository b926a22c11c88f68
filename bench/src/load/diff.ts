/**
 * The first place where `actual` differs from `expected`, as `at data.user.orders[2].name:
 * expected "Ada", got "Bob"`; null when they are deeply equal (JSON values only).
 */
export function firstDifference(actual: unknown, expected: unknown, path = ''): string | null {
  if (Object.is(actual, expected)) return null;
  const at = path === '' ? 'the top level' : path;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `at ${at}: expected an array, got ${show(actual)}`;
    for (let i = 0; i < Math.min(actual.length, expected.length); i++) {
      const found = firstDifference(actual[i], expected[i], `${path}[${i}]`);
      if (found) return found;
    }
    if (actual.length !== expected.length) {
      return `at ${at}: expected ${expected.length} items, got ${actual.length}`;
    }
    return null;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `at ${at}: expected an object, got ${show(actual)}`;
    for (const key of Object.keys(expected)) {
      const child = path === '' ? key : `${path}.${key}`;
      if (!(key in actual)) return `at ${child}: missing (expected ${show(expected[key])})`;
      const found = firstDifference(actual[key], expected[key], child);
      if (found) return found;
    }
    for (const key of Object.keys(actual)) {
      if (!(key in expected)) return `at ${path === '' ? key : `${path}.${key}`}: unexpected ${show(actual[key])}`;
    }
    return null;
  }
  return `at ${at}: expected ${show(expected)}, got ${show(actual)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A short JSON rendering for messages. */
function show(value: unknown): string {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
