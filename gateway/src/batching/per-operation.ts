import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayContext, RequestScope } from '../contract/index.js';
import { ResponseBudget } from '../response-budget.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Makes each operation of a batch its own request to every other plugin. Apollo Server runs
 * them through the whole pipeline with a shallow copy of one context, so they would share the
 * HTTP request's scope and response budget: one operation's facts (its name, a trusted
 * document, a refusal before parsing) would label the others' metrics, and one large answer
 * would spend the others' MAX_RESPONSE_BYTES. Each operation gets a scope of its own (which
 * reads the rest from the request's) and a budget of its own; the request's scope lists them,
 * for its log line. Must be the first Apollo plugin: the others read the scope in their
 * `requestDidStart`.
 *
 * The batch shares one HTTP status, which Apollo Server leaves to the last operation that set
 * one (a single REQUEST_RATE_LIMITED operation would turn a batch of answers into a 429, and clients
 * such as Apollo Client fail every operation of a non-2xx batch). Here it is 200 once any
 * operation ran, each answer carrying its own errors; a batch where none ran keeps the status
 * of a refusal.
 */
export function perOperationBatching(): ApolloServerPlugin<GatewayContext> {
  const ranAny = new WeakSet<RequestScope>();
  return {
    async requestDidStart({ requestIsBatched, contextValue }) {
      if (!requestIsBatched) return;
      const context = contextValue as Writable<GatewayContext>;
      const request = context.scope;
      const operation = operationScope(request);
      context.scope = operation;
      context.responseBudget = new ResponseBudget(context.responseBudget.maxBytes);
      return {
        async willSendResponse({ response }) {
          const { body } = response;
          const result = body.kind === 'single' ? body.singleResult : body.initialResult;
          // Apollo Server's convention: no `data` at all when the operation did not run.
          if (result.data !== undefined) ranAny.add(request);
          if (ranAny.has(request)) response.http.status = 200;
        },
      };
    },
  };
}

/**
 * One operation's scope: what it writes (operationName, trustedDocument…) stays its own, the
 * rest (request id, headers, identity, `appendResponseHeader`) is the request's. Apollo Server
 * starts the operations in the batch's order, so the list is in that order too.
 */
function operationScope(request: RequestScope): RequestScope {
  const operation: RequestScope = Object.create(request);
  operation.operationName = undefined;
  operation.batchOperations = undefined;
  if (request.batchOperations) request.batchOperations.push(operation);
  else request.batchOperations = [operation];
  return operation;
}
