import { GraphQLError } from 'graphql';

/** Errors a client sees: GraphQLErrors with a stable `extensions.code`. */

export function badUserInput(message: string, field: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', field } });
}

export function unauthenticated(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED' } });
}
