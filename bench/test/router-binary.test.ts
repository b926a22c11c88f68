import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cargoInstallArgs, cargoProgress } from '../src/router-install/cargo-build.js';
import { releaseAssetName } from '../src/router-install/download.js';
import { installRouter } from '../src/router-install/install.js';
import { findBuildTools, missingBuildToolsMessage } from '../src/router-install/tools.js';
import {
  findRouterBinary,
  parseRouterVersion,
  ROUTER_VERSION,
  routerArgs,
  routerCacheDir,
  routerCachedBinary,
  routerEnv,
} from '../src/targets/router-binary.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'router-binary-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** An executable shell script (only /bin/sh and builtins: tests run it with a bare PATH). */
async function script(path: string, body: string): Promise<string> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}
const fakeRouter = (path: string, output = ROUTER_VERSION) => script(path, `echo '${output}'`);

describe('parseRouterVersion', () => {
  it.each([
    ['2.17.0\n', '2.17.0'],
    ['router 1.61.0\n', '1.61.0'],
    ['Apollo Router v2.18.0-rc.1', '2.18.0-rc.1'],
    ['{"level":"WARN","message":"RUST_BACKTRACE=1 detected"}\n2.17.0\n', '2.17.0'],
  ])('%j → %s', (output, version) => {
    expect(parseRouterVersion(output)).toBe(version);
  });

  it.each(['', 'usage: router [options]', '{"timestamp":"2026-11-22T02:27:19Z"}'])('%j → null', (output) => {
    expect(parseRouterVersion(output)).toBeNull();
  });
});

describe('routerCacheDir', () => {
  it('is $XDG_CACHE_HOME/apollo-router/<version>, else ~/.cache/apollo-router/<version>', () => {
    expect(routerCacheDir('2.17.0', { XDG_CACHE_HOME: '/x/cache', HOME: '/home/u' })).toBe(
      '/x/cache/apollo-router/2.17.0',
    );
    expect(routerCacheDir('2.17.0', { HOME: '/home/u' })).toBe('/home/u/.cache/apollo-router/2.17.0');
    expect(routerCachedBinary('2.17.0', { HOME: '/home/u' })).toBe('/home/u/.cache/apollo-router/2.17.0/bin/router');
  });
});

describe('findRouterBinary', () => {
  const env = (extra: Record<string, string> = {}) => ({ HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), ...extra });

  it('finds nothing when nothing is installed', async () => {
    expect(await findRouterBinary({ env: env({ PATH: join(dir, 'empty') }) })).toBeNull();
  });

  it('uses APOLLO_ROUTER_BIN first, and its version', async () => {
    const bin = await fakeRouter(join(dir, 'custom', 'router'), '2.16.1');
    await fakeRouter(join(dir, 'path', 'router'));
    const found = await findRouterBinary({ env: env({ APOLLO_ROUTER_BIN: bin, PATH: join(dir, 'path') }) });
    expect(found).toEqual({ path: bin, version: '2.16.1' });
  });

  it('answers null for an APOLLO_ROUTER_BIN that is missing or not executable, without falling through', async () => {
    await fakeRouter(join(dir, 'path', 'router'));
    await fakeRouter(routerCachedBinary(ROUTER_VERSION, env()));
    const notExecutable = join(dir, 'plain-file');
    await writeFile(notExecutable, 'echo 2.17.0');
    for (const bin of [join(dir, 'missing'), notExecutable]) {
      expect(await findRouterBinary({ env: env({ APOLLO_ROUTER_BIN: bin, PATH: join(dir, 'path') }) })).toBeNull();
    }
  });

  it('finds `router` on PATH before the cache', async () => {
    const onPath = await fakeRouter(join(dir, 'path', 'router'));
    await fakeRouter(routerCachedBinary(ROUTER_VERSION, env()));
    expect(await findRouterBinary({ env: env({ PATH: `${join(dir, 'nothing')}:${join(dir, 'path')}` }) })).toEqual({
      path: onPath,
      version: ROUTER_VERSION,
    });
  });

  it('skips a `router` on PATH that is not Apollo Router and finds the cache', async () => {
    await script(join(dir, 'path', 'router'), 'echo "usage: router <config>"; exit 1');
    const cached = await fakeRouter(routerCachedBinary(ROUTER_VERSION, env()));
    expect(await findRouterBinary({ env: env({ PATH: join(dir, 'path') }) })).toEqual({
      path: cached,
      version: ROUTER_VERSION,
    });
  });

  it('gives up on a binary whose --version hangs', async () => {
    const bin = await script(join(dir, 'hang', 'router'), 'while :; do :; done');
    expect(await findRouterBinary({ env: env({ APOLLO_ROUTER_BIN: bin }), timeoutMs: 300 })).toBeNull();
  });
});

