import { Operation } from '@apollo/federation-internals';
import type { DeferNode, DeferredNode } from '@apollo/query-planner';
import type { GraphQLError } from 'graphql';
import type { CompiledPlan } from './compiled-plan.js';
import { compileShaper, type Shaper } from './shape.js';

type Path = (string | number)[];
type Json = Record<string, unknown>;

/** One deferred block of a plan whose root is a Defer node, with what shapes its parts. */
export interface DeferredBlock {
  readonly node: DeferredNode;
  /** The label the client wrote (absent when the planner assigned one). */
  readonly label: string | undefined;
  /** The operation without the other root blocks: shapes this block's data where it lands. */
  readonly shaper: Shaper;
  /** The response names the block's fragment selects (its part carries only those). */
  readonly names: ReadonlySet<string>;
}

/** How a plan whose root is a Defer node is delivered incrementally. */
export interface DeferredDelivery {
  readonly root: DeferNode;
  /** The operation without any deferred block: shapes the initial part. */
  readonly initial: Shaper;
  readonly blocks: readonly DeferredBlock[];
}

/**
 * Compiles a Defer-rooted plan for incremental delivery, or null when it cannot be (then it
 * runs inline, one answer). Its labels are the normalized operation's (the planner gives the
 * ones it assigned itself no label in the plan, so planFor normalizes before planning).
 * Nested defers are delivered with the block around them.
 */
export function compileDeferred(plan: CompiledPlan): DeferredDelivery | null {
  const root = plan.node;
  if (root?.kind !== 'Defer') return null;
  const { operation, assignedDeferLabels: assignedLabels } = plan.operation.expandAllFragments().withNormalizedDefer();
  const labels = root.deferred.map((block) => block.label);
  if (labels.some((label) => label === undefined)) return null;
  const all = new Set(labels as string[]);
  const initial = shaperWithout(operation, all);
  if (!initial) return null;
  const blocks: DeferredBlock[] = [];
  for (const node of root.deferred) {
    const label = node.label as string;
    const others = new Set(all);
    others.delete(label);
    const shaper = shaperWithout(operation, others);
    if (!shaper) return null;
    blocks.push({
      node,
      label: assignedLabels.has(label) ? undefined : label,
      shaper,
      names: fragmentNames(operation, label),
    });
  }
  return { root, initial, blocks };
}

function deferLabelOf(selection: { kind: string; element: unknown }): string | undefined {
  if (selection.kind !== 'FragmentSelection') return undefined;
  const element = selection.element as { deferDirectiveArgs(): { label?: string } | undefined };
  return element.deferDirectiveArgs()?.label;
}

function shaperWithout(operation: Operation, labels: ReadonlySet<string>): Shaper | undefined {
  const selectionSet = operation.selectionSet.filterRecursiveDepthFirst((selection) => {
    const label = deferLabelOf(selection as never);
    return label === undefined || !labels.has(label);
  });
  const stripped = new Operation(
    operation.schema(),
    operation.rootKind,
    selectionSet,
    operation.variableDefinitions,
    undefined,
    operation.name,
  );
  return compileShaper(stripped);
}

/** The response names selected directly in the fragment deferred as `label` (through inline fragments). */
function fragmentNames(operation: Operation, label: string): Set<string> {
  const names = new Set<string>();
  type Selections = { selections(): readonly { kind: string; element: unknown; selectionSet?: unknown }[] };
  const collect = (set: Selections, inside: boolean) => {
    for (const selection of set.selections()) {
      if (selection.kind === 'FieldSelection') {
        if (inside) names.add((selection.element as { responseName(): string }).responseName());
        else if (selection.selectionSet) collect(selection.selectionSet as Selections, false);
      } else {
        collect(selection.selectionSet as Selections, inside || deferLabelOf(selection) === label);
      }
    }
  };
  collect(operation.selectionSet as unknown as Selections, false);
  return names;
}

/** One `incremental` entry of the 2022-08-24 format. */
export interface IncrementalEntry {
  data: Json | null;
  path: Path;
  label?: string;
  errors?: readonly GraphQLError[];
  /** Which announced boundary it completes (the incrementalSpec=v0.2 format's `pending` id); never written. */
  pendingKey?: string;
}

/** A streamed list's items in the 2022-08-24 format: `path` ends with the index of the first. */
export interface StreamEntry {
  items: unknown[] | null;
  path: Path;
  label?: string;
  errors?: readonly GraphQLError[];
  pendingKey?: string;
}

/**
 * The entries for one completed block: the shaped data at each place its query path reaches
 * (one per list element on the way), with only the fragment's fields; its fetch errors on the first.
 */
export function entriesOf(
  block: DeferredBlock,
  shaped: Json | null,
  errors: readonly GraphQLError[],
): IncrementalEntry[] {
  const entries: IncrementalEntry[] = [];
  const visit = (value: unknown, rest: readonly string[], path: Path) => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) visit(item, rest, [...path, index]);
      return;
    }
    const object = value as Json;
    const [head, ...tail] = rest;
    if (head === undefined) {
      const data: Json = {};
      for (const name of block.names) if (Object.hasOwn(object, name)) data[name] = object[name];
      if (Object.keys(data).length > 0)
        entries.push({
          data,
          path,
          ...(block.label !== undefined && { label: block.label }),
          pendingKey: deferKey(block, path),
        });
      return;
    }
    // `... on T` steps: the shaper already left out what a type condition excludes.
    if (head.startsWith('...')) visit(object, tail, path);
    else visit(object[head], tail, [...path, head]);
  };
  visit(shaped, block.node.queryPath, []);
  if (errors.length > 0) {
    const first = entries[0];
    if (first) first.errors = errors;
    else
      entries.push({
        data: null,
        path: pathOfErrors(block),
        ...(block.label !== undefined && { label: block.label }),
        errors,
      });
  }
  return entries;
}

/** A boundary announced in the initial part, for the incrementalSpec=v0.2 format's `pending`. */
export interface Pending {
  readonly key: string;
  readonly path: Path;
  readonly label?: string;
}

function deferKey(block: DeferredBlock, path: Path): string {
  return `defer:${block.node.label}:${JSON.stringify(path)}`;
}

/** Where each block will land, from the initial part's data: one boundary per object its query path reaches. */
export function deferPending(blocks: readonly DeferredBlock[], initial: Json | null | undefined): Pending[] {
  const pending: Pending[] = [];
  for (const block of blocks) {
    const visit = (value: unknown, rest: readonly string[], path: Path) => {
      if (value === null || value === undefined) return;
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) visit(item, rest, [...path, index]);
        return;
      }
      const [head, ...tail] = rest;
      if (head === undefined)
        pending.push({
          key: deferKey(block, path),
          path,
          ...(block.label !== undefined && { label: block.label }),
        });
      else if (head.startsWith('...')) visit(value, tail, path);
      else visit((value as Json)[head], tail, [...path, head]);
    };
    visit(initial, block.node.queryPath, []);
  }
  return pending;
}

/** Where a block that delivered nothing reports its errors: its query path's fields. */
function pathOfErrors(block: DeferredBlock): Path {
  return block.node.queryPath.filter((step) => !step.startsWith('...'));
}
