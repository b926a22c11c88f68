import { hash } from 'node:crypto';
import { type Operation, operationFromDocument } from '@apollo/federation-internals';
import type { ApolloGateway } from '@apollo/gateway';
import { executeQueryPlan } from '@apollo/gateway/dist/executeQueryPlan.js';
import { buildOperationContext } from '@apollo/gateway/dist/operationContext.js';
import {
  OpenTelemetryAttributeNames,
  OpenTelemetrySpanNames,
  operationContextSpanAttributes,
  requestContextSpanAttributes,
} from '@apollo/gateway/dist/utilities/opentelemetry.js';
import { prettyFormatQueryPlan, type QueryPlan } from '@apollo/query-planner';
import type { Span } from '@opentelemetry/api';
import type { GraphQLError } from 'graphql';
import { ClientErrorCode } from '../error-registry.js';
import { httpError } from '../http-error.js';
import type { Logger } from '../logger.js';
import { refuseUploadPlan } from '../uploads/plan-check.js';
import type { ExecutionResult, Executor, GatewayInternals, RequestContext } from './apollo-internals.js';
import { readInternals } from './apollo-internals.js';
import { type CompiledPlan, compilePlan } from './compiled-plan.js';
import { deferredAnswer } from './deferred-answer.js';
import type { DeferredDelivery } from './deferred-plan.js';
import type { SecondPlanner } from './hive-plan/hive-planner.js';
import { secondPlannerQuery } from './hive-plan/second-query.js';
import { keyWithOverrides, type OverrideDecision, type ProgressiveOverride } from './override-decision.js';
import { runPlan } from './plan-result.js';
import { planningFailed } from './planning-failed.js';
import { inSpan, markFailed, NO_SPAN, tracingOff } from './spans.js';
import { streamedAnswer } from './stream-answer.js';
import { streamSitesOf, withStreamStripped } from './stream-sites.js';

/**
 * QUERY_PLAN_EXECUTOR=lean: @apollo/gateway's `executor`, step for step (the same spans,
 * variable validation, plan store and planner, so the same plans are cached), except that a
 * plan runs through `runPlan` with its result shaping compiled once per cached plan
 * (compiled-plan.ts) instead of through `executeQueryPlan`. What the lean path does not
 * cover goes to `executeQueryPlan` itself, inside the same request: introspection fields,
 * @defer and subscription plans, and Apollo usage-reporting traces.
 */
export function leanExecutor(
  gateway: ApolloGateway,
  logger: Logger,
  overrides: ProgressiveOverride,
  second?: SecondPlanner,
): Executor {
  readInternals(gateway, true);
  // Compiled when a plan is first run; a supergraph update empties the plan store, so its plans go too.
  const compiled = new WeakMap<QueryPlan, CompiledPlan | null>();
  const deferred = new WeakMap<CompiledPlan, DeferredDelivery | null>();
  const plans: Compiled = { compiled, deferred, overrides, second };
  const internals = gateway as unknown as GatewayInternals;
  return (requestContext) =>
    tracingOff()
      ? execute(internals, requestContext, NO_SPAN, plans, logger)
      : tracedExecute(internals, requestContext, plans, logger);
}

/** `execute` in the `gateway.request` span (a function of its own: no closure on the untraced path). */
function tracedExecute(
  internals: GatewayInternals,
  requestContext: RequestContext,
  plans: Compiled,
  logger: Logger,
): Promise<ExecutionResult> {
  const { telemetry } = internals.config;
  return inSpan(
    OpenTelemetrySpanNames.REQUEST,
    { attributes: requestContextSpanAttributes(requestContext, telemetry) },
    telemetry,
    (span) => execute(internals, requestContext, span, plans, logger),
  );
}

