/**
 * `pnpm router:install`: obtain the pinned Apollo Router binary for the benchmark.
 *
 * 1. Already there (`APOLLO_ROUTER_BIN`, `router` on PATH, or the cache): say where, exit 0.
 * 2. Else Apollo's published release tarball (GitHub release assets), checked against the
 *    release's sha256sums.txt, with short timeouts (no internet: fail fast, move on).
 * 3. Else `cargo install apollo-router --locked --version <pinned> --root <cache dir>`: needs
 *    cargo and protoc, takes about 20 minutes on 2 cores, gives an 89 MB binary; progress is
 *    shown as cargo's "Compiling <crate>" lines with a count.
 *
 * Flags: `--no-download` skips step 2.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import {
  findOnPath,
  findRouterBinary,
  isExecutableFile,
  ROUTER_VERSION,
  type RouterBinary,
  type RouterEnv,
  readRouterVersion,
  routerCacheDir,
  routerCachedBinary,
} from './router-binary.js';

/** Time to get the download's response headers; no internet should fail here, fast. */
export const DOWNLOAD_CONNECT_TIMEOUT_MS = 15_000;
/** Time for the whole tarball (about 40 MB). */
export const DOWNLOAD_TOTAL_TIMEOUT_MS = 5 * 60_000;

type Log = (line: string) => void;

export interface BuildTools {
  readonly cargo: string | null;
  readonly protoc: string | null;
}

/**
 * cargo and protoc as the build would find them: on PATH (cargo also in `$CARGO_HOME/bin`,
 * where rustup puts it; protoc also as `$PROTOC`, which prost-build honours).
 */
export async function findBuildTools(env: RouterEnv): Promise<BuildTools> {
  let cargo = await findOnPath('cargo', env);
  if (!cargo) {
    const cargoHome = env.CARGO_HOME || (env.HOME ? join(env.HOME, '.cargo') : null);
    const candidate = cargoHome ? join(cargoHome, 'bin', 'cargo') : null;
    if (candidate && (await isExecutableFile(candidate))) cargo = candidate;
  }
  let protoc = env.PROTOC && (await isExecutableFile(env.PROTOC)) ? env.PROTOC : null;
  protoc ??= await findOnPath('protoc', env);
  return { cargo, protoc };
}

/** What to install when a build tool is missing; null when both are there. */
export function missingBuildToolsMessage(tools: BuildTools): string | null {
  const lines: string[] = [];
  if (!tools.cargo) {
    lines.push(
      '  - cargo (Rust) was not found on PATH or in ~/.cargo/bin. Install Rust with rustup:',
      "      curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh   (see https://rustup.rs)",
    );
  }
  if (!tools.protoc) {
    lines.push(
      '  - protoc (the Protocol Buffers compiler, needed by the Router build) was not found on PATH.',
      '      Debian/Ubuntu: sudo apt-get install protobuf-compiler',
      '      macOS: brew install protobuf',
    );
  }
  if (lines.length === 0) return null;
  return [
    `Cannot build Apollo Router ${ROUTER_VERSION} from source: missing build tools.`,
    ...lines,
    'Or install a Router binary yourself and point APOLLO_ROUTER_BIN at it.',
  ].join('\n');
}

/** The release asset for this platform (`router-v2.17.0-x86_64-unknown-linux-gnu.tar.gz`), or null. */
export function releaseAssetName(
  version: string,
  platform: NodeJS.Platform = process.platform,
  arch: string = process.arch,
): string | null {
  const targets: Record<string, string> = {
    'linux-x64': 'x86_64-unknown-linux-gnu',
    'linux-arm64': 'aarch64-unknown-linux-gnu',
    'darwin-x64': 'x86_64-apple-darwin',
    'darwin-arm64': 'aarch64-apple-darwin',
    'win32-x64': 'x86_64-pc-windows-msvc',
  };
  const target = targets[`${platform}-${arch}`];
  return target ? `router-v${version}-${target}.tar.gz` : null;
}

const releaseBase = (version: string) => `https://github.com/apollographql/router/releases/download/v${version}`;

async function fetchWithTimeouts(url: string): Promise<Response> {
  const total = AbortSignal.timeout(DOWNLOAD_TOTAL_TIMEOUT_MS);
  const connect = new AbortController();
  const timer = setTimeout(
    () => connect.abort(new Error(`no answer in ${DOWNLOAD_CONNECT_TIMEOUT_MS / 1000} s`)),
    DOWNLOAD_CONNECT_TIMEOUT_MS,
  );
  try {
    return await fetch(url, { signal: AbortSignal.any([total, connect.signal]), redirect: 'follow' });
  } finally {
    clearTimeout(timer);
  }
}

