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

/** The schema with `@defer` declared (unchanged when it already is). */
export function withDeferDirective(schema: GraphQLSchema): GraphQLSchema {
  if (schema.getDirective('defer')) return schema;
  return extendSchema(schema, DEFER, { assumeValidSDL: true });
}

/** `gateway`, announcing its schemas with `@defer` declared. */
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
