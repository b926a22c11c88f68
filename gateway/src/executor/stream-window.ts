import type { PlanNode } from '@apollo/query-planner';
import type { Cursor } from './result-paths.js';
import type { ActiveStream, ActiveStreams } from './stream-sites.js';

type Path = (string | number)[];
type Json = Record<string, unknown>;

/**
 * Which batch an item of a streamed list belongs to. Batch 0 is the initial part (the first
 * `initialCount` items); the items after it come in REST_BATCHES batches that double in size
 * (`max(initialCount, 1)` items, then twice that, then the rest), so the first of them arrive
 * early while a plan's downstream fetches run at most REST_BATCHES + 1 times.
 */
export const REST_BATCHES = 3;

export function batchOf(index: number, stream: ActiveStream): number {
  const offset = index - stream.initialCount;
  if (offset < 0) return 0;
  const size = Math.max(stream.initialCount, 1);
  if (offset < size) return 1;
  return offset < 3 * size ? 2 : 3;
}

/** The index range (end exclusive) of `batch` in a streamed list. */
export function rangeOf(batch: number, stream: ActiveStream): [number, number] {
  const size = Math.max(stream.initialCount, 1);
  const starts = [0, stream.initialCount, stream.initialCount + size, stream.initialCount + 3 * size];
  return [starts[batch] as number, starts[batch + 1] ?? Number.POSITIVE_INFINITY];
}

/** Fetch nodes every batch's run needs but only the initial one runs; the others wait for it. */
export interface SharedNodes {
  readonly entries: Map<PlanNode, { promise: Promise<void>; resolve: () => void }>;
  settled: boolean;
}

/** What a batch's run of the plan sees: a streamed list's items beyond its own batch are not there. */
export interface StreamWindow {
  readonly batch: number;
  readonly streams: ActiveStreams;
  readonly shared: SharedNodes;
}

export function sharedNodes(): SharedNodes {
  return { entries: new Map(), settled: false };
}

/** Every shared node done (the initial run ended): no batch waits any more. */
export function settle(shared: SharedNodes): void {
  shared.settled = true;
  for (const entry of shared.entries.values()) entry.resolve();
}

/** Runs a node the initial batch runs for all (a root fetch, a Flatten no streamed list is on); the others wait for it. */
export function runShared(window: StreamWindow, node: PlanNode, run: () => Promise<void>): Promise<void> {
  let entry = window.shared.entries.get(node);
  if (!entry) {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    entry = { promise, resolve };
    window.shared.entries.set(node, entry);
    if (window.shared.settled) resolve();
  }
  if (window.batch !== 0) return entry.promise;
  const done = entry.resolve;
  return run().finally(done);
}

/** Whether a Flatten path walks through a streamed list's items (then each batch fetches for its own). */
export function crossesStream(prefix: Path, path: Path, streams: ActiveStreams): boolean {
  const names: string[] = [];
  for (const step of [...prefix, ...path]) {
    if (step === '@') {
      if (streams.has(names.join('.'))) return true;
    } else if (typeof step === 'string') names.push(step);
  }
  return false;
}

/**
 * `moveIntoCursor` for a batch: the entities at `path` whose batch is the window's (an
 * entity's batch is that of the first streamed-list item past the initial ones on its path),
 * with each one's path in the result for its errors.
 */
export function moveIntoWindow(cursor: Cursor, path: Path, window: StreamWindow): Cursor | undefined {
  const data: unknown[] = [];
  const paths: Path[] = [];
  const names = cursor.path.filter((step): step is string => typeof step === 'string' && step !== '@');
  const visit = (value: unknown, from: number, named: string[], at: Path, batch: number | undefined) => {
    for (; from < path.length; from++) {
      if (value === null || value === undefined) return;
      const step = path[from];
      if (step === '@') {
        if (!Array.isArray(value)) return;
        const stream = batch === undefined ? window.streams.get(named.join('.')) : undefined;
        for (const [index, element] of value.entries()) {
          const next = stream && index >= stream.initialCount ? batchOf(index, stream) : batch;
          visit(element, from + 1, named, [...at, index], next);
        }
        return;
      }
      if (typeof step !== 'string' || Array.isArray(value)) return;
      value = Object.hasOwn(value as Json, step) ? (value as Json)[step] : undefined;
      named = [...named, step];
      at = [...at, step];
    }
    if ((batch ?? 0) !== window.batch || value === null || value === undefined) return;
    data.push(value);
    paths.push(at);
  };
  visit(cursor.data, 0, names, [...cursor.path], undefined);
  return { path: cursor.path.concat(path), data, fullResult: cursor.fullResult, paths };
}

/** The streamed lists' paths as a tree of response names. */
export interface StreamTree {
  stream: ActiveStream | undefined;
  readonly children: Map<string, StreamTree>;
}

export function streamTree(streams: ActiveStreams): StreamTree {
  const root: StreamTree = { stream: undefined, children: new Map() };
  for (const [key, stream] of streams) {
    let node = root;
    const names = key.split('.');
    for (const [index, name] of names.entries()) {
      let child = node.children.get(name);
      if (!child) {
        child = { stream: undefined, children: new Map() };
        node.children.set(name, child);
      }
      if (index === names.length - 1) child.stream = stream;
      node = child;
    }
  }
  return root;
}

/**
 * The data as it stands once `batch` is in: each streamed list (on a path still within the
 * initial items) cut after the batch's last item, copying only the objects on the way. Items
 * of later batches may lack fields their fetches bring: shaping them would null the list.
 */
export function viewThrough(data: unknown, tree: StreamTree, batch: number): unknown {
  if (tree.children.size === 0 || data === null || typeof data !== 'object') return data;
  if (Array.isArray(data)) return data.map((element) => viewThrough(element, tree, batch));
  const copy = Object.assign(Object.create(Object.getPrototypeOf(data)), data) as Json;
  for (const [name, child] of tree.children) {
    if (!Object.hasOwn(copy, name)) continue;
    const value = copy[name];
    if (child.stream && Array.isArray(value)) {
      const [, end] = rangeOf(batch, child.stream);
      const initial = child.stream.initialCount;
      copy[name] = value
        .slice(0, end)
        .map((element, index) => (index < initial ? viewThrough(element, child, batch) : element));
    } else copy[name] = viewThrough(value, child, batch);
  }
  return copy;
}

/** A streamed list on a path within the initial items: where it is, its stream, and its items there. */
export interface StreamOccurrence {
  readonly path: Path;
  readonly stream: ActiveStream;
  readonly items: readonly unknown[] | null;
}

/** Every streamed list reachable through initial items only (nested streams in later items arrive whole with them). */
export function occurrencesOf(data: unknown, tree: StreamTree): StreamOccurrence[] {
  const found: StreamOccurrence[] = [];
  const visit = (value: unknown, node: StreamTree, path: Path) => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const [index, element] of value.entries()) visit(element, node, [...path, index]);
      return;
    }
    for (const [name, child] of node.children) {
      if (!Object.hasOwn(value, name)) continue;
      const field = (value as Json)[name];
      const at = [...path, name];
      if (child.stream && (Array.isArray(field) || field === null)) {
        found.push({ path: at, stream: child.stream, items: field as unknown[] | null });
        const initial = (field ?? []).slice(0, child.stream.initialCount);
        for (const [index, element] of initial.entries()) visit(element, child, [...at, index]);
      } else visit(field, child, at);
    }
  };
  visit(data, tree, []);
  return found;
}
