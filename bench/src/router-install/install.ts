import { mkdir, stat } from 'node:fs/promises';
import {
  findRouterBinary,
  ROUTER_VERSION,
  type RouterBinary,
  type RouterEnv,
  readRouterVersion,
  routerCacheDir,
  routerCachedBinary,
} from '../targets/router-binary.js';
import { cargoInstall, cargoInstallArgs } from './cargo-build.js';
import { downloadOfficialRouter } from './download.js';
import type { Log } from './log.js';
import { findBuildTools, missingBuildToolsMessage } from './tools.js';

export interface InstallOptions {
  readonly env: RouterEnv;
  readonly download: boolean;
  readonly log: Log;
  readonly error: Log;
}

/**
 * The whole `router:install` flow: a Router already there, else the official download
 * (unless `download` is false), else `cargo install`. Resolves to the process exit code.
 */
export async function installRouter({ env, download, log, error }: InstallOptions): Promise<number> {
  const found = await findRouterBinary({ env });
  if (found) {
    report(found, log);
    return 0;
  }
  if (env.APOLLO_ROUTER_BIN) {
    error(
      `APOLLO_ROUTER_BIN=${env.APOLLO_ROUTER_BIN} is not an executable Apollo Router (\`--version\` gave no version). ` +
        'Fix or unset it; nothing was installed.',
    );
    return 1;
  }
  const cacheDir = routerCacheDir(ROUTER_VERSION, env);
  log(`No Apollo Router found (APOLLO_ROUTER_BIN unset, no \`router\` on PATH, nothing in ${cacheDir}).`);

  if (download) {
    const downloaded = await downloadOfficialRouter(ROUTER_VERSION, env, log);
    if (downloaded) return verifyInstalled(downloaded, env, log, error);
  } else {
    log('Skipping the official download (--no-download).');
  }

  const tools = await findBuildTools(env);
  const missing = missingBuildToolsMessage(tools);
  if (missing || !tools.cargo) {
    error(missing ?? 'cargo not found');
    return 1;
  }
  log(
    [
      `Building Apollo Router ${ROUTER_VERSION} from crates.io:`,
      `  ${tools.cargo} ${cargoInstallArgs(ROUTER_VERSION, cacheDir).join(' ')}`,
      '  This takes about 20 minutes on 2 cores (measured: 2.17.0 in ~18 min) and gives an 89 MB binary,',
      `  cached in ${cacheDir} (outside the repository). Several hundred crates are compiled; progress follows.`,
    ].join('\n'),
  );
  await mkdir(cacheDir, { recursive: true });
  const { code, tail } = await cargoInstall(tools.cargo, ROUTER_VERSION, cacheDir, env, log);
  if (code !== 0) {
    error(`cargo install failed (exit ${code}). Its last lines:\n${tail.join('\n')}`);
    return 1;
  }
  return verifyInstalled(routerCachedBinary(ROUTER_VERSION, env), env, log, error);
}

async function verifyInstalled(path: string, env: RouterEnv, log: Log, error: Log): Promise<number> {
  const version = await readRouterVersion(path, { env });
  if (version !== ROUTER_VERSION) {
    error(`${path} was installed but \`--version\` answered ${version ?? 'nothing'}, not ${ROUTER_VERSION}.`);
    return 1;
  }
  const { size } = await stat(path);
  log(`Installed Apollo Router ${version} (${Math.round(size / 1e6)} MB): ${path}`);
  return 0;
}

function report(found: RouterBinary, log: Log): void {
  log(`Apollo Router ${found.version} found: ${found.path}`);
  if (found.version !== ROUTER_VERSION) {
    log(
      `Note: the benchmark is pinned to ${ROUTER_VERSION} (bench/router/*.yaml, docker-compose.yml); ` +
        `results will record ${found.version}.`,
    );
  }
}
