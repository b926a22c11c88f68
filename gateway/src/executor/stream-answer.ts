import type { GraphQLError } from 'graphql';
import type { GatewayContext } from '../contract/index.js';
import { streamSinkOf } from '../subscriptions/stream-sink.js';
import type { ExecutionResult } from './apollo-internals.js';
import type { CompiledPlan } from './compiled-plan.js';
import { deferNotAccepted, leaveDeferredParts } from './deferred-delivery.js';
import { incrementalFormat } from './incremental-format.js';
import type { PlanRun } from './run-plan.js';
import { runStreamed } from './stream-run.js';
import { activeStreams, type StreamSite } from './stream-sites.js';

type Run = Omit<PlanRun, 'errors' | 'variableDefinitions'>;

/**
 * An operation with @stream (and no @defer, whose plans deliver lists whole with their parts):
 * its initial part, the later ones left for the delivery plugin; a client that cannot read either
 * multipart format gets Apollo Router's 406. Undefined when it is answered whole, as one
 * result: every stream off (`if: false`), or a batched operation or one over graphql-ws or SSE.
 */
export async function streamedAnswer(
  plan: CompiledPlan,
  sites: readonly StreamSite[],
  context: Run,
): Promise<ExecutionResult | undefined> {
  const { requestContext } = context;
  let streams: ReturnType<typeof activeStreams>;
  try {
    streams = activeStreams(sites, requestContext.request.variables);
  } catch (error) {
    return { errors: [error as GraphQLError] };
  }
  if (streams.size === 0) return undefined;
  const gatewayContext = requestContext.context as GatewayContext;
  if (requestContext.requestIsBatched || streamSinkOf(gatewayContext) !== undefined) return undefined;
  const format = incrementalFormat(requestContext.request.http?.headers.get('accept'));
  if (!format) return { errors: [deferNotAccepted('@stream')] };
  const { initial, rest, pending } = await runStreamed(plan, streams, context);
  leaveDeferredParts(gatewayContext, rest, { format, pending });
  return initial;
}
