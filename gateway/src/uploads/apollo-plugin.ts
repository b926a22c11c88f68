import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import {
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  type OperationDefinitionNode,
  typeFromAST,
} from 'graphql';
import type { GatewayContext } from '../contract/index.js';
import { ClientErrorCode } from '../error-registry.js';
import { httpAnswerOf, httpError } from '../http-error.js';
import { isUploadRequest } from './plan-check.js';
import { uploadsIn } from './uploaded-file.js';

/**
 * The checks Apollo Server's pipeline makes possible: once the operation is resolved, each file
 * must sit where its variable's type says `Upload` (and a mutation's, checked again for a persisted
 * document); once the answer is ready, an upload that failed (a limit, a stall) sets its status.
 */
export function uploadsApolloPlugin(): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart({ request }) {
      if (!isUploadRequest(request.http?.headers)) return;
      return {
        async didResolveOperation({ operation, schema }) {
          const files = uploadsIn(request.variables);
          if (!operation) return;
          if (files.length > 0 && operation.operation !== 'mutation')
            throw httpError(ClientErrorCode.UPLOAD_NOT_ALLOWED, 'Files are accepted with mutations only.');
          for (const { path } of files) {
            if (!isUploadTyped(schema, operation, path.split('.').slice(1)))
              throw httpError(
                ClientErrorCode.UPLOAD_NOT_ALLOWED,
                `A file was sent at ${path}, which is not an Upload.`,
              );
          }
        },
        async willSendResponse({ response }) {
          const failure = uploadsIn(request.variables)[0]?.file.owner.failure;
          if (!failure || response.body.kind !== 'single') return;
          setFailure(response, failure);
        },
      };
    },
  };
}

/** The upload's own error, and its status (413, 408…), on an answer whose fetch it broke. */
function setFailure(response: GraphQLResponse, failure: GraphQLError): void {
  if (response.body.kind !== 'single') return;
  const { status, error } = httpAnswerOf(failure);
  response.http.status = status;
  const result = response.body.singleResult;
  const shown = { message: error.message, extensions: error.extensions };
  response.body.singleResult = { ...result, errors: [shown, ...(result.errors ?? [])] };
}

/** Whether `steps` (a variable's name, then fields and list indexes) lead to the `Upload` scalar. */
function isUploadTyped(schema: GraphQLSchema, operation: OperationDefinitionNode, steps: string[]): boolean {
  const [name, ...rest] = steps;
  const definition = operation.variableDefinitions?.find((variable) => variable.variable.name.value === name);
  let type = definition && (typeFromAST(schema, definition.type) as GraphQLInputType | undefined);
  for (const step of rest) {
    if (type && isNonNullType(type)) type = type.ofType;
    if (type && isListType(type) && /^\d+$/.test(step)) type = type.ofType;
    else if (type && isInputObjectType(type)) type = type.getFields()[step]?.type;
    else return false;
  }
  if (type && isNonNullType(type)) type = type.ofType;
  return type !== undefined && isScalarType(type) && type.name === 'Upload';
}
