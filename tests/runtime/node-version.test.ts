// The project runs on Node 24 (root devDependency `node`, whose binary pnpm puts first on PATH for
// every script), whatever node the machine has: this fails if a test worker, or a child started the
// way the tests and bench start them (process.execPath), is on another version.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { REQUIRED_NODE_MAJOR } from '@fedgw/gateway/node-version';
import { ROOT } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// .ci/run also runs the suite on the next LTS line and says which (EXPECTED_NODE_VERSION).
const pinned =
  process.env.EXPECTED_NODE_VERSION ??
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies.node as string);

describe('runtime', () => {
  it('test workers run on the pinned Node', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('children started with process.execPath run on the same Node', () => {
    const version = execFileSync(process.execPath, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${pinned}`);
  });

  // Only under a pnpm script (`pnpm test`): an editor running vitest directly may not put
  // node_modules/.bin on the PATH.
  it.runIf(process.env.npm_lifecycle_event)('`node` on the PATH of pnpm scripts is the pinned one', () => {
    const version = execFileSync('node', ['-p', 'process.version'], { encoding: 'utf8' }).trim();
    expect(version).toBe(`v${pinned}`);
  });
});

// A Node older than `engines` outside node_modules (the machine's own), to run an entry point
// the way a newcomer does: `node server/dist/main.js` with whatever `node` their shell finds.
function olderNode(): { path: string; version: string } | undefined {
  const candidates = new Set(['/usr/local/bin/node', '/usr/bin/node', '/bin/node']);
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir.includes('node_modules')) candidates.add(join(dir, 'node'));
  }
  for (const path of candidates) {
    if (!existsSync(path)) continue;
    try {
      const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (Number(version.split('.')[0]) < REQUIRED_NODE_MAJOR) return { path, version };
    } catch {}
  }
  return undefined;
}

describe('an older Node', () => {
  it('the version the entry points check is the one package.json `engines` names', () => {
    const engines = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node as string;
    expect(engines).toBe(`>=${REQUIRED_NODE_MAJOR}`);
  });

  const older = olderNode();
  if (!older) console.warn('node-version.test: no Node older than engines outside node_modules; skipping');
  // Each entry point a user runs directly, with the command the message suggests.
  it.runIf(older).each([
    ['server/dist/main.js', 'npx --yes pnpm@10.34.9 start'],
    ['bench/dist/cli.js', 'npx --yes pnpm@10.34.9 bench'],
    ['bench/dist/soak-cli.js', 'npx --yes pnpm@10.34.9 bench:soak'],
    ['bench/dist/profile-cli.js', 'npx --yes pnpm@10.34.9 bench:profile'],
    ['bench/dist/readme-cli.js', 'npx --yes pnpm@10.34.9 bench:readme'],
  ])('`node %s` says in one line what is wrong and exits 1', (entry, command) => {
    const { path, version } = older as { path: string; version: string };
    const run = spawnSync(path, [entry, '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', GATEWAY_LISTEN_PORT: '0', SUPERGRAPH_PATH: 'supergraph.graphql' },
      timeout: 20_000,
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${entry} needs Node.js >= ${REQUIRED_NODE_MAJOR}`);
    expect(lines[0]).toContain(`Node.js ${version}`);
    expect(lines[0]).toContain(command);
    // The real binary: node_modules/.bin/node is a shell shim that drops SIGTERM and orphans the gateway.
    expect(lines[0]).toContain(`(or node_modules/node/bin/node ${entry})`);
  });
});
