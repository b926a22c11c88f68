import { OpenTelemetrySpanNames, tracer } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import type { Span } from '@opentelemetry/api';
import { GraphQLError } from 'graphql';
import type { ExecutionResult } from './apollo-internals.js';
import type { CompiledPlan } from './compiled-plan.js';
import { type PlanRun, rootCursor, runNode } from './run-plan.js';
import { inSpan, markFailed, NO_SPAN, tracingOff } from './spans.js';

type Run = Omit<PlanRun, 'errors' | 'variableDefinitions'>;

/**
 * executeQueryPlan.js's outline with the lean parts: the `gateway.execute` span, the plan's
 * fetches merged into one object, then the compiled shaper in `gateway.postprocessing`; the
 * same answer in every case (fetch errors win over value-completion errors, which go to
 * `extensions.valueCompletion` only when no fetch failed; a shaping assertion replaces the
 * whole answer with its error).
 */
export function runPlan(
  plan: CompiledPlan,
  context: Run,
  /** What the plan starts from: a subscription event's data (its first fetch already answered). */
  merged: Record<string, unknown> = Object.create(null),
): Promise<ExecutionResult> {
  if (tracingOff()) return executePlan(plan, context, merged, NO_SPAN);
  return inSpan(OpenTelemetrySpanNames.EXECUTE, {}, context.telemetry, (span) =>
    executePlan(plan, context, merged, span),
  );
}

async function executePlan(
  plan: CompiledPlan,
  context: Run,
  merged: Record<string, unknown>,
  span: Span,
): Promise<ExecutionResult> {
  const { telemetry } = context;
  const run: PlanRun = { ...context, variableDefinitions: plan.operation.variableDefinitions, errors: [] };
  if (plan.node) await runNode(run, plan.node, rootCursor(merged));
  // Untraced exactly when the plan's own span is (decided once, in runPlan).
  const result = span === NO_SPAN ? shapeResult(plan, run, merged, NO_SPAN) : tracedShape(plan, run, merged);
  if (result.errors) markFailed(span, result.errors, telemetry);
  return result as ExecutionResult;
}

/** Shaping in its `gateway.postprocessing` span (a function of its own: no closure on the untraced path). */
function tracedShape(plan: CompiledPlan, run: PlanRun, merged: Record<string, unknown>): Shaped {
  return tracer.startActiveSpan(OpenTelemetrySpanNames.POST_PROCESSING, (postSpan) => {
    try {
      return shapeResult(plan, run, merged, postSpan);
    } finally {
      postSpan.end();
    }
  });
}

type Shaped = { data?: Record<string, unknown> | null; errors?: GraphQLError[]; extensions?: Record<string, unknown> };

function shapeResult(plan: CompiledPlan, run: PlanRun, merged: Record<string, unknown>, postSpan: Span): Shaped {
  const { telemetry } = run;
  try {
    const { data, errors } = plan.shaper.shape(merged, run.requestContext.request.variables);
    if (run.errors.length === 0 && errors.length > 0) {
      markFailed(postSpan, errors, telemetry);
      return { extensions: { valueCompletion: errors }, data };
    }
    return run.errors.length === 0 ? { data } : { errors: run.errors, data };
  } catch (error) {
    markFailed(postSpan, [error as Error], telemetry);
    if (error instanceof GraphQLError) return { errors: [error] };
    if (error instanceof Error) return { errors: [new GraphQLError(error.message, { originalError: error })] };
    return { errors: [new GraphQLError('Unexpected error during query plan execution')] };
  }
}