async function execute(
  internals: GatewayInternals,
  asked: RequestContext,
  span: Span,
  { compiled, deferred, overrides, second }: Compiled,
  logger: Logger,
): Promise<ExecutionResult> {
  // Subgraphs do not speak @stream: the operation is planned without it, the gateway streams (ADR 060).
  // The text first: most operations have no @stream, and their document is not walked.
  const mayStream = asked.source === undefined || asked.source.includes('@stream');
  const streamSites = mayStream ? streamSitesOf(asked.document, asked.request.operationName) : [];
  const requestContext = withStreamStripped(asked);
  const { request, document } = requestContext;
  // The progressive-override labels on for this request (ADR 054); none: @apollo/gateway's key and plan.
  const decision = overrides.decide(internals.queryPlanner, requestContext);
  const storeKey = keyWithOverrides(planStoreKey(requestContext), decision);
  const operationContext = buildOperationContext({
    schema: internals.schema,
    operationDocument: document,
    operationName: request.operationName,
  });
  // Built only for a span that keeps them (a no-op span drops them).
  if (span.isRecording()) span.setAttributes(operationContextSpanAttributes(operationContext));
  const validationErrors = internals.validateIncomingRequest(requestContext, operationContext);
  if (validationErrors.length > 0) {
    markFailed(span, validationErrors, internals.config.telemetry);
    return { errors: validationErrors };
  }
  const queryPlan = await planFor(internals, requestContext, storeKey, logger, decision, second);
  refuseUploadPlan(queryPlan, request); // files (uploads/) go to one root fetch, else 400 UPLOAD_NOT_ALLOWED
  const serviceMap = Object.create(null);
  for (const [name, { dataSource }] of Object.entries(internals.serviceMap)) serviceMap[name] = dataSource;

  let plan = compiled.get(queryPlan);
  if (plan === undefined) {
    plan = compilePlan(queryPlan, operationContext, internals.apiSchema);
    compiled.set(queryPlan, plan);
  }
  // executeQueryPlan refuses @defer plans: those run lean even when a usage-reporting trace is asked for (none is made).
  // @defer and @stream: a multipart answer (or a 406); undefined when answered whole.
  const run = {
    serviceMap,
    requestContext,
    supergraphSchema: internals.supergraphSchema,
    telemetry: internals.config.telemetry,
  };
  const incremental = plan?.defers
    ? await deferredAnswer(plan, deferred, run)
    : plan && streamSites.length > 0
      ? await streamedAnswer(plan, streamSites, run)
      : undefined;
  if (incremental) {
    if (incremental.errors) markFailed(span, incremental.errors as GraphQLError[], internals.config.telemetry);
    return incremental;
  }
  const captureTraces = !!requestContext.metrics?.captureTraces && !plan?.defers;
  const response =
    plan && !captureTraces
      ? await runPlan(plan, run)
      : await executeQueryPlan(
          queryPlan,
          serviceMap,
          requestContext,
          operationContext,
          internals.supergraphSchema,
          internals.apiSchema,
          internals.config.telemetry,
        );
  exposeQueryPlan(internals, requestContext, queryPlan, response, logger);
  if (response.errors) markFailed(span, response.errors as GraphQLError[], internals.config.telemetry);
  return response;
}

const DEFER_IN_SUBSCRIPTION = '@defer is not served in subscriptions: each event is one result';

interface Compiled {
  readonly compiled: WeakMap<QueryPlan, CompiledPlan | null>;
  readonly deferred: WeakMap<CompiledPlan, DeferredDelivery | null>;
  readonly overrides: ProgressiveOverride;
  /** QUERY_PLANNER=hive: plans first (ADR 061); absent, or `undefined` from it, Apollo's planner plans. */
  readonly second: SecondPlanner | undefined;
}

/**
 * The plan store's key for a request, @apollo/gateway's: the query's hash, and its operation name
 * when it has one (the digest of the two one after the other; the one-shot `hash` costs a fifth
 * of a `createHash` object's).
 */
export function planStoreKey({ request, queryHash }: RequestContext): string {
  return request.operationName ? hash('sha256', queryHash + request.operationName) : queryHash;
}

