import type { GraphQLDataSource } from '@apollo/gateway';
import type { GraphQLSchema } from 'graphql';
import { newApolloGateway } from '../apollo-telemetry.js';
import { type SubgraphOverride, subgraphKey } from '../subgraph-overrides.js';

export type Validation =
  | { ok: true; subgraphs: readonly string[]; schema: GraphQLSchema }
  | { ok: false; reason: string; error?: unknown };

export interface ValidateOptions {
  /** `config.subgraphs`: per-subgraph overrides, keyed in `subgraphKey` form. */
  overrides?: Readonly<Record<string, SubgraphOverride>>;
  /** APOLLO_TELEMETRY: let @apollo/gateway report to Apollo (default: it sends nothing). */
  apolloTelemetry?: boolean;
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const NEVER_USED: GraphQLDataSource = {
  process: () => Promise.reject(new Error('a supergraph validation gateway does not execute')),
};

/**
 * Loads `sdl` into a throwaway ApolloGateway, the same code path the serving gateway takes
 * (Supergraph.build, API schema, query planner), with validation forced on. Done before
 * `update`: @apollo/gateway's `update` callback only validates the supergraph when
 * NODE_ENV is not `production`, and it creates data sources for the new subgraphs (closing
 * replaced ones) before the planner is built, so a supergraph that fails late would
 * already have re-pointed the old schema's subgraphs.
 */
export async function validateSupergraph(sdl: string, options: ValidateOptions = {}): Promise<Validation> {
  const overrides = options.overrides ?? {};
  const seen: string[] = [];
  const missingUrl: string[] = [];
  const trial = newApolloGateway(
    {
      supergraphSdl: sdl,
      validateSupergraph: true,
      logger: silent,
      // Records the subgraphs; the trial never executes, so its data sources are inert (a
      // RemoteGraphQLDataSource would load make-fetch-happen and its ~40 modules for nothing).
      buildService: ({ name, url }) => {
        seen.push(subgraphKey(name));
        if (!url && !overrides[subgraphKey(name)]?.url) missingUrl.push(name);
        return NEVER_USED;
      },
    },
    options.apolloTelemetry ?? false,
  );
  let schema: GraphQLSchema | undefined;
  trial.onSchemaLoadOrUpdate(({ apiSchema }) => {
    schema = apiSchema;
  });
  try {
    await trial.load();
  } catch (error) {
    return { ok: false, reason: reasonOf(error), error };
  } finally {
    await trial.stop();
  }
  if (missingUrl.length > 0) return { ok: false, reason: `subgraph without a URL: ${missingUrl.join(', ')}` };
  if (!schema) return { ok: false, reason: 'no API schema was built' };
  return { ok: true, subgraphs: seen, schema };
}

/** The first line of the error, bounded: enough to act on, never a page of SDL. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
