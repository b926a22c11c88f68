import type { Schema } from '@apollo/federation-internals';
import type { ApolloGateway } from '@apollo/gateway';
import type { GraphQLDataSource } from '@apollo/gateway/dist/datasources/types.js';
import type { OperationContext } from '@apollo/gateway/dist/operationContext.js';
import type { OpenTelemetryConfig } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import type { QueryPlan, QueryPlanner } from '@apollo/query-planner';
import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { GraphQLError, GraphQLSchema } from 'graphql';

type GatewayInterface = ApolloServerOptionsWithGateway<never>['gateway'];
export type Executor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
export type RequestContext = Parameters<Executor>[0];
export type ExecutionResult = Awaited<ReturnType<Executor>>;

/**
 * The parts of an ApolloGateway (2.14, pinned) the lean executor reads: the schemas, planner,
 * plan store and data sources it keeps up to date across supergraph updates. They are
 * TypeScript-private, so `readInternals` checks each is there: a new @apollo/gateway that
 * renamed one fails at startup, not on a request.
 */
export interface GatewayInternals {
  readonly schema: GraphQLSchema;
  readonly apiSchema: Schema;
  readonly supergraphSchema: GraphQLSchema;
  /** The loaded supergraph's SDL (QUERY_PLANNER=hive builds its planner from it). */
  readonly supergraphSdl?: string;
  readonly queryPlanner: QueryPlanner;
  readonly queryPlanStore: {
    get(key: string): Promise<QueryPlan | undefined>;
    set(key: string, plan: QueryPlan): Promise<void>;
  };
  readonly serviceMap: Record<string, { readonly dataSource: GraphQLDataSource }>;
  readonly config: {
    readonly telemetry?: OpenTelemetryConfig;
    readonly debug?: boolean;
    readonly __exposeQueryPlanExperimental?: boolean;
  };
  readonly recursiveSelectionsLimitDisabled: boolean;
  readonly nonLocalSelectionsLimitDisabled: boolean;
  validateIncomingRequest(requestContext: RequestContext, operationContext: OperationContext): GraphQLError[];
}

const FIELDS = ['queryPlanStore', 'serviceMap', 'config', 'validateIncomingRequest'] as const;
/** Set when the supergraph loads. */
const LOADED_FIELDS = ['schema', 'apiSchema', 'supergraphSchema', 'queryPlanner'] as const;

export function readInternals(gateway: ApolloGateway, loaded = false): GatewayInternals {
  const fields = loaded ? [...FIELDS, ...LOADED_FIELDS] : FIELDS;
  const missing = fields.filter((field) => (gateway as unknown as Record<string, unknown>)[field] === undefined);
  if (missing.length > 0) {
    throw new Error(
      `QUERY_PLAN_EXECUTOR=lean: this @apollo/gateway has no ${missing.join(', ')}; use QUERY_PLAN_EXECUTOR=apollo`,
    );
  }
  return gateway as unknown as GatewayInternals;
}
