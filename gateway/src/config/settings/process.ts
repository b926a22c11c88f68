import { availableParallelism } from 'node:os';
import * as v from 'valibot';
import type { ConfigIssue } from '../../errors.js';
import { integer, nonEmpty, oneOf, urlPath, type ValueParser, withDefault } from '../../settings/kinds.js';
import { ADAPTERS, GATEWAY_ENVS, RUNTIMES } from '../choices.js';

import type { ENTITY_CACHE_FIELDS } from './entity-cache.js';
import type { OBSERVABILITY_FIELDS } from './observability.js';
import { type ConfigOf, defineFields } from './spec.js';

/** GATEWAY_WORKERS: `auto` is the cores this process may use (cgroup limits included). */
const workerCount: ValueParser<number> = v.pipe(
  v.union([
    v.pipe(
      v.literal('auto'),
      v.transform(() => availableParallelism()),
    ),
    integer(1, 256),
  ]),
  v.description('an integer from 1 to 256, or auto'),
);

/** The process: environment, runtime and adapter, workers, where it listens. */
export const PROCESS_FIELDS = defineFields([
  {
    key: 'env',
    env: 'GATEWAY_ENV',
    parse: withDefault(oneOf(GATEWAY_ENVS), 'production'),
    meaning:
      '`development` turns on introspection, the landing page, pretty logs and unmasked errors (each can be set on its own below). No setting reads `NODE_ENV`; see [NODE_ENV](#node_env)',
  },
  {
    key: 'runtime',
    env: 'GATEWAY_RUNTIME',
    parse: withDefault(oneOf(RUNTIMES), 'nest'),
    meaning: '`nest` or `bare`',
  },
  {
    key: 'adapter',
    env: 'GATEWAY_ADAPTER',
    parse: withDefault(oneOf(ADAPTERS), 'fastify'),
    meaning: '`fastify` or `express`',
  },
  {
    key: 'workers',
    env: 'GATEWAY_WORKERS',
    parse: withDefault(workerCount, 1),
    meaning:
      'processes serving under `node:cluster` (an integer from 1, or `auto`: the cores this process may use); `1` is a single process. See [Cluster mode](operations.md#cluster-mode)',
  },
  {
    key: 'v8WorkerNice',
    env: 'GATEWAY_V8_WORKER_NICE',
    parse: withDefault(integer(0, 19), 10),
    meaning:
      "Linux: the nice value of V8's background threads (garbage collection helpers, concurrent compilers), so that on a core they share with the request thread they take about 30% of it instead of four fifths during a full collection; `0` leaves them as Node starts them (19 starves them under saturation: the heap doubled). See [Performance: V8's helper threads](performance.md#issue-31-v8s-helper-threads-on-the-gateways-core)",
  },
  {
    key: 'host',
    env: 'GATEWAY_LISTEN_HOST',
    formerEnv: ['HOST'],
    parse: withDefault(nonEmpty, '0.0.0.0'),
    meaning: 'listen address',
  },
  {
    key: 'port',
    env: 'GATEWAY_LISTEN_PORT',
    formerEnv: ['PORT'],
    parse: withDefault(integer(0, 65535), 4000),
    meaning: 'listen port (`0`: any free port)',
  },
  {
    key: 'graphqlPath',
    env: 'GRAPHQL_PATH',
    parse: withDefault(urlPath, '/graphql'),
    meaning: 'where GraphQL is served',
  },
]);

/**
 * The process's rule (ADR 052), on the typed config. Under cluster every worker has its own
 * metrics registry and a scrape reaches one worker at random (the main port and METRICS_PORT
 * alike are shared sockets), so the numbers would be one worker's, jumping between scrapes:
 * refused rather than served wrong.
 */
export function checkWorkers(
  {
    workers,
    metrics,
    entityCache,
  }: ConfigOf<typeof PROCESS_FIELDS | typeof OBSERVABILITY_FIELDS | typeof ENTITY_CACHE_FIELDS>,
  issues: ConfigIssue[],
): void {
  if (workers > 1 && metrics.enabled) {
    issues.push({
      field: 'GATEWAY_WORKERS',
      message: `${workers} workers cannot serve METRICS_ENABLED: each scrape would see one worker; use GATEWAY_WORKERS=1 and more replicas`,
    });
  }
  // Each worker would keep its own cache, and an invalidation (a mutation's, the operator's)
  // would reach only the worker that received it: the others serve the old answer for its TTL.
  if (workers > 1 && entityCache.store === 'memory') {
    issues.push({
      field: 'GATEWAY_WORKERS',
      message: `${workers} workers cannot share ENTITY_CACHE=memory: an invalidation would reach one worker and the others would serve stale answers; use ENTITY_CACHE=redis (one cache for every worker) or GATEWAY_WORKERS=1`,
    });
  }
}
