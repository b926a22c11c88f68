// `pnpm helm:install`: the pinned Helm (test-support/src/helm.ts) for the chart's tests, built by
// `go install` from the Go module proxy into ~/.cache/fedgw-helm/v<version>/bin (no binary
// download: ADR 058). Nothing to do when HELM_BIN or the cached build already answers with the
// pinned version. Measured on the 2-core CI machine: 3.5–11 min (by load) with an empty Go cache (the modules
// are downloaded and compiled), ~20 s once Go's build cache holds them, 0 s once the binary is cached.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { findHelm, HELM_VERSION, helmCachedBinary, helmInstallArgs } from '../test-support/dist/index.js';

const wanted = `v${HELM_VERSION}`;

function versionOf(bin) {
  const result = spawnSync(bin, ['version', '--short'], { encoding: 'utf8', timeout: 30_000 });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

const found = findHelm();
if (found) {
  const version = versionOf(found);
  if (version?.startsWith(wanted)) {
    console.log(`helm ${version} is installed: ${found}`);
    process.exit(0);
  }
  if (process.env.HELM_BIN) {
    console.error(`HELM_BIN=${process.env.HELM_BIN} answers ${version ?? 'nothing'}, not ${wanted}: fix or unset it.`);
    process.exit(1);
  }
}

const bin = helmCachedBinary();
const go = spawnSync('go', ['version'], { encoding: 'utf8' });
if (go.status !== 0) {
  console.error(`helm ${wanted} is not in ${bin}, and building it needs Go (https://go.dev/dl/) on PATH.`);
  process.exit(1);
}
mkdirSync(dirname(bin), { recursive: true });
const args = helmInstallArgs();
console.log(`Building helm ${wanted} (${go.stdout.trim()}), into ${dirname(bin)}:`);
console.log(`  GOBIN=${dirname(bin)} go ${args.map((arg) => (arg.includes(' ') ? `'${arg}'` : arg)).join(' ')}`);
const started = Date.now();
const build = spawnSync('go', args, {
  stdio: 'inherit',
  env: { ...process.env, GOBIN: dirname(bin), GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local' },
});
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (build.status !== 0) {
  console.error(`go install failed after ${seconds} s (exit ${build.status ?? build.signal}).`);
  process.exit(1);
}
const version = versionOf(bin);
if (!version?.startsWith(wanted)) {
  console.error(`${bin} was built but answers ${version ?? 'nothing'}, not ${wanted}.`);
  process.exit(1);
}
console.log(`helm ${version} built in ${seconds} s: ${bin}`);