describe('launch helpers', () => {
  it('routerEnv maps the options onto the variables bench/router/*.yaml read', () => {
    expect(
      routerEnv({
        listen: '127.0.0.1:5000',
        healthListen: '127.0.0.1:5001',
        repoRoot: '/repo',
        subgraphUrls: { users: 'http://127.0.0.1:6001/graphql' },
      }),
    ).toEqual({
      APOLLO_TELEMETRY_DISABLED: 'true',
      ROUTER_LISTEN: '127.0.0.1:5000',
      ROUTER_HEALTH_LISTEN: '127.0.0.1:5001',
      ROUTER_RHAI_DIR: '/repo/bench/router/rhai',
      SUBGRAPH_USERS_URL: 'http://127.0.0.1:6001/graphql',
    });
    expect(routerArgs('/s.graphql', '/c.yaml')).toEqual([
      '--supergraph',
      '/s.graphql',
      '--config',
      '/c.yaml',
      '--log',
      'warn',
    ]);
  });

  it('routerEnv rejects a subgraph the configs do not know', () => {
    expect(() =>
      routerEnv({
        listen: 'a:1',
        healthListen: 'a:2',
        repoRoot: '/',
        subgraphUrls: { inventory: 'http://x' } as never,
      }),
    ).toThrow(/unknown subgraph "inventory"/);
  });
});

