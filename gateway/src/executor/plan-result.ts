import { OpenTelemetrySpanNames, tracer } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import { GraphQLError } from 'graphql';
import type { ExecutionResult } from './apollo-internals.js';
import type { CompiledPlan } from './compiled-plan.js';
import { type PlanRun, rootCursor, runNode } from './run-plan.js';
import { inSpan, markFailed } from './spans.js';

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
  const { telemetry } = context;
  return inSpan(OpenTelemetrySpanNames.EXECUTE, {}, telemetry, async (span) => {
    const run: PlanRun = { ...context, variableDefinitions: plan.operation.variableDefinitions, errors: [] };
    if (plan.node) await runNode(run, plan.node, rootCursor(merged));
    const result = tracer.startActiveSpan(OpenTelemetrySpanNames.POST_PROCESSING, (postSpan) => {
      try {
        const { data, errors } = plan.shaper.shape(merged, context.requestContext.request.variables);
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
      } finally {
        postSpan.end();
      }
    });
    if (result.errors) markFailed(span, result.errors, telemetry);
    return result as ExecutionResult;
  });
}
