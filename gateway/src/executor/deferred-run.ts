import { GraphQLError } from 'graphql';
import type { ExecutionResult } from './apollo-internals.js';
import type { CompiledPlan } from './compiled-plan.js';
import {
  type DeferredDelivery,
  deferPending,
  entriesOf,
  type IncrementalEntry,
  type Pending,
  type StreamEntry,
} from './deferred-plan.js';
import { type PlanRun, rootCursor, runNode } from './run-plan.js';
import type { Shaper } from './shape.js';

type Run = Omit<PlanRun, 'errors' | 'variableDefinitions'>;

/** A part after the first, in the 2022-08-24 format (errors still GraphQLErrors: the HTTP layer formats them). */
export interface SubsequentPart {
  incremental?: (IncrementalEntry | StreamEntry)[];
  hasNext: boolean;
}

export interface IncrementalRun {
  /** The non-deferred data and the primary block's errors. */
  readonly initial: ExecutionResult;
  /** A part per deferred block as it completes (blocks that reach no data send none); the last has `hasNext: false`. */
  readonly rest: AsyncGenerator<SubsequentPart, void, undefined>;
  /** The boundaries the later parts complete (announced in the initial part of the incrementalSpec=v0.2 format). */
  readonly pending: readonly Pending[];
}

/**
 * Runs a Defer-rooted plan for incremental delivery: the primary block, shaped without the
 * deferred fragments, is the initial answer; every deferred block starts then (each depends
 * only on primary fetches) and its data is shaped, where it lands, once it completes.
 */
export async function runIncrementally(
  plan: CompiledPlan,
  delivery: DeferredDelivery,
  context: Run,
): Promise<IncrementalRun> {
  const variableDefinitions = plan.operation.variableDefinitions;
  const variables = context.requestContext.request.variables;
  const merged: Record<string, unknown> = Object.create(null);
  const primary: PlanRun = { ...context, variableDefinitions, errors: [] };
  if (delivery.root.primary.node) await runNode(primary, delivery.root.primary.node, rootCursor(merged));
  const initial = shapeAnswer(delivery.initial, merged, variables, primary.errors);

  // Completed blocks' entries, waiting to be written; `wake` resumes a reader waiting for one.
  const done: IncrementalEntry[][] = [];
  let completed = 0;
  let wake: (() => void) | undefined;
  for (const block of delivery.blocks) {
    const run: PlanRun = { ...context, variableDefinitions, errors: [] };
    const finished = block.node.node ? runNode(run, block.node.node, rootCursor(merged)) : Promise.resolve();
    finished
      .then(
        () => entriesOf(block, block.shaper.shape(merged, variables).data, run.errors),
        (error: unknown) => entriesOf(block, null, [...run.errors, asGraphQLError(error)]),
      )
      .catch((error: unknown) => entriesOf(block, null, [asGraphQLError(error)]))
      .then((entries) => {
        completed += 1;
        done.push(entries);
        wake?.();
      });
  }
  async function* rest(): AsyncGenerator<SubsequentPart, void, undefined> {
    const total = delivery.blocks.length;
    let written = 0;
    if (total === 0) yield { hasNext: false };
    while (written < total) {
      if (done.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const entries = done.splice(0).flat();
      written = completed;
      if (entries.length > 0 || written === total) {
        yield { ...(entries.length > 0 && { incremental: entries }), hasNext: written < total };
      }
    }
  }
  return { initial, rest: rest(), pending: deferPending(delivery.blocks, initial.data) };
}

/** The initial answer, as runPlan shapes one (value-completion errors in `extensions` when no fetch failed). */
export function shapeAnswer(
  shaper: Shaper,
  merged: Record<string, unknown>,
  variables: Record<string, unknown> | undefined,
  fetchErrors: GraphQLError[],
): ExecutionResult {
  try {
    const { data, errors } = shaper.shape(merged, variables);
    if (fetchErrors.length === 0 && errors.length > 0)
      return { extensions: { valueCompletion: errors }, data } as ExecutionResult;
    return (fetchErrors.length === 0 ? { data } : { errors: fetchErrors, data }) as ExecutionResult;
  } catch (error) {
    return { errors: [asGraphQLError(error)] } as ExecutionResult;
  }
}

export function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  if (error instanceof Error) return new GraphQLError(error.message, { originalError: error });
  return new GraphQLError('Unexpected error during query plan execution');
}
