import type { ShadowAnswer } from './target.js';

/** What the comparison leaves out or compares in any order, by response path (`topProducts.reviews`). */
export interface DiffRules {
  readonly unordered: ReadonlySet<string>;
  readonly ignored: ReadonlySet<string>;
}

/** One difference: its path (response keys, list positions left out) and, for the log, both values. */
export interface Difference {
  readonly path: string;
  readonly client: unknown;
  readonly shadow: unknown;
}

/**
 * Where two answers differ: `data` field by field (a list of another length differs at the
 * list's path), then `errors` by code and path (`errors.CODE@product.reviews`: messages and
 * `extensions` other than `code` are not compared). Only `data` and `errors` are compared:
 * `extensions` (tracing, cost, the plan) are volatile by nature.
 */
export function differences(client: ShadowAnswer, shadow: ShadowAnswer, rules: DiffRules): Difference[] {
  const found = new Map<string, Difference>();
  walk(client.data ?? null, shadow.data ?? null, '', rules, found);
  const clientErrors = errorKeys(client);
  const shadowErrors = errorKeys(shadow);
  for (const key of new Set([...clientErrors, ...shadowErrors])) {
    if (clientErrors.has(key) === shadowErrors.has(key)) continue;
    found.set(key, { path: key, client: clientErrors.has(key), shadow: shadowErrors.has(key) });
  }
  return [...found.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function walk(a: unknown, b: unknown, path: string, rules: DiffRules, found: Map<string, Difference>): void {
  if (path !== '' && rules.ignored.has(path)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (rules.unordered.has(path)) {
      if (!sameItems(a, b)) note(found, path, a, b);
      return;
    }
    if (a.length !== b.length) {
      note(found, path, a, b);
      return;
    }
    for (let i = 0; i < a.length; i++) walk(a[i], b[i], path, rules, found);
    return;
  }
  if (isObject(a) && isObject(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      walk(a[key], b[key], path === '' ? key : `${path}.${key}`, rules, found);
    }
    return;
  }
  if (!Object.is(a, b)) note(found, path, a, b);
}

function note(found: Map<string, Difference>, path: string, client: unknown, shadow: unknown): void {
  const key = path === '' ? 'data' : path;
  if (!found.has(key)) found.set(key, { path: key, client, shadow });
}

/** The same items, in any order: each list's items as canonical JSON, sorted. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  const left = a.map(canonical).sort();
  const right = b.map(canonical).sort();
  return left.every((item, i) => item === right[i]);
}

/** JSON with every object's keys sorted, so two equal values are one string. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** `errors.CODE@path` for each error (list positions left out, as data paths). */
function errorKeys(answer: ShadowAnswer): Set<string> {
  const keys = new Set<string>();
  for (const error of answer.errors ?? []) {
    const extensions = isObject(error.extensions) ? error.extensions : {};
    const code = typeof extensions.code === 'string' ? extensions.code : 'NO_CODE';
    const path = (error.path ?? []).filter((part) => typeof part === 'string').join('.');
    keys.add(`errors.${code}${path ? `@${path}` : ''}`);
  }
  return keys;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
