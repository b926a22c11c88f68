import type { SetupKey } from './setups.js';

/** Our gateway process (`node server/dist/main.js`) on each of its four mounts. */
export const GATEWAY_MOUNTS = ['nest-fastify', 'nest-express', 'fastify', 'express'] as const;
export const ROUTER = 'apollo-router';
/** The seed's "Node gateway": startStandaloneServer + @apollo/gateway's default fetcher. */
export const STANDALONE = 'standalone';
/** The same server with our undici data source in place of the default fetcher: nothing else differs. */
export const STANDALONE_UNDICI = 'standalone-undici';
/** The Guild's Hive Gateway (`@graphql-hive/gateway`, Node), a peer: its CLI on the same supergraph. */
export const HIVE_GATEWAY = 'hive-gateway';
/** The same with its Rust query planner (`@graphql-hive/router-runtime`, `--hive-router-runtime`). */
export const HIVE_GATEWAY_RUST = 'hive-gateway-rust';
export const HIVE_TARGETS: readonly string[] = [HIVE_GATEWAY, HIVE_GATEWAY_RUST];
/**
 * nest-fastify under node:cluster, one worker per CPU the gateway is given (GATEWAY_WORKERS):
 * against the Router on the same CPUs. Not in the default list: on the default layout (one
 * gateway CPU) it would be nest-fastify again; give it several with --gateway-cpus.
 */
export const NEST_FASTIFY_CLUSTER = 'nest-fastify-cluster';
/** What `pnpm bench` measures when no --targets is given. */
export const DEFAULT_TARGETS: readonly string[] = [
  ...GATEWAY_MOUNTS,
  STANDALONE,
  STANDALONE_UNDICI,
  ROUTER,
  ...HIVE_TARGETS,
];
export const BUILT_IN_TARGETS: readonly string[] = [...DEFAULT_TARGETS, NEST_FASTIFY_CLUSTER];

/**
 * The setups an external endpoint may declare. The others send credentials (an API key, a
 * JWT signed with a secret made for this run) that an endpoint we did not start cannot know.
 */
export const EXTERNAL_SETUPS: readonly SetupKey[] = [
  'none',
  'demand-control-off',
  'authorization-off',
  'apollo-executor',
  'apollo-planner',
  'static-header',
  'guid-headers',
  'rate-limit',
  'rate-limit-redis',
  // An endpoint started with its own dedup on: §A's and §F's "· dedup" rows.
  'dedup',
  // One of our dedups alone (§F): representations off, subgraph or inbound in-flight dedup on.
  'no-dedup',
  'subgraph-dedup',
  'inbound-dedup',
  // Its requests send Accept-Encoding, no credential: an endpoint started with compression on (§A, §F).
  'compression',
];
export const CREDENTIAL_SETUPS: readonly SetupKey[] = [
  'jwt-client-awareness',
  'rate-limit+api-key',
  'rate-limit+api-key+jwt',
  'full+metrics',
  // §G's catalogue workload signs a fifth of its requests in with this run's tokens.
  'entity-cache-off',
  'entity-cache-memory',
  'entity-cache-redis',
  'response-cache',
  // §H: two API keys of this run's.
  'shedding-off',
  'shedding-on',
];
/**
 * Setups proven on through something of the harness's own: the target's metrics port, the
 * OTLP sink it exports to. An external endpoint gives us neither, so it may not declare them.
 */
export const OBSERVED_SETUPS: readonly SetupKey[] = ['metrics', 'tracing-1%', 'tracing-100%'];

export type TargetKind = 'mount' | 'cluster' | 'standalone' | 'router' | 'hive' | 'external';

export interface TargetSpec {
  readonly name: string;
  readonly kind: TargetKind;
  /** External targets only: the GraphQL endpoint, already running. */
  readonly url?: string;
  /**
   * External targets only: the one setup the endpoint was started with (`--external
   * name@setup=url`; default none). We configure our own targets per row instead.
   */
  readonly setup?: SetupKey;
}

/** `--targets` names plus `--external name=url` entries, in order; throws on unknown names. */
export function resolveTargets(names: readonly string[], externals: readonly TargetSpec[]): TargetSpec[] {
  const unknown = names.filter((name) => !BUILT_IN_TARGETS.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `unknown target ${unknown.join(', ')} (known: ${BUILT_IN_TARGETS.join(', ')}; or --external name=url)`,
    );
  }
  const taken = new Set<string>();
  for (const { name } of externals) {
    if (taken.has(name)) throw new Error(`--external name "${name}" is given twice; names must be unique`);
    taken.add(name);
  }
  const builtIn = [...new Set(names)].map((name): TargetSpec => ({ name, kind: kindOf(name) }));
  return [...builtIn, ...externals];
}

/** Parses one `--external name=url` or `--external name@setup=url`. */
export function parseExternal(value: string): TargetSpec {
  // Split at the first `=` only: a URL may hold `=` (query) and `@` (user info).
  const at = value.indexOf('=');
  const [name = '', setup = 'none', ...extra] = value.slice(0, Math.max(at, 0)).trim().split('@');
  const url = value.slice(at + 1).trim();
  if (at <= 0 || name === '' || extra.length > 0 || !/^https?:\/\//.test(url)) {
    throw new Error(`--external expects name=http://host:port/path or name@setup=http://…, got "${value}"`);
  }
  if (BUILT_IN_TARGETS.includes(name)) throw new Error(`--external name "${name}" is a built-in target; pick another`);
  return { name, kind: 'external', url, setup: externalSetup(name, setup) };
}

function externalSetup(name: string, setup: string): SetupKey {
  if (CREDENTIAL_SETUPS.includes(setup as SetupKey)) {
    throw new Error(
      `--external ${name}@${setup}: this setup sends credentials made for this run, which an external ` +
        `endpoint cannot know; an external may declare ${EXTERNAL_SETUPS.join(', ')}`,
    );
  }
  if (OBSERVED_SETUPS.includes(setup as SetupKey)) {
    throw new Error(
      `--external ${name}@${setup}: this setup is checked through a metrics port or an OTLP sink of the ` +
        `harness's own, which an external endpoint does not have; an external may declare ${EXTERNAL_SETUPS.join(', ')}`,
    );
  }
  if (!EXTERNAL_SETUPS.includes(setup as SetupKey)) {
    throw new Error(`--external ${name}@${setup}: unknown setup (one of ${EXTERNAL_SETUPS.join(', ')})`);
  }
  return setup as SetupKey;
}

function kindOf(name: string): TargetKind {
  if (name === ROUTER) return 'router';
  if (name === STANDALONE || name === STANDALONE_UNDICI) return 'standalone';
  if (HIVE_TARGETS.includes(name)) return 'hive';
  if (name === NEST_FASTIFY_CLUSTER) return 'cluster';
  return 'mount';
}
