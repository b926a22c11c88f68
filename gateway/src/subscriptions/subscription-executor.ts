import type { ApolloGateway } from '@apollo/gateway';
import type { GraphQLDataSource } from '@apollo/gateway/dist/datasources/types.js';
import { buildOperationContext } from '@apollo/gateway/dist/operationContext.js';
import { deepMerge } from '@apollo/gateway/dist/utilities/deepMerge.js';
import { HeaderMap } from '@apollo/server';
import { type SpanOptions, trace } from '@opentelemetry/api';
import { type FormattedExecutionResult, GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ClientKeyOf } from '../client-address/index.js';
import type { GatewayContext, GatewayPlugin } from '../contract/index.js';
import { ClientErrorCode, codeExtensions } from '../error-registry.js';
import { emitEvent } from '../events.js';
import type { ExecutionResult, Executor, GatewayInternals, RequestContext } from '../executor/apollo-internals.js';
import { readInternals } from '../executor/apollo-internals.js';
import { type CompiledSubscription, compileSubscription } from '../executor/compiled-plan.js';
import { planFor, planStoreKey } from '../executor/lean-executor.js';
import { keyWithOverrides, type ProgressiveOverride } from '../executor/override-decision.js';
import { runPlan } from '../executor/plan-result.js';
import { inSpan } from '../executor/spans.js';
import { withStreamStripped } from '../executor/stream-sites.js';
import { httpError } from '../http-error.js';
import type { Logger } from '../logger.js';
import { ResponseBudget, responseTooLarge } from '../response-budget.js';
import { SubgraphDataSource } from '../subgraph-fetch/data-source.js';
import { redactSubgraphErrors } from '../subgraph-fetch/subgraph-errors.js';
import type { SubgraphErrors } from '../subgraph-overrides.js';
import { LiveSubscription } from './live-subscription.js';
import { primaryEvents, type Subscribe } from './primary-events.js';
import type { SubscriptionSettings } from './settings.js';
import { SharedUpstreams } from './shared-upstreams.js';
import { streamSinkOf } from './stream-sink.js';
import { type SubgraphEvent, type SubgraphSocketOptions, subscribeToSubgraph } from './subgraph-socket.js';
import { SubscriptionEnd } from './subscription-end.js';
import type { SubscriptionRegistry } from './subscription-registry.js';

export interface SubscriptionExecutorOptions {
  readonly settings: SubscriptionSettings;
  readonly registry: SubscriptionRegistry;
  /** Who a subscription counts against (SUBSCRIPTION_MAX_PER_CLIENT): the gateway's one per-client key rule. */
  readonly clientKey: ClientKeyOf;
  readonly plugins: readonly GatewayPlugin[];
  /** The gateway's error formatting (MASK_ERRORS), applied to each event as Apollo Server does to answers. */
  readonly formatError: (error: GraphQLFormattedError) => GraphQLFormattedError;
  readonly logger: Logger;
  /** The progressive-override labels of each subscription, decided as for queries (absent: every label off). */
  readonly overrides?: ProgressiveOverride;
}

/**
 * The executor for subscription operations; every other operation goes to `next`. It runs
 * after every check a query goes through (auth, limits, cost, trusted documents, rate limit,
 * authorization's rewrite), plans the subscription with the same planner and plan cache,
 * subscribes to the subgraph that owns the field, and leaves the client's event stream in the
 * request's stream sink: each subgraph event runs the rest of the plan (entity fetches to the
 * other subgraphs) and is shaped for the operation. What Apollo Server answers is only the
 * acknowledgement the transports ignore.
 */
