import { type ApolloServer, HeaderMap } from '@apollo/server';
import { type FormattedExecutionResult, GraphQLError } from 'graphql';
import type { ClientKeyOf } from '../client-address/index.js';
import type {
  GatewayContext,
  RequestScope,
  StreamOutcome,
  StreamParams,
  SubscriptionEndpoint,
} from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpAnswerOf } from '../http-error.js';
import { chooseTransport } from '../transport-choice.js';
import { ConnectionSlots } from './connection-slots.js';
import type { SubscriptionSettings } from './settings.js';
import { openStreamSink } from './stream-sink.js';
import { methodForApollo, searchOf } from './transport-method.js';

export interface EndpointParts {
  readonly settings: SubscriptionSettings;
  readonly server: ApolloServer<GatewayContext>;
  /** The per-client key rule the connection caps count by (CLIENT_IPV6_PREFIX). */
  readonly clientKey: ClientKeyOf;
  context(scope: RequestScope): Promise<GatewayContext>;
  onResponse(scope: RequestScope, status: number): void;
  runRequest?<T>(scope: RequestScope, handler: () => T): T;
  /** Formats a refusal thrown while the context was built (MASK_ERRORS). */
  formatError(error: GraphQLError): FormattedExecutionResult['errors'];
}

/**
 * The gateway side of the streaming transports: each operation they receive runs through
 * Apollo Server's `executeOperation` with a context built as for an HTTP request, so it is
 * authenticated, checked, rate limited and logged the same way; a subscription's events come
 * back through the request's stream sink.
 */
export function subscriptionEndpoint(parts: EndpointParts): SubscriptionEndpoint & { drain(): void } {
  const { settings } = parts;
  const drainListeners: (() => void)[] = [];
  const connections = new ConnectionSlots(settings.maxConnections, settings.maxConnectionsPerClient, parts.clientKey);
  let draining = false;

  const operate = async (scope: RequestScope, params: StreamParams): Promise<StreamOutcome> => {
    let context: GatewayContext;
    try {
      context = await parts.context(scope);
    } catch (error) {
      return refused(error, parts);
    }
    const sink = openStreamSink(context);
    const method = methodForApollo(scope, params, settings.maxTokens);
    const response = await parts.server.executeOperation(
      {
        query: params.query ?? '',
        variables: (params.variables ?? undefined) as Record<string, unknown> | undefined,
        operationName: params.operationName ?? undefined,
        extensions: (params.extensions ?? undefined) as Record<string, unknown> | undefined,
        http:
          method === 'GET'
            ? { method, headers: headerMapOf(scope), search: searchOf(scope.url), body: undefined }
            : { method, headers: headerMapOf(scope), search: '', body: params },
      },
      { contextValue: context },
    );
    if (sink.events) return { kind: 'stream', events: sink.events };
    const result: FormattedExecutionResult =
      response.body.kind === 'single'
        ? response.body.singleResult
        : { errors: [{ message: 'Incremental delivery (@defer) is not served over this transport.' }] };
    return { kind: 'answer', status: response.http.status ?? 200, result };
  };

  return {
    limits: settings,
    openConnection: (address) => connections.open(address),
    transportFor: chooseTransport,
    async authenticate(scope) {
      try {
        await parts.context(scope);
        return undefined;
      } catch (error) {
        return refused(error, parts);
      }
    },
    async operate(scope, params) {
      const run = () => operate(scope, params);
      const outcome = await (parts.runRequest ? parts.runRequest(scope, run) : run());
      parts.onResponse(scope, outcome.kind === 'answer' ? outcome.status : 200);
      return outcome;
    },
    onDrain(listener) {
      drainListeners.push(listener);
    },
    drain() {
      if (draining) return;
      draining = true;
      connections.drain();
      for (const listener of drainListeners) listener();
    },
  };
}

/** A refusal from `context()` (authentication: 401…), answered with its status as an HTTP request would be. */
function refused(error: unknown, parts: EndpointParts): StreamOutcome & { kind: 'answer' } {
  const graphqlError =
    error instanceof GraphQLError
      ? error
      : new GraphQLError('Internal server error', { extensions: { code: ClientErrorCode.INTERNAL_SERVER_ERROR } });
  const { status, headers, error: clean } = httpAnswerOf(graphqlError);
  const result = { errors: parts.formatError(clean) };
  return { kind: 'answer', status, result, ...(headers && { headers: Object.fromEntries(headers) }) };
}

function headerMapOf(scope: RequestScope): HeaderMap {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(scope.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}