describe('router:install', () => {
  const quiet = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, log: (l: string) => out.push(l), error: (l: string) => err.push(l) };
  };

  it('names the release asset per platform', () => {
    expect(releaseAssetName('2.17.0', 'linux', 'x64')).toBe('router-v2.17.0-x86_64-unknown-linux-gnu.tar.gz');
    expect(releaseAssetName('2.17.0', 'darwin', 'arm64')).toBe('router-v2.17.0-aarch64-apple-darwin.tar.gz');
    expect(releaseAssetName('2.17.0', 'freebsd', 'x64')).toBeNull();
  });

  it('builds the pinned version with --locked into the cache dir', () => {
    expect(cargoInstallArgs('2.17.0', '/c/apollo-router/2.17.0')).toEqual([
      'install',
      'apollo-router',
      '--locked',
      '--version',
      '2.17.0',
      '--root',
      '/c/apollo-router/2.17.0',
    ]);
  });

  it('counts cargo "Compiling" lines with the elapsed time and drops per-crate downloads', () => {
    let now = 0;
    const progress = cargoProgress(() => now);
    expect(progress('  Downloaded serde v1.0.219')).toBeNull();
    expect(progress('   Compiling proc-macro2 v1.0.95')).toBe('[  1 crates, 0m00s] Compiling proc-macro2 v1.0.95');
    now = 65_000;
    expect(progress('   Compiling serde v1.0.219')).toBe('[  2 crates, 1m05s] Compiling serde v1.0.219');
    expect(progress('    Finished `release` profile [optimized] target(s) in 18m 02s')).toBe(
      'Finished `release` profile [optimized] target(s) in 18m 02s',
    );
  });

  it('reports a missing protoc with the Debian package, and a missing cargo with rustup', async () => {
    await script(join(dir, 'bin', 'cargo'), 'exit 0');
    const onlyCargo = await findBuildTools({ PATH: join(dir, 'bin'), HOME: dir });
    expect(onlyCargo).toEqual({ cargo: join(dir, 'bin', 'cargo'), protoc: null });
    const message = missingBuildToolsMessage(onlyCargo);
    expect(message).toMatch(/protoc/);
    expect(message).toMatch(/apt-get install protobuf-compiler/);
    expect(message).not.toMatch(/rustup/);

    const neither = await findBuildTools({ PATH: join(dir, 'empty'), HOME: dir });
    expect(neither).toEqual({ cargo: null, protoc: null });
    expect(missingBuildToolsMessage(neither)).toMatch(/rustup[\s\S]*protobuf-compiler/);
  });

  it('finds cargo in $CARGO_HOME/bin (rustup) and protoc through $PROTOC even off PATH', async () => {
    const cargo = await script(join(dir, 'cargo-home', 'bin', 'cargo'), 'exit 0');
    const protoc = await script(join(dir, 'tools', 'protoc'), 'exit 0');
    const tools = await findBuildTools({
      PATH: join(dir, 'empty'),
      CARGO_HOME: join(dir, 'cargo-home'),
      PROTOC: protoc,
    });
    expect(tools).toEqual({ cargo, protoc });
    expect(missingBuildToolsMessage(tools)).toBeNull();
  });

  it('exits 0 and installs nothing when a Router is already there', async () => {
    const bin = await fakeRouter(join(dir, 'router'));
    const io = quiet();
    expect(await installRouter({ env: { APOLLO_ROUTER_BIN: bin, HOME: dir }, download: false, ...io })).toBe(0);
    expect(io.out).toEqual([`Apollo Router ${ROUTER_VERSION} found: ${bin}`]);
  });

  it('refuses to install over a broken APOLLO_ROUTER_BIN', async () => {
    const io = quiet();
    const env = { APOLLO_ROUTER_BIN: join(dir, 'nope'), HOME: dir, PATH: join(dir, 'empty') };
    expect(await installRouter({ env, download: false, ...io })).toBe(1);
    expect(io.err.join('\n')).toMatch(/APOLLO_ROUTER_BIN=.*nope is not an executable Apollo Router/);
  });

  it('stops before cargo when protoc is missing, naming protobuf-compiler', async () => {
    await script(join(dir, 'bin', 'cargo'), 'echo "cargo must not run" >&2; exit 99');
    const io = quiet();
    const env = { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), PATH: join(dir, 'bin') };
    expect(await installRouter({ env, download: false, ...io })).toBe(1);
    expect(io.err.join('\n')).toMatch(/protoc[\s\S]*apt-get install protobuf-compiler/);
    expect(io.out.join('\n')).not.toMatch(/cargo must not run/);
  });

  it('runs cargo install, shows numbered progress and verifies the installed binary', async () => {
    // A stand-in for cargo: prints what cargo prints, then writes <root>/bin/router.
    await script(
      join(dir, 'bin', 'cargo'),
      [
        'root="$7"',
        'echo "    Updating crates.io index" >&2',
        'echo "  Downloaded serde v1.0.219" >&2',
        'echo "   Compiling proc-macro2 v1.0.95" >&2',
        'echo "   Compiling apollo-router v2.17.0" >&2',
        '/bin/mkdir -p "$root/bin"',
        `printf '#!/bin/sh\\necho ${ROUTER_VERSION}\\n' > "$root/bin/router"`,
        '/bin/chmod 755 "$root/bin/router"',
        'echo "  Installed package \\`apollo-router v2.17.0\\`" >&2',
      ].join('\n'),
    );
    await script(join(dir, 'bin', 'protoc'), 'exit 0');
    const io = quiet();
    const env = { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), PATH: join(dir, 'bin') };
    expect(await installRouter({ env, download: false, ...io })).toBe(0);
    const out = io.out.join('\n');
    expect(out).toMatch(/about 20 minutes on 2 cores.*89 MB/);
    expect(out).toMatch(/\[ {2}1 crates, \dm\d\ds\] Compiling proc-macro2/);
    expect(out).toMatch(/\[ {2}2 crates, \dm\d\ds\] Compiling apollo-router v2\.17\.0/);
    expect(out).not.toMatch(/Downloaded serde/);
    expect(out).toContain(`Installed Apollo Router ${ROUTER_VERSION}`);
    expect(io.err).toEqual([]);
    expect(await findRouterBinary({ env })).toEqual({
      path: routerCachedBinary(ROUTER_VERSION, env),
      version: '2.17.0',
    });
  });

  it('reports a failed cargo build with its last lines', async () => {
    await script(
      join(dir, 'bin', 'cargo'),
      "echo 'error: failed to run custom build command for prost-build' >&2; exit 101",
    );
    await script(join(dir, 'bin', 'protoc'), 'exit 0');
    const io = quiet();
    const env = { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache'), PATH: join(dir, 'bin') };
    expect(await installRouter({ env, download: false, ...io })).toBe(1);
    expect(io.err.join('\n')).toMatch(/cargo install failed \(exit 101\)[\s\S]*prost-build/);
  });
});