export function subscriptionExecutor(
  gateway: ApolloGateway,
  next: Executor,
  options: SubscriptionExecutorOptions,
): Executor {
  const compiled = new WeakMap<object, CompiledSubscription | null>();
  const upstreams = new SharedUpstreams();
  const subscribe = options.settings.deduplicate
    ? (socket: SubgraphSocketOptions) => upstreams.subscribe(socket)
    : subscribeToSubgraph;
  return async (asked) => {
    if (asked.operation?.operation !== 'subscription') return next(asked);
    const context = asked.context as unknown as GatewayContext;
    const sink = streamSinkOf(context);
    if (!sink)
      return refusal(
        ClientErrorCode.SUBSCRIPTION_NOT_SUPPORTED,
        'Subscriptions need a WebSocket, Server-Sent Events or a multipart HTTP response.',
      );
    // `@stream(if: false)` is valid in a subscription; the planner and subgraphs never see @stream (ADR 060).
    const requestContext = withStreamStripped(asked);
    const internals = readInternals(gateway, true);
    const operationContext = buildOperationContext({
      schema: internals.schema,
      operationDocument: requestContext.document,
      operationName: requestContext.request.operationName,
    });
    const validationErrors = internals.validateIncomingRequest(requestContext, operationContext);
    if (validationErrors.length > 0) return { errors: validationErrors };
    const decision = options.overrides?.decide(internals.queryPlanner, requestContext);
    const storeKey = keyWithOverrides(planStoreKey(requestContext), decision);
    const queryPlan = await planFor(internals, requestContext, storeKey, options.logger, decision);
    let plan = compiled.get(queryPlan);
    if (plan === undefined) {
      plan = compileSubscription(queryPlan, operationContext, internals.apiSchema);
      compiled.set(queryPlan, plan);
    }
    if (!plan)
      return refusal(ClientErrorCode.SUBSCRIPTION_NOT_SUPPORTED, 'This subscription cannot be run by the gateway.');
    if (options.registry.closed) return refusal(ClientErrorCode.SHUTTING_DOWN, 'The gateway is shutting down.');
    const slot = options.registry.admit(options.clientKey(context.scope.ip, context.identity));
    if (slot === 'total') return allTaken(options.settings.maxOpen);
    if (slot === 'client') {
      return refusal(
        ClientErrorCode.SUBSCRIPTION_MAX_LIMIT,
        `This client has ${options.settings.maxPerClient} subscriptions open, the most it may (SUBSCRIPTION_MAX_PER_CLIENT).`,
      );
    }
    let cancelExpiry = () => {};
    const subscription = start(internals, requestContext, plan, options, subscribe, () => {
      cancelExpiry();
      slot.release();
      emitEvent(options.plugins, { type: 'subscription', phase: 'end' }, options.logger);
    });
    cancelExpiry = endAtExpiry(subscription, context);
    slot.add(subscription);
    emitEvent(options.plugins, { type: 'subscription', phase: 'start' }, options.logger);
    sink.events = subscription.events();
    return { data: null };
  };
}

function start(
  internals: GatewayInternals,
  requestContext: RequestContext,
  plan: CompiledSubscription,
  options: SubscriptionExecutorOptions,
  subscribe: Subscribe,
  onEnd: () => void,
): LiveSubscription {
  // Resolving is set up first: the plan's data sources and the subscribe's span are taken as it starts.
  const resolve = eventResolver(internals, requestContext, plan, options);
  return new LiveSubscription(primaryEvents(internals, requestContext, plan, options, subscribe), resolve, onEnd);
}

/**
 * How each of the primary subgraph's events becomes the client's: the rest of the plan runs from
 * it, in a trace of its own, and its errors are shaped as an answer's.
 */
function eventResolver(
  internals: GatewayInternals,
  requestContext: RequestContext,
  plan: CompiledSubscription,
  options: SubscriptionExecutorOptions,
): (event: SubgraphEvent) => Promise<FormattedExecutionResult> {
  const context = requestContext.context as unknown as GatewayContext;
  const { settings, plugins, logger } = options;
  const source = internals.serviceMap[plan.primary.serviceName]?.dataSource;
  const errorsShown = source instanceof SubgraphDataSource ? source.errors : 'mask';
  const serviceMap = planServiceMap(internals);
  const telemetry = internals.config.telemetry;
  // Each event is a trace of its own (a subscription may live for hours), linked to the subscribe's.
  const subscribed = trace.getActiveSpan()?.spanContext();
  const eventSpan: SpanOptions = { root: true, links: subscribed ? [{ context: subscribed }] : [] };
  return (event) =>
    inSpan('gateway.subscription.event', eventSpan, telemetry, async () => {
      // Each event is its own answer: it gets the response size budget a request gets.
      const eventContext: GatewayContext = {
        ...context,
        responseBudget: new ResponseBudget(settings.maxResponseBytes),
      };
      const merged: Record<string, unknown> = Object.create(null);
      if (event.data) deepMerge(merged, event.data);
      const result = await runPlan(
        plan,
        {
          serviceMap,
          requestContext: { ...requestContext, context: eventContext } as RequestContext,
          supergraphSchema: internals.supergraphSchema,
          telemetry,
        },
        merged,
      );
      const errors = eventErrors(event, result, errorsShown, plan.primary.serviceName).map(options.formatError);
      if (eventContext.responseBudget.exceeded) {
        emitEvent(plugins, { type: 'subscription-event', outcome: 'errors' }, logger);
        return responseTooLarge(settings.maxResponseBytes);
      }
      emitEvent(plugins, { type: 'subscription-event', outcome: errors.length > 0 ? 'errors' : 'data' }, logger);
      return errors.length > 0 ? { errors, data: result.data ?? null } : { data: result.data ?? null };
    });
}

