/**
 * Where the Apollo Router binary comes from, and which version it is.
 *
 * Lookup order: `APOLLO_ROUTER_BIN` (when set, it is the only answer: set to a missing path it
 * means "no Router", which tests use), then `router` on `PATH`, then the cache that
 * `pnpm router:install` fills (`${XDG_CACHE_HOME:-~/.cache}/apollo-router/<version>/bin/router`,
 * outside the repository because the binary is 89 MB and takes ~20 minutes to build).
 * A candidate counts only once `<bin> --version` answers with a version number.
 */
import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** The Router version the benchmark, `bench/router/*.yaml` and docker-compose are pinned to. */
export const ROUTER_VERSION = '2.17.0';

/** The environment variables this module reads; defaults to `process.env`. */
export type RouterEnv = Readonly<Record<string, string | undefined>>;

export interface RouterBinary {
  readonly path: string;
  readonly version: string;
}

export interface FindRouterOptions {
  /** Default: `process.env`. */
  readonly env?: RouterEnv;
  /** How long `<bin> --version` may take. Default: 10 s. */
  readonly timeoutMs?: number;
}

/** `${XDG_CACHE_HOME ?? ~/.cache}/apollo-router/<version>`: the `cargo install --root` of that version. */
export function routerCacheDir(version: string = ROUTER_VERSION, env: RouterEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'apollo-router', version);
}

/** Where the cached binary of `version` lives: `<routerCacheDir>/bin/router`. */
export function routerCachedBinary(version: string = ROUTER_VERSION, env: RouterEnv = process.env): string {
  return join(routerCacheDir(version, env), 'bin', process.platform === 'win32' ? 'router.exe' : 'router');
}

const VERSION_LINE = /^(?:apollo[- ]router\s+|router\s+)?v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/i;

/**
 * The version in `router --version` output (`2.17.0`; older builds print `router 1.61.0`),
 * or null. Log lines the Router may print first (JSON, e.g. a RUST_BACKTRACE warning) are skipped.
 */
export function parseRouterVersion(output: string): string | null {
  for (const line of output.split(/\r?\n/)) {
    const match = VERSION_LINE.exec(line.trim());
    if (match?.[1]) return match[1];
  }
  return null;
}

/** True when `path` is a regular file this process may execute. */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable `name` in `env.PATH`, like `command -v`; null when there is none. */
export async function findOnPath(name: string, env: RouterEnv = process.env): Promise<string | null> {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (await isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/** Runs `<path> --version`; resolves to the version, or null when it fails, hangs or prints none. */
export function readRouterVersion(path: string, options: FindRouterOptions = {}): Promise<string | null> {
  const { RUST_BACKTRACE: _ignored, ...env } = options.env ?? process.env;
  return new Promise((resolve) => {
    execFile(
      path,
      ['--version'],
      {
        timeout: options.timeoutMs ?? 10_000,
        // RUST_BACKTRACE makes the Router print a warning first; telemetry off for a version check.
        env: { ...env, APOLLO_TELEMETRY_DISABLED: 'true' },
        maxBuffer: 64 * 1024,
      },
      (error, stdout, stderr) => resolve(error ? null : parseRouterVersion(`${stdout}\n${stderr}`)),
    );
  });
}

async function verified(path: string, options: FindRouterOptions): Promise<RouterBinary | null> {
  if (!(await isExecutableFile(path))) return null;
  const version = await readRouterVersion(path, options);
  return version ? { path, version } : null;
}

/**
 * The Apollo Router to benchmark, or null when none is installed (Router rows then say
 * "not installed — run pnpm router:install"). See the module comment for the lookup order.
 */
export async function findRouterBinary(options: FindRouterOptions = {}): Promise<RouterBinary | null> {
  const env = options.env ?? process.env;
  const explicit = env.APOLLO_ROUTER_BIN;
  if (explicit) return verified(explicit, options);

  const onPath = await findOnPath('router', env);
  // A `router` on PATH that is not Apollo Router (no version answer) does not hide the cache.
  const fromPath = onPath ? await verified(onPath, options) : null;
  if (fromPath) return fromPath;

  return verified(routerCachedBinary(ROUTER_VERSION, env), options);
}

// ---------------------------------------------------------------------------------------------
// How to launch it: the same files and variables for the harness, the tests and docker-compose.

/** The Router configurations in `bench/router/`, relative to the repository root. */
export const ROUTER_CONFIGS = {
  /** Same rules as our gateway in production mode (CSRF, no introspection, masked subgraph errors). */
  base: 'bench/router/router.yaml',
  /** `base` + a `source: gateway` header on every subgraph request (seed §C). */
  'static-header': 'bench/router/router-static-header.yaml',
  /** `base` + a Rhai script adding response headers x-trace-1 … x-trace-10, fresh UUIDs (seed §C). */
  'guid-headers': 'bench/router/router-guid-headers.yaml',
  /** `base` + `traffic_shaping.all.deduplicate_query: true` (§A, §F "· dedup"). */
  dedup: 'bench/router/router-dedup.yaml',
} as const;
export type RouterConfigName = keyof typeof ROUTER_CONFIGS;

/** The Rhai scripts' directory, relative to the repository root (`ROUTER_RHAI_DIR`). */
export const ROUTER_RHAI_DIR = 'bench/router/rhai';

/** The subgraphs whose URLs the configs take from `SUBGRAPH_<NAME>_URL` (`override_subgraph_url`). */
export const ROUTER_SUBGRAPHS = ['users', 'products', 'reviews'] as const;

export interface RouterLaunchOptions {
  /** GraphQL listen address, `host:port` (`ROUTER_LISTEN`; default in the config 127.0.0.1:4000). */
  readonly listen: string;
  /** Health check listen address (`ROUTER_HEALTH_LISTEN`; default 127.0.0.1:8088). Serves GET /health. */
  readonly healthListen: string;
  /** Subgraph name → URL; names missing here keep the config's default (127.0.0.1:4001-4003). */
  readonly subgraphUrls?: Readonly<Partial<Record<(typeof ROUTER_SUBGRAPHS)[number], string>>>;
  /** Absolute path of the repository root, to resolve ROUTER_RHAI_DIR. */
  readonly repoRoot: string;
}

/** The environment variables the configs in `bench/router/` read (see `router.yaml`). */
export function routerEnv(options: RouterLaunchOptions): Record<string, string> {
  const env: Record<string, string> = {
    APOLLO_TELEMETRY_DISABLED: 'true',
    ROUTER_LISTEN: options.listen,
    ROUTER_HEALTH_LISTEN: options.healthListen,
    ROUTER_RHAI_DIR: join(options.repoRoot, ROUTER_RHAI_DIR),
  };
  for (const [name, url] of Object.entries(options.subgraphUrls ?? {})) {
    if (!(ROUTER_SUBGRAPHS as readonly string[]).includes(name)) {
      throw new Error(`routerEnv: unknown subgraph "${name}" (the Router configs know ${ROUTER_SUBGRAPHS.join(', ')})`);
    }
    if (url) env[`SUBGRAPH_${name.toUpperCase()}_URL`] = url;
  }
  return env;
}

/** Command-line arguments: supergraph and config (absolute or relative to the cwd), warnings only. */
export function routerArgs(supergraphPath: string, configPath: string, logLevel = 'warn'): string[] {
  return ['--supergraph', supergraphPath, '--config', configPath, '--log', logLevel];
}
