import type { GraphQLRequest, GraphQLRequestListener } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import type { GatewayContext, RequestScope } from '../../plugin-sdk/index.js';

/**
 * Refuses a request from `requestDidStart`, before Apollo Server parses anything of it: a
 * trivial document stands in for the client's (so nothing of it is parsed, validated or
 * walked), and `error` is thrown from `didResolveOperation`, the first hook whose errors Apollo
 * Server turns into an HTTP status (a throw from `requestDidStart` would be a 500). Call it
 * before any await in `requestDidStart`'s caller chain reaches Apollo Server's parse.
 */
export function refuseBeforeParsing(
  request: GraphQLRequest,
  scope: RequestScope,
  error: GraphQLError,
): GraphQLRequestListener<GatewayContext> {
  request.query = '{ __typename }';
  request.operationName = undefined;
  request.variables = undefined;
  request.extensions = undefined;
  scope.refusedBeforeParsing = true;
  return {
    async didResolveOperation() {
      throw error;
    },
  };
}
