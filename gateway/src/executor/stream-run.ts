import type { GraphQLError } from 'graphql';
import type { CompiledPlan } from './compiled-plan.js';
import type { Pending, StreamEntry } from './deferred-plan.js';
import { asGraphQLError, type IncrementalRun, type SubsequentPart, shapeAnswer } from './deferred-run.js';
import { type PlanRun, rootCursor, runNode } from './run-plan.js';
import type { ActiveStreams } from './stream-sites.js';
import {
  occurrencesOf,
  REST_BATCHES,
  rangeOf,
  type StreamOccurrence,
  type StreamTree,
  settle,
  sharedNodes,
  streamTree,
  viewThrough,
} from './stream-window.js';

type Run = Omit<PlanRun, 'errors' | 'variableDefinitions'>;
type Json = Record<string, unknown>;

/**
 * Runs a plan whose operation streams lists (@stream, ADR 060). The plan runs once per batch
 * (stream-window.ts), all at once: the initial run makes the root fetches and every fetch off the
 * streamed lists, and fetches below a streamed list only for its first `initialCount` items;
 * each later batch waits for the fetches it shares with the initial run, then fetches for its
 * own items. The initial part is the data with each list cut after its initial items; each
 * batch, once it and every batch before it are in, sends its items of each list, in order.
 */
export async function runStreamed(plan: CompiledPlan, streams: ActiveStreams, context: Run): Promise<IncrementalRun> {
  const variableDefinitions = plan.operation.variableDefinitions;
  const variables = context.requestContext.request.variables;
  const merged: Json = Object.create(null);
  const shared = sharedNodes();
  const runs: PlanRun[] = [];
  const finished: Promise<void>[] = [];
  for (let batch = 0; batch <= REST_BATCHES; batch++) {
    const run: PlanRun = { ...context, variableDefinitions, errors: [], window: { batch, streams, shared } };
    runs.push(run);
    const running = plan.node ? runNode(run, plan.node, rootCursor(merged)) : Promise.resolve();
    finished.push(running.catch((error: unknown) => void run.errors.push(asGraphQLError(error))));
  }
  await finished[0];
  settle(shared);
  const tree = streamTree(streams);
  const initial = shapeAnswer(plan.shaper, viewThrough(merged, tree, 0) as Json, variables, runs[0]?.errors ?? []);
  const lists = occurrencesOf(merged, tree);
  const pending = lists
    .filter(({ items, stream }) => items !== null && items.length > stream.initialCount)
    .map(({ path, stream }) => ({
      key: streamKey(path),
      path,
      ...(stream.label !== undefined && { label: stream.label }),
    }));
  async function* rest(): AsyncGenerator<SubsequentPart, void, undefined> {
    for (let batch = 1; batch <= REST_BATCHES; batch++) {
      await finished[batch];
      const entries = batchEntries(plan, tree, merged, variables, batch);
      const errors = runs[batch]?.errors ?? [];
      attachErrors(entries, errors, lists, batch);
      const hasNext = batch < REST_BATCHES;
      if (entries.length > 0 || !hasNext) yield { ...(entries.length > 0 && { incremental: entries }), hasNext };
    }
  }
  return { initial, rest: rest(), pending: pending as Pending[] };
}

function streamKey(path: readonly (string | number)[]): string {
  return `stream:${JSON.stringify(path)}`;
}

/** The batch's items of every streamed list, shaped with the data as it stands through the batch. */
function batchEntries(
  plan: CompiledPlan,
  tree: StreamTree,
  merged: Json,
  variables: Record<string, unknown> | undefined,
  batch: number,
): StreamEntry[] {
  let shaped: Json | null;
  try {
    shaped = plan.shaper.shape(viewThrough(merged, tree, batch) as Json, variables).data;
  } catch {
    shaped = null;
  }
  const entries: StreamEntry[] = [];
  for (const { path, stream, items } of occurrencesOf(shaped, tree)) {
    if (!items) continue;
    const [start, end] = rangeOf(batch, stream);
    if (items.length <= start) continue;
    entries.push({
      items: items.slice(start, end),
      path: [...path, start],
      ...(stream.label !== undefined && { label: stream.label }),
      pendingKey: streamKey(path),
    });
  }
  return entries;
}

/**
 * A batch's fetch errors go with its first entry; a batch whose list was nulled by them reports
 * them on an empty one, where its items would have started.
 */
function attachErrors(
  entries: StreamEntry[],
  errors: readonly GraphQLError[],
  lists: readonly StreamOccurrence[],
  batch: number,
): void {
  if (errors.length === 0) return;
  const first = entries[0];
  if (first) {
    first.errors = errors;
    return;
  }
  const list = lists[0];
  if (!list) return;
  const [start] = rangeOf(batch, list.stream);
  entries.push({
    items: [],
    path: [...list.path, start],
    ...(list.stream.label !== undefined && { label: list.stream.label }),
    errors,
    pendingKey: streamKey(list.path),
  });
}
