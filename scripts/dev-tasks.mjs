// What `pnpm dev` (scripts/dev.mjs) runs, apart from how it runs them: tests start the gateway
// with these very arguments.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The gateway restarts when the build writes new output, and only then: `--watch-path` on the
 * compiled folders it runs from. Plain `--watch` follows every imported module, node_modules
 * included, and pnpm's hard-linked store changes whenever another project installs: restarts
 * in the middle of requests, for nothing of ours.
 */
export const GATEWAY_WATCH_ARGS = [
  '--watch-path=server/dist',
  '--watch-path=gateway/dist',
  '--watch-path=adapters/dist',
  'server/dist/main.js',
];

/**
 * The HS256 key `pnpm dev` verifies tokens with when the jwt plugin is on, and `pnpm token`
 * signs with. Public on purpose: it is in this repository, so it must never verify anything
 * outside development (`pnpm token` refuses there, and nothing but `pnpm dev` sets it).
 */
export const DEV_JWT_SECRET = 'fedgw-development-only-hs256-key-never-use-it-elsewhere';

/** Whether GATEWAY_PLUGINS turns the jwt plugin on (a name or a profile holding it). */
const enablesJwt = (plugins = '') => plugins.split(',').some((name) => /(^|\+)jwt(\+|$)|^full$/.test(name.trim()));

/** The gateway's port in `pnpm dev`; each subgraph's port in the catalog is this plus its offset (4001 → +1). */
export const DEV_GATEWAY_PORT = 4000;

/**
 * `DEV_PORT_BASE=5000 pnpm dev`: the gateway on 5000 and each subgraph of `subgraphs` (the
 * catalog, `subgraphs/src/catalog.ts`) at its port's offset from 4000 (users 5001, products 5002,
 * reviews 5003), the gateway sent to them by its per-subgraph URL overrides
 * (`SUBGRAPH_<NAME>_URL`) instead of supergraph.graphql's URLs. The variables it fills in
 * (`GATEWAY_LISTEN_PORT`, `<NAME>_PORT`, `SUBGRAPH_<NAME>_URL`); one set by hand wins, and a
 * subgraph's URL follows its port. Unset: nothing (4000–4003).
 */
export function devPorts(env, subgraphs) {
  const raw = env.DEV_PORT_BASE?.trim();
  if (!raw) return {};
  if (!subgraphs) throw new Error('DEV_PORT_BASE needs the subgraph catalog (devEnv(env, SUBGRAPHS))');
  const base = Number(raw);
  const highest = 65_535 - Math.max(...subgraphs.map(({ port }) => port - DEV_GATEWAY_PORT));
  if (!/^\d+$/.test(raw) || base < 1 || base > highest) {
    throw new Error(`DEV_PORT_BASE must be an integer from 1 to ${highest} (got "${env.DEV_PORT_BASE}")`);
  }
  const ports = { GATEWAY_LISTEN_PORT: env.GATEWAY_LISTEN_PORT ?? String(base) };
  for (const { name, port } of subgraphs) {
    const NAME = name.toUpperCase().replaceAll('-', '_');
    const own = env[`${NAME}_PORT`] ?? String(base + port - DEV_GATEWAY_PORT);
    ports[`${NAME}_PORT`] = own;
    ports[`SUBGRAPH_${NAME}_URL`] = env[`SUBGRAPH_${NAME}_URL`] ?? `http://127.0.0.1:${own}/graphql`;
  }
  return ports;
}

/**
 * The environment `pnpm dev` runs its children with: development mode, the ports of
 * `DEV_PORT_BASE` for the catalog's `subgraphs` (devPorts), and the development JWT key when the jwt plugin is on and no key
 * source was given (`GATEWAY_PLUGINS=jwt pnpm dev`, then `pnpm token` for a signed-in request).
 * Throws when `DEV_PORT_BASE` is not a port.
 */
export function devEnv(env, subgraphs) {
  const dev = { GATEWAY_ENV: 'development', ...env, ...devPorts(env, subgraphs) };
  const keyGiven = ['JWT_SECRET', 'JWT_JWKS_URL', 'JWT_JWKS_FILE'].some((name) => env[name] !== undefined);
  if (dev.GATEWAY_ENV === 'development' && enablesJwt(env.GATEWAY_PLUGINS) && !keyGiven) {
    dev.JWT_SECRET = DEV_JWT_SECRET;
    dev.JWT_ALGORITHMS ??= 'HS256';
  }
  return dev;
}

export const TASKS = [
  { name: 'tsc', args: [require.resolve('typescript/bin/tsc'), '-b', '--watch', '--preserveWatchOutput'] },
  { name: 'subgraphs', args: ['subgraphs/dist/run-all.js'] },
  { name: 'gateway', args: GATEWAY_WATCH_ARGS },
];
