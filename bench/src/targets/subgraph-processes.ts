import { SUBGRAPH_NAMES, type SubgraphName } from '@fedgw/subgraphs/catalog';
import { repoPath } from '../paths.js';
import { type ManagedProcess, spawnManaged } from './child.js';
import { assertPortFree } from './ports.js';
import { waitForGraphQL } from './readiness.js';
import { STATIC_HEADER } from './setups.js';

export { SUBGRAPH_NAMES, type SubgraphName };

export interface RunningSubgraphs {
  readonly urls: Readonly<Record<SubgraphName, string>>;
  readonly processes: readonly ManagedProcess[];
  stop(): Promise<void>;
}

/** The three compiled subgraphs (`node subgraphs/dist/<name>/main.js`) on `firstPort`, +1, +2. */
export async function startSubgraphs(firstPort: number, cpus: string | undefined): Promise<RunningSubgraphs> {
  const ports = SUBGRAPH_NAMES.map((_, i) => firstPort + i);
  for (const [i, name] of SUBGRAPH_NAMES.entries()) await assertPortFree(ports[i] as number, `${name} subgraph`);

  const processes = SUBGRAPH_NAMES.map((name, i) =>
    spawnManaged({
      name: `${name} subgraph`,
      command: process.execPath,
      args: [repoPath('subgraphs', 'dist', name, 'main.js')],
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(ports[i]),
        HOST: '127.0.0.1',
        // Lets the §C check prove the static header reaches them (one map update per request).
        SUBGRAPH_COUNT_HEADER: STATIC_HEADER.name,
      },
      cwd: repoPath(),
      cpus,
    }),
  );
  const stop = async () => {
    await Promise.all(processes.map((p) => p.stop()));
  };
  const urls = Object.fromEntries(
    SUBGRAPH_NAMES.map((name, i) => [name, `http://127.0.0.1:${ports[i]}/graphql`]),
  ) as Record<SubgraphName, string>;
  try {
    await Promise.all(SUBGRAPH_NAMES.map((name, i) => waitForGraphQL(urls[name], processes[i] ?? null, 30_000)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls, processes, stop };
}

/** `SUBGRAPH_USERS_URL=...` etc., understood by our gateway, the standalone one and the Router configs. */
export function subgraphUrlEnv(urls: Readonly<Record<SubgraphName, string>>): Record<string, string> {
  return Object.fromEntries(SUBGRAPH_NAMES.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, urls[name]]));
}
