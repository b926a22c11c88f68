import { freePort } from '@fedgw/test-support';
import { GC_TRACE_FLAG, GcTraceReader } from '../measure/gc-trace.js';
import { parseCpuList } from '../measure/pinning.js';
import { descendantPids } from '../measure/proc-stats.js';
import { repoPath } from '../paths.js';
import { type ManagedProcess, spawnManaged } from './child.js';
import { hiveGatewayArgs } from './hive-gateway-args.js';
import { peerSupergraph } from './peer-supergraph.js';
import { assertPortFree } from './ports.js';
import { waitForGraphQL } from './readiness.js';
import type { RouterBinary } from './router-binary.js';
import type { Setup, SetupContext } from './setups.js';
import { type SubgraphName, subgraphUrlEnv } from './subgraph-processes.js';
import { STANDALONE_UNDICI, type TargetSpec } from './targets.js';

export interface TargetEnvironment {
  readonly port: number;
  readonly subgraphUrls: Readonly<Record<SubgraphName, string>>;
  /** taskset list for gateway-like targets; undefined: unpinned. */
  readonly cpus: string | undefined;
  /** Node flags for our mounts only (--node-flags). */
  readonly nodeFlags: readonly string[];
  readonly router: RouterBinary | null;
  readonly setupContext: SetupContext;
}

export interface RunningTarget {
  /** The GraphQL endpoint the load goes to. */
  readonly url: string;
  /** Null for external targets (no CPU or memory readings). */
  readonly process: ManagedProcess | null;
  /** The CPU group name: `gateway` for Node targets, `router` for Apollo Router. */
  readonly group: 'gateway' | 'router' | null;
  /** Our single-process Node mounts: the GC trace they print (`--trace-gc-nvp`); a row reads its window. */
  readonly gcTrace?: GcTraceReader;
  /** The target's processes now: its own, plus a cluster's workers. */
  pids(): number[];
  stop(): Promise<void>;
}

