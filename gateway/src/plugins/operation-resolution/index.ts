import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import { ClientErrorCode, httpError, streamSinkOf } from '../../plugin-sdk/index.js';

/**
 * Answers 400 for operations the request does not resolve to one runnable operation:
 * an unknown `operationName`, several operations and no name, a subscription over plain
 * HTTP (only the WebSocket, SSE and multipart transports, which open a stream sink, can carry one).
 * With a gateway, Apollo Server leaves this to @apollo/gateway's executor, which fails
 * with a 500 INVALID_GRAPHQL logged as a server error: a client's mistake filling the
 * error log. Always on, and first: the other checks need a resolved operation.
 */
export function operationResolution(): GatewayPlugin {
  return {
    name: 'operation-resolution',
    apollo: {
      async requestDidStart() {
        return {
          async didResolveOperation({ operation, document, request, schema, contextValue }) {
            if (!operation) {
              const named = request.operationName;
              const several = document.definitions.filter((d) => d.kind === 'OperationDefinition').length > 1;
              throw httpError(
                ClientErrorCode.OPERATION_RESOLUTION_FAILURE,
                named !== undefined && named !== null
                  ? `Unknown operation named "${named}".`
                  : several
                    ? 'Must provide operation name if query contains multiple operations.'
                    : 'The request has no operation to run.',
              );
            }
            if (
              operation.operation === 'subscription' &&
              !(schema.getSubscriptionType() && streamSinkOf(contextValue))
            ) {
              throw httpError(
                ClientErrorCode.SUBSCRIPTION_NOT_SUPPORTED,
                schema.getSubscriptionType()
                  ? 'Subscriptions are served over a WebSocket (graphql-transport-ws), Server-Sent Events (Accept: text/event-stream) or multipart HTTP (Accept: multipart/mixed;subscriptionSpec=1.0), not plain HTTP.'
                  : 'The schema has no subscription root type; subscriptions are not supported.',
              );
            }
            if (!schema.getRootType(operation.operation)) {
              throw httpError(
                ClientErrorCode.OPERATION_RESOLUTION_FAILURE,
                `The schema has no ${operation.operation} root type.`,
              );
            }
          },
        };
      },
    },
  };
}
