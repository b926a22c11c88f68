import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { extendSchema, type GraphQLSchema, parse } from 'graphql';

type GatewayInterface = ApolloServerOptionsWithGateway<never>['gateway'];

/**
 * The directive the query planner accepts with `incrementalDelivery.enableDefer` (its own API
 * schema has it), as graphql-js 16 lacks a built-in definition: Apollo Server validates
 * operations against the schema the gateway announces, which @apollo/gateway 2 builds
 * without it (`Unknown directive "@defer"` otherwise).
 */
const DEFER = parse('directive @defer(label: String, if: Boolean! = true) on FRAGMENT_SPREAD | INLINE_FRAGMENT');
/** graphql-js 17's definition; the gateway streams lists itself (ADR 060), the planner never sees it. */
const STREAM = parse('directive @stream(initialCount: Int! = 0, label: String, if: Boolean! = true) on FIELD');

/** The schema with `@defer` and `@stream` declared (unchanged where they already are). */
export function withDeferDirective(schema: GraphQLSchema): GraphQLSchema {
  let extended = schema;
  if (!extended.getDirective('defer')) extended = extendSchema(extended, DEFER, { assumeValidSDL: true });
  if (!extended.getDirective('stream')) extended = extendSchema(extended, STREAM, { assumeValidSDL: true });
  return extended;
}

/** `gateway`, announcing its schemas with `@defer` and `@stream` declared. */
export function announcingDefer<G extends GatewayInterface>(gateway: G): G {
  return {
    ...gateway,
    onSchemaLoadOrUpdate: (callback) =>
      gateway.onSchemaLoadOrUpdate((update) =>
        callback({ ...update, apiSchema: withDeferDirective(update.apiSchema) }),
      ),
    load: (options) => gateway.load(options),
    stop: () => gateway.stop(),
  } as G;
}
