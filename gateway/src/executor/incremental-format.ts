import type { GraphQLFormattedError } from 'graphql';
import { parseAccept } from '../transport-choice.js';
import type { Pending } from './deferred-plan.js';

type Path = (string | number)[];

/**
 * The two formats an incremental answer (@defer, @stream) is written in, by the client's Accept:
 *
 * - `20220824`: `multipart/mixed;deferSpec=20220824` (Apollo Client 4's Defer20220824Handler,
 *   Apollo Router), and a plain `multipart/mixed` (urql). Later parts carry
 *   `incremental: [{data, path, label}]` for @defer and `[{items, path: [...list, firstIndex], label}]` for @stream.
 * - `v0.2`: `multipart/mixed;incrementalSpec=v0.2` (Apollo Client 4's GraphQL17Alpha9Handler,
 *   graphql-js 17.0.0-alpha.9): the initial part announces `pending: [{id, path, label}]`, later
 *   parts carry `incremental: [{id, data}]` / `[{id, items}]` and `completed: [{id, errors?}]`.
 *
 * The client's preference decides (q, then order); another spec parameter is not ours.
 */
export type IncrementalFormat = '20220824' | 'v0.2';

export const MEDIA_TYPES: Readonly<Record<IncrementalFormat, string>> = {
  '20220824': 'multipart/mixed; deferSpec=20220824',
  'v0.2': 'multipart/mixed; incrementalSpec=v0.2',
};

/** The format an Accept header takes, or undefined when it takes neither (Apollo Router's 406). */
export function incrementalFormat(
  accept: string | readonly string[] | null | undefined,
): IncrementalFormat | undefined {
  let best: { format: IncrementalFormat; q: number; index: number; specific: boolean } | undefined;
  for (const range of parseAccept(accept)) {
    if (range.type !== 'multipart' || range.subtype !== 'mixed' || range.q <= 0) continue;
    const specs = [...range.parameters.entries()].filter(([name]) => name.endsWith('spec'));
    let format: IncrementalFormat;
    if (specs.length === 0) format = '20220824';
    else if (specs.length !== 1) continue;
    else if (specs[0]?.[0] === 'deferspec' && specs[0][1] === '20220824') format = '20220824';
    else if (specs[0]?.[0] === 'incrementalspec' && specs[0][1] === 'v0.2') format = 'v0.2';
    else continue;
    const specific = specs.length === 1;
    const better =
      !best ||
      range.q > best.q ||
      (range.q === best.q && specific && !best.specific) ||
      (range.q === best.q && specific === best.specific && range.index < best.index);
    if (better) best = { format, q: range.q, index: range.index, specific };
  }
  return best?.format;
}

interface Entry20220824 {
  data?: Record<string, unknown> | null;
  items?: unknown[] | null;
  path: Path;
  label?: string;
  errors?: readonly GraphQLFormattedError[];
  pendingKey?: string;
}

export interface Part20220824 {
  incremental?: Entry20220824[];
  hasNext: boolean;
}

/**
 * Rewrites 2022-08-24 parts (what the executor and plugins handle) as v0.2 ones: each announced
 * boundary gets an id; a deferred fragment's entry is its `data` then `completed`; a stream's
 * items are `items` under its id, `completed` once the last part is written. Errors no boundary
 * takes (the response budget's final error) complete the ones still open at the end.
 */
export function toV02(pending: readonly Pending[]) {
  const ids = new Map<string, string>();
  for (const [index, boundary] of pending.entries()) ids.set(boundary.key, String(index));
  const open = new Set(ids.values());
  const announced = pending.map(({ key, path, label }) => ({
    id: ids.get(key) as string,
    path,
    ...(label !== undefined && { label }),
  }));
  // Errors no open boundary takes: they complete the boundaries still open at the end.
  let orphanErrors: GraphQLFormattedError[] = [];
  const convert = (part: Part20220824) => {
    const incremental: Record<string, unknown>[] = [];
    const completed: Record<string, unknown>[] = [];
    for (const entry of part.incremental ?? []) {
      const id = entry.pendingKey === undefined ? undefined : ids.get(entry.pendingKey);
      if (id === undefined || !open.has(id)) {
        orphanErrors = [...orphanErrors, ...(entry.errors ?? [])];
        continue;
      }
      const errors = entry.errors && { errors: entry.errors };
      if ('items' in entry) {
        if (entry.items) incremental.push({ id, items: entry.items, ...errors });
        else {
          completed.push({ id, ...errors });
          open.delete(id);
        }
      } else if (entry.data) {
        incremental.push({ id, data: entry.data, ...errors });
        completed.push({ id });
        open.delete(id);
      } else {
        completed.push({ id, ...(entry.errors ? errors : {}) });
        open.delete(id);
      }
    }
    if (!part.hasNext) {
      for (const id of open) completed.push({ id, ...(orphanErrors.length > 0 && { errors: orphanErrors }) });
      open.clear();
    }
    return {
      ...(incremental.length > 0 && { incremental }),
      ...(completed.length > 0 && { completed }),
      hasNext: part.hasNext,
    };
  };
  return { pending: announced, convert };
}