async function findFile(dir: string, name: string): Promise<string | null> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isFile() && entry.name === name) return path;
    if (entry.isDirectory()) {
      const found = await findFile(path, name);
      if (found) return found;
    }
  }
  return null;
}

function run(file: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, args, (error) => (error ? reject(error) : resolve()));
  });
}

/**
 * Downloads Apollo's published release tarball of `version` into `<cacheDir>/bin/router`
 * and uses it only if the release's sha256sums.txt lists it with the same digest (no
 * sums file, or another digest, and the tarball is refused).
 * Resolves to the binary's path, or null with the reason logged.
 */
export async function downloadOfficialRouter(version: string, env: RouterEnv, log: Log): Promise<string | null> {
  const asset = releaseAssetName(version);
  if (!asset) {
    log(`No official Router build for ${process.platform}-${process.arch}.`);
    return null;
  }
  const url = `${releaseBase(version)}/${asset}`;
  log(`Trying the official download (${DOWNLOAD_CONNECT_TIMEOUT_MS / 1000} s timeout): ${url}`);
  const work = await mkdtemp(join(tmpdir(), 'apollo-router-'));
  try {
    const response = await fetchWithTimeouts(url);
    if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
    const tarball = join(work, asset);
    const hash = createHash('sha256');
    const body = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(body, createWriteStream(tarball));
    const digest = hash.digest('hex');

    // Apollo publishes sha256sums.txt with every release; a tarball it does not vouch for is not used.
    const sums = await fetchWithTimeouts(`${releaseBase(version)}/sha256sums.txt`);
    if (!sums.ok) throw new Error(`sha256sums.txt: HTTP ${sums.status}`);
    const expected = (await sums.text())
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find(([, name]) => name?.replace(/^\*/, '').endsWith(asset))?.[0];
    if (!expected) throw new Error(`sha256sums.txt lists no ${asset}`);
    if (expected !== digest) throw new Error(`checksum mismatch: expected ${expected}, got ${digest}`);
    log('Checksum matches the release sha256sums.txt.');

    await run('tar', ['-xzf', tarball, '-C', work]);
    const extracted = await findFile(work, process.platform === 'win32' ? 'router.exe' : 'router');
    if (!extracted) throw new Error('the tarball has no router binary');
    const target = routerCachedBinary(version, env);
    await mkdir(dirname(target), { recursive: true });
    await chmod(extracted, 0o755);
    // Copy next to the target, then rename: the tmp dir may be on another filesystem, and a
    // half-copied file must never sit where findRouterBinary looks.
    const staged = `${target}.download`;
    await copyFile(extracted, staged);
    await chmod(staged, 0o755);
    await rename(staged, target);
    return target;
  } catch (error) {
    const reason =
      error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : error;
    log(`Official download failed (${String(reason)}); falling back to building from source.`);
    return null;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** `cargo install` arguments for the pinned Router into `root` (the binary lands in `<root>/bin`). */
export function cargoInstallArgs(version: string, root: string): string[] {
  return ['install', 'apollo-router', '--locked', '--version', version, '--root', root];
}

const formatElapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
};

/**
 * Turns cargo's stderr into progress lines: each `Compiling <crate>` with a running count and
 * the elapsed time; per-crate `Downloaded` lines are dropped (cargo prints a total).
 */
export function cargoProgress(now: () => number = Date.now): (line: string) => string | null {
  const start = now();
  let compiled = 0;
  return (line) => {
    const trimmed = line.trim();
    if (!trimmed || /^Downloaded \S+ v/.test(trimmed)) return null;
    if (trimmed.startsWith('Compiling ')) {
      compiled += 1;
      return `[${String(compiled).padStart(3)} crates, ${formatElapsed(now() - start)}] ${trimmed}`;
    }
    return trimmed;
  };
}

/** Runs `cargo install` with progress on `log`; resolves to cargo's exit code and its last lines. */
export function cargoInstall(
  cargo: string,
  version: string,
  root: string,
  env: RouterEnv,
  log: Log,
): Promise<{ code: number; tail: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cargo, cargoInstallArgs(version, root), {
      env: { ...env, CARGO_TERM_COLOR: 'never', CARGO_TERM_PROGRESS_WHEN: 'never' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const progress = cargoProgress();
    const tail: string[] = [];
    const onLine = (line: string) => {
      tail.push(line);
      if (tail.length > 40) tail.shift();
      const shown = progress(line);
      if (shown) log(shown);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 128 : 1), tail }));
  });
}

export interface InstallOptions {
  readonly env: RouterEnv;
  readonly download: boolean;
  readonly log: Log;
  readonly error: Log;
}

/** The whole `router:install` flow; resolves to the process exit code. */
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
