import type { ApolloGateway } from '@apollo/gateway';
import { buildOperationContext } from '@apollo/gateway/dist/operationContext.js';
import { deepMerge } from '@apollo/gateway/dist/utilities/deepMerge.js';
import type { FetchNode } from '@apollo/query-planner';
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
import { REQUEST_ID_HEADER } from '../header-names.js';
import { httpError } from '../http-error.js';
import type { Logger } from '../logger.js';
import { ResponseBudget, responseTooLarge } from '../response-budget.js';
import { SubgraphDataSource } from '../subgraph-fetch/data-source.js';
import { redactSubgraphErrors } from '../subgraph-fetch/subgraph-errors.js';
import { SubgraphHooks } from '../subgraph-fetch/subgraph-hooks.js';
import { LiveSubscription } from './live-subscription.js';
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
  return async (requestContext) => {
    if (requestContext.operation?.operation !== 'subscription') return next(requestContext);
    const context = requestContext.context as unknown as GatewayContext;
    const sink = streamSinkOf(context);
    if (!sink)
      return refusal(
        ClientErrorCode.SUBSCRIPTION_NOT_SUPPORTED,
        'Subscriptions need a WebSocket, Server-Sent Events or a multipart HTTP response.',
      );
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

type HookOutcome = Awaited<ReturnType<SubgraphHooks['request']>>;

async function* afterHooks(
  pending: Promise<HookOutcome>,
  open: (hooked: HookOutcome) => AsyncIterableIterator<SubgraphEvent>,
): AsyncIterableIterator<SubgraphEvent> {
  yield* open(await pending);
}

function start(
  internals: GatewayInternals,
  requestContext: RequestContext,
  plan: CompiledSubscription,
  options: SubscriptionExecutorOptions,
  subscribe: (socket: SubgraphSocketOptions) => AsyncIterableIterator<SubgraphEvent>,
  onEnd: () => void,
): LiveSubscription {
  const { primary } = plan;
  const context = requestContext.context as unknown as GatewayContext;
  const { settings, plugins, logger } = options;
  const source = internals.serviceMap[primary.serviceName]?.dataSource;
  const errorsShown = source instanceof SubgraphDataSource ? source.errors : 'mask';
  const variables = primaryVariables(primary, requestContext.request.variables ?? {});
  const events = (): AsyncIterableIterator<SubgraphEvent> => {
    if (!(source instanceof SubgraphDataSource)) {
      return failed(SubscriptionEnd.fromSubgraph(primary.serviceName, undefined));
    }
    const headers: Record<string, string> = {};
    const hooked = new SubgraphHooks(primary.serviceName, plugins, logger).request({
      subgraph: primary.serviceName,
      headers,
      context,
      query: primary.operation,
      operationName: primary.operationName,
      variables,
    });
    const opened = (hooked: HookOutcome): AsyncIterableIterator<SubgraphEvent> => {
      if (hooked) {
        const errors = 'failure' in hooked ? undefined : hooked.result.errors;
        return failed(SubscriptionEnd.fromSubgraph(primary.serviceName, errors));
      }
      // With SUBSCRIPTION_DEDUPLICATE, the subgraph sees the first sharer's request id.
      headers[REQUEST_ID_HEADER] = context.requestId;
      return subscribe({
        subgraph: primary.serviceName,
        url: source.url,
        headers,
        query: primary.operation,
        variables,
        operationName: primary.operationName,
        maxBufferedEvents: settings.maxBufferedEvents,
        slowClient: settings.slowClient,
        // The subgraph's own limits (its SUBGRAPH_<NAME>_* overrides), as its HTTP fetches have them.
        maxEventBytes: source.maxResponseBytes,
        errors: source.errors,
        connectTimeoutMs: source.timeoutMs,
        keepAliveMs: settings.heartbeatMs,
      });
    };
    // A hook that answers later (an async one) is waited for before the socket opens.
    return hooked instanceof Promise ? afterHooks(hooked, opened) : opened(hooked);
  };
  // The data sources the plan's other fetches use, fixed for the subscription's life (a new supergraph ends it).
  const serviceMap = Object.create(null);
  for (const [name, { dataSource }] of Object.entries(internals.serviceMap)) serviceMap[name] = dataSource;
  const telemetry = internals.config.telemetry;
  // Each event is a trace of its own (a subscription may live for hours), linked to the subscribe's.
  const subscribed = trace.getActiveSpan()?.spanContext();
  const eventSpan: SpanOptions = { root: true, links: subscribed ? [{ context: subscribed }] : [] };
  const resolve = (event: SubgraphEvent): Promise<FormattedExecutionResult> =>
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
      // What the subgraph wrote, as SUBGRAPH_ERRORS lets clients see it (its HTTP answers alike).
      const fromSubgraph = event.errors && redactSubgraphErrors(event.errors, errorsShown);
      const errors = [
        ...(fromSubgraph ?? event.errors ?? []).map((error) => ({
          ...error,
          extensions: { ...error.extensions, serviceName: primary.serviceName },
        })),
        ...(result.errors ?? []).map((error) => toFormatted(error)),
      ].map(options.formatError);
      if (eventContext.responseBudget.exceeded) {
        emitEvent(plugins, { type: 'subscription-event', outcome: 'errors' }, logger);
        return responseTooLarge(settings.maxResponseBytes);
      }
      emitEvent(plugins, { type: 'subscription-event', outcome: errors.length > 0 ? 'errors' : 'data' }, logger);
      return errors.length > 0 ? { errors, data: result.data ?? null } : { data: result.data ?? null };
    });
  return new LiveSubscription(events(), resolve, onEnd);
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

/** The variables the subgraph's subscription operation declares, from the client's. */
function primaryVariables(primary: FetchNode, variables: Record<string, unknown>): Record<string, unknown> {
  const used: Record<string, unknown> = {};
  for (const name of primary.variableUsages ?? []) if (Object.hasOwn(variables, name)) used[name] = variables[name];
  return used;
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

async function* failedEvents(end: SubscriptionEnd): AsyncGenerator<SubgraphEvent> {
  yield* [];
  throw end;
}

function failed(end: SubscriptionEnd): AsyncIterableIterator<SubgraphEvent> {
  return failedEvents(end);
}

function toFormatted(error: unknown): GraphQLFormattedError {
  if (error instanceof GraphQLError) return error.toJSON();
  return { message: error instanceof Error ? error.message : String(error) };
}
