import type { GatewayContext } from '../contract/index.js';
import { streamSinkOf } from '../subscriptions/stream-sink.js';
import type { ExecutionResult } from './apollo-internals.js';
import type { CompiledPlan } from './compiled-plan.js';
import { deferNotAccepted, leaveDeferredParts } from './deferred-delivery.js';
import { compileDeferred, type DeferredDelivery } from './deferred-plan.js';
import { runIncrementally } from './deferred-run.js';
import { incrementalFormat } from './incremental-format.js';
import type { PlanRun } from './run-plan.js';

type Run = Omit<PlanRun, 'errors' | 'variableDefinitions'>;

/**
 * An operation with @defer (ADR 032): its initial part, the later ones left for the delivery
 * plugin, or Apollo Router's 406 to a client that cannot read either multipart format. Undefined
 * when it is answered whole, as one result: batched operations and those over graphql-ws or SSE
 * (a stream sink), and plans that cannot be delivered incrementally (`@defer(if: $var)`).
 */
export async function deferredAnswer(
  plan: CompiledPlan,
  deliveries: WeakMap<CompiledPlan, DeferredDelivery | null>,
  context: Run,
): Promise<ExecutionResult | undefined> {
  const { requestContext } = context;
  const gatewayContext = requestContext.context as GatewayContext;
  if (requestContext.requestIsBatched || streamSinkOf(gatewayContext) !== undefined) return undefined;
  const format = incrementalFormat(requestContext.request.http?.headers.get('accept'));
  if (!format) return { errors: [deferNotAccepted()] };
  let delivery = deliveries.get(plan);
  if (delivery === undefined) {
    delivery = compileDeferred(plan);
    deliveries.set(plan, delivery);
  }
  if (!delivery) return undefined;
  const { initial, rest, pending } = await runIncrementally(plan, delivery, context);
  leaveDeferredParts(gatewayContext, rest, { format, pending });
  return initial;
}