/** Starts a target configured by `setup` and waits until it answers GraphQL. */
export async function startTarget(
  target: TargetSpec,
  setup: Setup,
  env: TargetEnvironment | null,
): Promise<RunningTarget> {
  if (target.kind === 'external') {
    const url = target.url as string;
    await waitForGraphQL(url, null, 10_000, setup.headers);
    return { url, process: null, group: null, pids: () => [], stop: async () => {} };
  }
  if (!env) throw new Error(`${target.name}: no environment to start it in`);
  await assertPortFree(env.port, target.name);
  // NODE_ENV=production as in a deployment: libraries (graphql-js, Express) pick their fast paths.
  const base = { PATH: process.env.PATH ?? '', NODE_ENV: 'production', ...subgraphUrlEnv(env.subgraphUrls) };
  const url = `http://127.0.0.1:${env.port}${target.kind === 'standalone' ? '/' : '/graphql'}`;
  const spawned = await spawnTarget(target, setup, env, base);
  const gcTrace = target.kind === 'mount' ? new GcTraceReader() : undefined;
  if (gcTrace) spawned.onStdout((chunk) => gcTrace.feed(chunk));
  const running: RunningTarget = {
    url,
    process: spawned,
    ...(gcTrace && { gcTrace }),
    group: target.kind === 'router' ? 'router' : 'gateway',
    pids: () => (target.kind === 'cluster' ? [spawned.pid, ...descendantPids(spawned.pid)] : [spawned.pid]),
    stop: () => spawned.stop(),
  };
  try {
    await waitForGraphQL(url, spawned, 60_000, setup.headers);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

/** What every target's process is spawned with. */
interface SpawnParts {
  readonly base: Record<string, string>;
  readonly common: { name: string; cwd: string; cpus: string | undefined };
  readonly listen: { PORT: string; HOST: string };
  readonly supergraph: string;
}

async function spawnTarget(
  target: TargetSpec,
  setup: Setup,
  env: TargetEnvironment,
  base: Record<string, string>,
): Promise<ManagedProcess> {
  const common = { name: target.name, cwd: repoPath(), cpus: env.cpus };
  const listen = { PORT: String(env.port), HOST: '127.0.0.1' };
  const supergraph = repoPath('supergraph.graphql');
  const spawn: SpawnParts = { base, common, listen, supergraph };
  if (target.kind === 'mount' || target.kind === 'cluster') return spawnOurGateway(target, setup, env, spawn);
  if (target.kind === 'standalone') return spawnStandalone(target, spawn);
  if (target.kind === 'hive') return spawnHive(target, setup, env, spawn);
  return spawnRouter(target, setup, env, spawn);
}

/** Our gateway (server/dist/main.js): a bare or Nest mount, or a cluster. */
function spawnOurGateway(target: TargetSpec, setup: Setup, env: TargetEnvironment, spawn: SpawnParts): ManagedProcess {
  const { base, common, listen, supergraph } = spawn;
  const [runtime, adapter] =
    target.kind === 'cluster'
      ? ['nest', 'fastify']
      : target.name.startsWith('nest-')
        ? ['nest', target.name.slice(5)]
        : ['bare', target.name];
  return spawnManaged({
    ...common,
    command: process.execPath,
    // The GC trace (a line per collection, on stdout) is what the rows' allocated and promoted bytes come from.
    args: [
      ...(target.kind === 'mount' ? [GC_TRACE_FLAG] : []),
      ...env.nodeFlags,
      repoPath('server', 'dist', 'main.js'),
    ],
    env: {
      ...base,
      GATEWAY_LISTEN_PORT: listen.PORT,
      GATEWAY_LISTEN_HOST: listen.HOST,
      GATEWAY_RUNTIME: runtime as string,
      GATEWAY_ADAPTER: adapter as string,
      // Production logging: one JSON line per request at info, as deployed (the Router logs at warn,
      // and has no per-request line to turn on).
      GATEWAY_LOG_LEVEL: 'info',
      GATEWAY_LOG_PRETTY: 'false',
      SUPERGRAPH_PATH: supergraph,
      // The load comes from one address standing for many clients (as behind a proxy): no
      // per-address turn for answers in progress (UNREAD_ANSWERS_MAX_PER_CLIENT, ADR 031).
      UNREAD_ANSWERS_MAX_PER_CLIENT: '100000',
      // One worker per CPU it is pinned to (auto: the CPUs this process may run on).
      ...(target.kind === 'cluster' && {
        GATEWAY_WORKERS: env.cpus ? String(parseCpuList(env.cpus).length) : 'auto',
      }),
      ...setup.gatewayEnv(env.setupContext),
    },
  });
}

/** bench/dist/targets/standalone.js: @apollo/gateway alone, for comparison. */
function spawnStandalone(target: TargetSpec, spawn: SpawnParts): ManagedProcess {
  const { base, common, listen, supergraph } = spawn;
  return spawnManaged({
    ...common,
    command: process.execPath,
    args: [repoPath('bench', 'dist', 'targets', 'standalone.js')],
    env: {
      ...base,
      ...listen,
      SUPERGRAPH_PATH: peerSupergraph(supergraph),
      STANDALONE_FETCHER: target.name === STANDALONE_UNDICI ? 'undici' : 'default',
    },
  });
}

/** Hive Gateway. */
function spawnHive(target: TargetSpec, setup: Setup, env: TargetEnvironment, spawn: SpawnParts): ManagedProcess {
  const { base, common, supergraph } = spawn;
  return spawnManaged({
    ...common,
    command: process.execPath,
    args: hiveGatewayArgs(target, peerSupergraph(supergraph), env.port),
    // A clean environment: no HIVE_* token can turn on reporting to Hive's cloud.
    env: { ...base, ...(setup.hiveEnv ?? {}) },
  });
}

/** Apollo Router, with the setup's config. */
async function spawnRouter(
  target: TargetSpec,
  setup: Setup,
  env: TargetEnvironment,
  spawn: SpawnParts,
): Promise<ManagedProcess> {
  const { base, common, supergraph } = spawn;
  if (!env.router || !('config' in setup.router)) throw new Error(`${target.name}: cannot run this setup`);
  return spawnManaged({
    ...common,
    command: env.router.path,
    args: [
      '--supergraph',
      peerSupergraph(supergraph),
      '--config',
      repoPath('bench', 'router', setup.router.config),
      '--log',
      'warn',
    ],
    env: {
      ...base,
      HOME: process.env.HOME ?? '/tmp',
      APOLLO_TELEMETRY_DISABLED: 'true',
      ROUTER_LISTEN: `127.0.0.1:${env.port}`,
      ROUTER_HEALTH_LISTEN: `127.0.0.1:${await freePort()}`,
      ROUTER_RHAI_DIR: repoPath('bench', 'router', 'rhai'),
    },
  });
}