/** The data sources the plan's other fetches use, fixed for the subscription's life (a new supergraph ends it). */
function planServiceMap(internals: GatewayInternals): Record<string, GraphQLDataSource> {
  const serviceMap: Record<string, GraphQLDataSource> = Object.create(null);
  for (const [name, { dataSource }] of Object.entries(internals.serviceMap)) serviceMap[name] = dataSource;
  return serviceMap;
}

/** An event's errors: what the subgraph wrote, as SUBGRAPH_ERRORS lets clients see it (its HTTP answers alike), then the plan's. */
function eventErrors(
  event: SubgraphEvent,
  result: ExecutionResult,
  errorsShown: SubgraphErrors,
  serviceName: string,
): GraphQLFormattedError[] {
  const fromSubgraph = event.errors && redactSubgraphErrors(event.errors, errorsShown);
  return [
    ...(fromSubgraph ?? event.errors ?? []).map((error) => ({
      ...error,
      extensions: { ...error.extensions, serviceName },
    })),
    ...(result.errors ?? []).map((error) => toFormatted(error)),
  ];
}

// setTimeout's longest delay (about 24.8 days); a token valid longer is checked again then.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A subscription lives no longer than the JWT it was authenticated with: at the token's `exp`
 * it ends with SUBSCRIPTION_JWT_EXPIRED (the client resubscribes with a fresh token).
 */
function endAtExpiry(subscription: LiveSubscription, context: GatewayContext): () => void {
  const exp = context.identity.claims?.exp;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return () => {};
  let timer: NodeJS.Timeout | undefined;
  const check = () => {
    const left = exp * 1000 - Date.now();
    if (left <= 0) {
      subscription.end(
        SubscriptionEnd.of(
          ClientErrorCode.SUBSCRIPTION_JWT_EXPIRED,
          'The token expired; subscribe again with a new one.',
          'SUBSCRIPTION_TOKEN_EXPIRED',
        ),
      );
      return;
    }
    timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  check();
  return () => clearTimeout(timer);
}

/** Every subscription the process may hold is taken: not this client's doing, so 503 as for connections. */
function allTaken(maxOpen: number): ExecutionResult {
  const error = new GraphQLError(
    `The gateway has ${maxOpen} subscriptions open, the most it may (SUBSCRIPTION_MAX_OPEN); try again later or another instance.`,
    {
      extensions: {
        ...codeExtensions(ClientErrorCode.SUBSCRIPTION_MAX_LIMIT, 'SUBSCRIPTION_LIMIT_EXCEEDED'),
        http: { status: 503, headers: new HeaderMap() },
      },
    },
  );
  return { errors: [error] };
}

function refusal(code: ClientErrorCode, message: string): ExecutionResult {
  const legacy = code === ClientErrorCode.SUBSCRIPTION_MAX_LIMIT ? { legacyCode: 'SUBSCRIPTION_LIMIT_EXCEEDED' } : {};
  return { errors: [httpError(code, message, {}, legacy)] };
}

function toFormatted(error: unknown): GraphQLFormattedError {
  if (error instanceof GraphQLError) return error.toJSON();
  return { message: error instanceof Error ? error.message : String(error) };
}
