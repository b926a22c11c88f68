import { readFileSync } from 'node:fs';
import { arch, loadavg, release, totalmem, type } from 'node:os';
import { repoPath } from '../paths.js';
import type { BenchEnvironment } from '../run/results.js';
import type { RouterBinary } from '../targets/router-binary.js';

/** Packages whose installed versions the results record, and the workspace package that depends on each. */
const PACKAGES: readonly (readonly [name: string, owner: string])[] = [
  ['@apollo/gateway', 'gateway'],
  ['@apollo/server', 'gateway'],
  ['@nestjs/core', 'gateway'],
  ['fastify', 'adapters'],
  ['express', 'adapters'],
  ['graphql', 'gateway'],
  ['undici', 'gateway'],
  ['autocannon', 'bench'],
  // The peer target's version (hive-gateway, hive-gateway-rust).
  ['@graphql-hive/gateway', 'bench'],
  ['@graphql-hive/router-runtime', 'bench'],
];

export interface EnvironmentInput {
  /** CPUs this process could use before it pinned itself (availableParallelism then). */
  readonly cores: number;
  readonly router: RouterBinary | null;
  readonly pinning: BenchEnvironment['pinning'];
  readonly notes: readonly string[];
}

/** The machine and software a run measured; read, never assumed. */
export function describeEnvironment(input: EnvironmentInput): BenchEnvironment {
  return {
    cpuModel: cpuModel(),
    cores: input.cores,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${osName()} (${type()} ${release()}, ${arch()})`,
    node: process.version,
    packages: installedVersions(),
    router: input.router ? { version: input.router.version, path: input.router.path } : null,
    pinning: input.pinning,
    notes: [...input.notes],
  };
}

/** Installed versions, read from each package's package.json as the workspace package resolves it. */
export function installedVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const [name, owner] of PACKAGES) {
    for (const dir of [repoPath(owner, 'node_modules', name), repoPath('node_modules', name)]) {
      const version = readVersion(`${dir}/package.json`);
      if (version) {
        versions[name] = version;
        break;
      }
    }
  }
  return versions;
}

function readVersion(path: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match?.[1]) return match[1].trim();
  } catch {
    // not Linux: fall through
  }
  return 'unknown';
}

function osName(): string {
  try {
    const match = /^PRETTY_NAME="?([^"\n]+)"?$/m.exec(readFileSync('/etc/os-release', 'utf8'));
    if (match?.[1]) return match[1];
  } catch {
    // fall through
  }
  return type();
}

/** The note a run ends with: the machine's load average then (other work adds noise). */
export function loadAverageNote(): string {
  return `Load average at the end: ${loadavg()
    .map((v) => v.toFixed(2))
    .join(' / ')} (1 / 5 / 15 min).`;
}
