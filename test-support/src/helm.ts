import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

// Helm, for the chart's tests (tests/deploy/helm-chart.test.ts) and `pnpm helm:install`. No
// binary download: the Go module proxy is the registry we have, so `go install` builds the pinned
// release into a cache outside the repository (like the Apollo Router's, bench/src/targets/router-binary.ts).

/** The Helm release the chart is linted and rendered with. */
export const HELM_VERSION = '3.22.0';

/**
 * The Kubernetes version the official v3.22.0 binary assumes when there is no cluster (its
 * Makefile derives it from client-go v0.37.0 through ldflags, which a plain `go install` lacks:
 * without them `helm template` would assume 1.20).
 */
export const HELM_DEFAULT_KUBERNETES = { major: '1', minor: '37' } as const;

export type HelmEnv = Readonly<Record<string, string | undefined>>;

/** `${XDG_CACHE_HOME ?? ~/.cache}/fedgw-helm/v<version>`, the GOBIN's parent. */
export function helmCacheDir(env: HelmEnv = process.env): string {
  const cacheHome = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(cacheHome, 'fedgw-helm', `v${HELM_VERSION}`);
}

export function helmCachedBinary(env: HelmEnv = process.env): string {
  return join(helmCacheDir(env), 'bin', 'helm');
}

/** The `go install` that builds the release as its Makefile does (same version and Kubernetes defaults). */
export function helmInstallArgs(): string[] {
  const { major, minor } = HELM_DEFAULT_KUBERNETES;
  const ldflags = [
    '-w -s',
    `-X helm.sh/helm/v3/internal/version.version=v${HELM_VERSION}`,
    ...['pkg/lint/rules', 'pkg/chartutil'].flatMap((pkg) => [
      `-X helm.sh/helm/v3/${pkg}.k8sVersionMajor=${major}`,
      `-X helm.sh/helm/v3/${pkg}.k8sVersionMinor=${minor}`,
    ]),
  ].join(' ');
  return ['install', '-ldflags', ldflags, `helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}`];
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * HELM_BIN when set (the only answer: set to a missing path it means "no helm"), else the cached
 * build. Not `helm` on PATH: another release may render differently (set HELM_BIN to use it).
 */
export function findHelm(env: HelmEnv = process.env): string | undefined {
  if (env.HELM_BIN) return executable(env.HELM_BIN) ? env.HELM_BIN : undefined;
  const cached = helmCachedBinary(env);
  return executable(cached) ? cached : undefined;
}