/**
 * The stored plan, or a new one (stored, as @apollo/gateway does; a failed store write is only
 * logged), planned with the labels `overrides` turns on (`storeKey` must name them: `keyWithOverrides`).
 */
export async function planFor(
  internals: GatewayInternals,
  requestContext: RequestContext,
  storeKey: string,
  logger: Logger,
  overrides?: OverrideDecision,
  second?: SecondPlanner,
): Promise<QueryPlan> {
  const stored = await internals.queryPlanStore.get(storeKey);
  if (stored) return stored;
  const plan = await inSpan(
    OpenTelemetrySpanNames.PLAN,
    requestContext.operationName
      ? { attributes: { [OpenTelemetryAttributeNames.GRAPHQL_OPERATION_NAME]: requestContext.operationName } }
      : {},
    internals.config.telemetry,
    async () => {
      try {
        return planOperation(internals, requestContext, overrides, second);
      } catch (error) {
        throw planningFailed(error, logger);
      }
    },
  );
  try {
    await internals.queryPlanStore.set(storeKey, plan);
  } catch (error) {
    logger.warn(`Could not store queryPlan${(error as Error)?.message || error}`);
  }
  return plan;
}

/** One plan, by the second planner when it takes the operation, else by Apollo's. */
function planOperation(
  internals: GatewayInternals,
  requestContext: RequestContext,
  overrides: OverrideDecision | undefined,
  second: SecondPlanner | undefined,
): QueryPlan {
  const { request, document } = requestContext;
  let operation = operationFromDocument(internals.apiSchema, document, { operationName: request.operationName });
  const secondPlan = second && planBySecond(second, internals, requestContext, operation, overrides);
  if (secondPlan) return secondPlan;
  // Every @defer labelled before planning, so each deferred block of the plan names its fragment (deferred-plan.ts).
  if (operation.selectionSet.hasDefer()) {
    // The planner throws a plain Error for this: it is the client's request that cannot be served.
    if (operation.rootKind === 'subscription') throw httpError(ClientErrorCode.BAD_REQUEST, DEFER_IN_SUBSCRIPTION);
    operation = operation.expandAllFragments().withNormalizedDefer().operation;
  }
  return internals.queryPlanner.buildQueryPlan(operation, {
    recursiveSelectionsLimitDisabled: internals.recursiveSelectionsLimitDisabled,
    nonLocalSelectionsLimitDisabled: internals.nonLocalSelectionsLimitDisabled,
    ...(overrides && { overrideConditions: new Map(overrides.conditions) }),
  });
}

/** QUERY_PLANNER=hive's plan, or undefined for Apollo's planner to make it (ADR 061). */
function planBySecond(
  second: SecondPlanner,
  internals: GatewayInternals,
  requestContext: RequestContext,
  operation: Operation,
  overrides: OverrideDecision | undefined,
): QueryPlan | undefined {
  return second.plan(internals, secondPlannerQuery(requestContext, operation), overrides);
}

/** @apollo/gateway's debug output: the plan in the log (`debug`) or in `extensions` (a header, outside production). */
function exposeQueryPlan(
  internals: GatewayInternals,
  requestContext: RequestContext,
  queryPlan: QueryPlan,
  response: ExecutionResult,
  logger: Logger,
): void {
  const { config } = internals;
  const headers = requestContext.request.http?.headers;
  const show = config.__exposeQueryPlanExperimental && headers?.get('Apollo-Query-Plan-Experimental');
  const pretty = queryPlan.node && (config.debug || show) ? prettyFormatQueryPlan(queryPlan) : null;
  if (config.debug && pretty) logger.debug(pretty);
  if (!show) return;
  const format = headers?.has('Apollo-Query-Plan-Experimental-Format')
    ? headers.get('Apollo-Query-Plan-Experimental-Format')
    : 'prettified';
  (response as { extensions?: Record<string, unknown> }).extensions = {
    __queryPlanExperimental: format === 'prettified' ? pretty || true : format === 'internal' ? queryPlan : true,
  };
}
