/**
 * `pnpm router:install`: obtain the pinned Apollo Router binary for the benchmark.
 *
 * 1. Already there (`APOLLO_ROUTER_BIN`, `router` on PATH, or the cache): say where, exit 0.
 * 2. Else Apollo's published release tarball (GitHub release assets), used only if the
 *    release's sha256sums.txt lists it with the same digest, with short timeouts (no internet:
 *    fail fast, move on).
 * 3. Else `cargo install apollo-router --locked --version <pinned> --root <cache dir>`: needs
 *    cargo and protoc, takes about 20 minutes on 2 cores, gives an 89 MB binary; progress is
 *    shown as cargo's "Compiling <crate>" lines with a count.
 *
 * Flags: `--no-download` skips step 2.
 *
 * This file is only the command line; the pieces live in `router-install/`: `tools.ts` (cargo,
 * protoc, hints when missing), `download.ts` (release tarball + checksum), `cargo-build.ts`
 * (`cargo install` and its progress) and `install.ts` (the flow above).
 */
import { pathToFileURL } from 'node:url';
import { installRouter } from './router-install/install.js';
import { ROUTER_VERSION, type RouterEnv, routerCacheDir } from './targets/router-binary.js';

const help = (env: RouterEnv) => `pnpm router:install [--no-download]

Obtains Apollo Router ${ROUTER_VERSION} for the benchmark: uses APOLLO_ROUTER_BIN, \`router\` on PATH or
the cache (${routerCacheDir(ROUTER_VERSION, env)}) when one is there; else downloads the official release
binary; else builds it with \`cargo install\` (needs cargo and protoc; about 20 minutes on 2 cores).
  --no-download   skip the official download and go straight to cargo`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(help(process.env));
    return;
  }
  const unknown = args.filter((arg) => arg !== '--no-download');
  if (unknown.length > 0) {
    console.error(`router:install: unknown option(s) ${unknown.join(' ')} (known: --no-download, --help)`);
    process.exitCode = 2;
    return;
  }
  process.exitCode = await installRouter({
    env: process.env,
    download: !args.includes('--no-download'),
    log: (line) => console.log(line),
    error: (line) => console.error(line),
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
