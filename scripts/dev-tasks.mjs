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

/**
 * The environment `pnpm dev` runs its children with: development mode, and the development JWT
 * key when the jwt plugin is on and no key source was given (`GATEWAY_PLUGINS=jwt pnpm dev`,
 * then `pnpm token` for a signed-in request).
 */
export function devEnv(env) {
  const dev = { GATEWAY_ENV: 'development', ...env };
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
