import type { GraphQLRequest } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import type { GatewayPlugin } from '../../plugin-sdk/index.js';
import { ClientErrorCode, httpError } from '../../plugin-sdk/index.js';
import { refuseBeforeParsing } from '../shared/refuse-before-parsing.js';
import { nestsDeeperThan } from './json-depth.js';
import { persistedQueryProblem } from './persisted-query-shape.js';

/**
 * How deep a request's `variables` and `extensions` may nest. Code walks them recursively
 * (deduplication keys, logging, a custom plugin's JSON.stringify); 5,000 levels overflowed
 * the stack (a 500). No real operation's input comes near this.
 */
export const MAX_REQUEST_JSON_DEPTH = 64;

/**
 * Refuses requests whose JSON is malformed in a way the rest of the pipeline would answer
 * as a server error or walk without bound: variables or extensions nested past
 * MAX_REQUEST_JSON_DEPTH (400 BAD_REQUEST), a malformed `extensions.persistedQuery`
 * (400 PERSISTED_QUERY_INVALID / _HASH_MISMATCH; Apollo Server answers those uncoded, as
 * INTERNAL_SERVER_ERROR logged with a stack). Always on, and first of all plugins.
 */
export function requestShape(): GatewayPlugin {
  return {
    name: 'request-shape',
    apollo: {
      async requestDidStart({ request, contextValue }) {
        // No await before this: Apollo Server reads the request right after.
        const problem = shapeProblem(request);
        return problem ? refuseBeforeParsing(request, contextValue.scope, problem) : undefined;
      },
    },
  };
}

function shapeProblem(request: GraphQLRequest): GraphQLError | undefined {
  if (
    nestsDeeperThan(request.variables, MAX_REQUEST_JSON_DEPTH) ||
    nestsDeeperThan(request.extensions, MAX_REQUEST_JSON_DEPTH)
  ) {
    return httpError(
      ClientErrorCode.BAD_REQUEST,
      `The request's variables or extensions nest deeper than ${MAX_REQUEST_JSON_DEPTH} levels.`,
    );
  }
  return persistedQueryProblem(request);
}
