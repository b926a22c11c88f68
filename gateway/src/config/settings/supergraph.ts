import { httpUrl, oneOf, secret, withDefault } from '../../settings/kinds.js';
import { SUPERGRAPH_VALUES } from '../../supergraph/settings.js';

import { defineFields } from './spec.js';

/** Where the supergraph comes from, and how often it is checked for a new one. */
export const SUPERGRAPH_FIELDS = defineFields([
  {
    key: 'supergraph.path',
    formerKey: 'supergraphPath',
    env: 'SUPERGRAPH_PATH',
    parse: SUPERGRAPH_VALUES.path,
    meaning: 'supergraph SDL file (any valid supergraph), relative to the working directory',
  },
  {
    key: 'supergraph.url',
    formerKey: 'supergraphUrl',
    env: 'SUPERGRAPH_URL',
    // Hidden in errors: a signed artifact URL carries its token in the query string.
    parse: secret(httpUrl, 'expected an http(s) URL'),
    meaning:
      'fetch the supergraph from this http(s) URL instead of the file (not both: startup refuses it); never logged. See [Supergraph hot reload](operations.md#supergraph-hot-reload)',
  },
  {
    key: 'supergraph.pollIntervalMs',
    formerKey: 'supergraphPollIntervalMs',
    env: 'SUPERGRAPH_POLL_INTERVAL_MS',
    parse: SUPERGRAPH_VALUES.pollIntervalMs,
    meaning:
      'how often the file (or URL) is checked for a new supergraph; `0` turns hot reload off, otherwise at least `100`',
  },
  {
    key: 'supergraph.urlTimeoutMs',
    formerKey: 'supergraphUrlTimeoutMs',
    env: 'SUPERGRAPH_URL_TIMEOUT_MS',
    parse: SUPERGRAPH_VALUES.urlTimeoutMs,
    meaning: 'bounds each fetch of `SUPERGRAPH_URL`, headers and body (only with `SUPERGRAPH_URL`)',
    feature: 'supergraph-url',
  },
  {
    key: 'supergraph.urlMaxBytes',
    formerKey: 'supergraphUrlMaxBytes',
    env: 'SUPERGRAPH_URL_MAX_BYTES',
    parse: SUPERGRAPH_VALUES.urlMaxBytes,
    meaning: 'a larger answer from `SUPERGRAPH_URL` is abandoned mid-read (only with `SUPERGRAPH_URL`)',
    docDefault: '`50mb`',
    feature: 'supergraph-url',
  },
  {
    key: 'queryPlanExecutor',
    env: 'QUERY_PLAN_EXECUTOR',
    parse: withDefault(oneOf(['lean', 'apollo'] as const), 'lean'),
    meaning:
      "who runs each query plan: `lean`, the gateway's own executor (compiled result shaping per cached plan), or `apollo`, @apollo/gateway's `executeQueryPlan`. Both answer byte for byte the same; `apollo` is there to compare and as a way back, and cannot run `@defer` (with it `@defer` is an unknown directive). See [ADR 025](adr/025-lean-plan-executor.md)",
  },
  {
    key: 'queryPlanner',
    env: 'QUERY_PLANNER',
    parse: withDefault(oneOf(['apollo', 'hive'] as const), 'hive'),
    meaning:
      "who plans each query and mutation: `hive`, Hive Router's planner (`@graphql-hive/router-query-planner`, a native addon for Linux and macOS on x64 and arm64, glibc only), its plans translated into the ones the lean executor runs, or `apollo` (@apollo/query-planner, the default before; set it on a platform the addon does not ship for, such as Alpine or Windows). `@defer`, subscriptions and the few plans with no exact translation are planned by `apollo` either way; `QUERY_PLAN_EXECUTOR=apollo` plans everything with `apollo`. See [ADR 062](adr/062-hive-planner-by-default.md) and [the federation audit](federation-audit.md)",
  },
]);
