// Running an operation as the request may see it: its variant (the denied selections removed)
// runs, and its answer, each subscription event and each deferred part is patched (null where
// denied, the refusals placed); in a dry run the operation runs unchanged and only reports.
import type { GraphQLError } from 'graphql';
import type { GatewayContext, GatewayPlugin } from '../../plugin-sdk/index.js';
import { mapDeferredParts, mapStreamEvents } from '../../plugin-sdk/index.js';
import type { AnswerPatch } from './operation.js';
import type { AuthorizationErrorLocation } from './options.js';
import { placeRefusals } from './reporting.js';
import { patchAnswer, patchEntry, refusalErrors } from './response.js';
import type { Variant } from './variants.js';

type AroundExecute = NonNullable<GatewayPlugin['aroundExecute']>;
type ExecuteRequest = Parameters<AroundExecute>[0];
type Execute = Parameters<AroundExecute>[1];
type ExecuteResult = Awaited<ReturnType<Execute>>;

/** A dry run: the operation runs as written; its answer (each event of a subscription) reports what would be refused. */
export async function executeDryRun(
  request: ExecuteRequest,
  execute: Execute,
  wouldRefuse: AnswerPatch,
  errorLocation: AuthorizationErrorLocation,
): Promise<ExecuteResult> {
  const refusals = refusalErrors(wouldRefuse);
  const result = await execute();
  const formatted = refusals.map((error) => error.toJSON());
  mapStreamEvents(request.context as GatewayContext, (event) => placeRefusals(event, formatted, errorLocation));
  return placeRefusals(result, refusals, errorLocation);
}

/** The operation's variant runs; its answer, events and deferred parts are patched. */
export async function executeVariant(
  request: ExecuteRequest,
  execute: Execute,
  variant: Variant,
  errorLocation: AuthorizationErrorLocation,
): Promise<ExecuteResult> {
  // Nothing the operation selects is left: `data: null` (as Apollo Router answers), nothing run.
  if (variant.patch.nothingLeft && variant.operation.operation !== 'subscription') {
    const nothing: { data: null; errors?: GraphQLError[]; extensions?: Record<string, unknown> } = { data: null };
    return placeRefusals(nothing, refusalErrors(variant.patch), errorLocation);
  }
  const result = await execute({
    ...request,
    document: variant.document,
    operation: variant.operation,
    queryHash: `${request.queryHash}:${variant.key}`,
  });
  // A subscription's events arrive later, each patched as an answer is.
  mapStreamEvents(request.context as GatewayContext, (event) => {
    const { data, errors } = patchedResult(event.data, variant.patch);
    const formatted = errors.map((error) => error.toJSON());
    return placeRefusals({ ...event, data }, formatted, errorLocation);
  });
  // So are an operation's deferred parts, each at its path.
  mapDeferredParts(request.context as GatewayContext, (part) =>
    part.incremental
      ? {
          ...part,
          incremental: part.incremental.map((entry) =>
            'items' in entry
              ? placedItems(entry, variant.patch, errorLocation)
              : placedEntry(entry, variant.patch, errorLocation),
          ),
        }
      : part,
  );
  const patched = patchedResult(result.data, variant.patch);
  return placeRefusals({ ...result, data: patched.data }, patched.errors, errorLocation);
}

/** `data` with the denied fields null and the refusals' errors (nothing to patch in an answer without data). */
function patchedResult(data: unknown, patch: AnswerPatch) {
  return data && typeof data === 'object'
    ? patchAnswer(data as Record<string, unknown>, patch)
    : { data: data as null | undefined, errors: [] };
}

type StreamedItems = { items: unknown[] | null; path: (string | number)[]; errors?: readonly GraphQLError[] };

/** A streamed list's items (@stream), each patched as the entry at its index would be, their refusals placed once. */
function placedItems<E extends StreamedItems>(entry: E, patch: AnswerPatch, location: AuthorizationErrorLocation): E {
  if (!entry.items) return entry;
  const list = entry.path.slice(0, -1);
  const start = Number(entry.path.at(-1));
  const own = new Set(entry.errors ?? []);
  const refusals = new Set<GraphQLError>();
  let changed = false;
  const items = entry.items.map((item, index) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    const at: { data: Record<string, unknown> | null; path: (string | number)[]; errors?: readonly GraphQLError[] } = {
      data: item as Record<string, unknown>,
      path: [...list, start + index],
    };
    const patched = patchEntry(at, patch);
    for (const error of patched.errors ?? []) if (!own.has(error)) refusals.add(error);
    if (patched.data !== item) changed = true;
    return patched.data;
  });
  if (!changed) return entry;
  return placeRefusals({ ...entry, items } as E & { extensions?: Record<string, unknown> }, [...refusals], location);
}

/** A deferred entry patched, its refusals (those patchEntry added) placed as the answer's are. */
function placedEntry<E extends Parameters<typeof patchEntry>[0]>(
  entry: E,
  patch: AnswerPatch,
  location: AuthorizationErrorLocation,
): E {
  const patched = patchEntry(entry, patch);
  if (patched === entry || location === 'errors') return patched;
  const own = new Set(entry.errors ?? []);
  const refusals = (patched.errors ?? []).filter((error) => !own.has(error));
  const rest = { ...patched, errors: entry.errors } as E;
  if (!entry.errors) delete (rest as { errors?: unknown }).errors;
  return placeRefusals(rest as E & { extensions?: Record<string, unknown> }, refusals, location);
}
