import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { SUBGRAPH_NAMES, type SubgraphName } from '@fedgw/subgraphs/catalog';
import { spawnInGroup } from './process-group.js';

/** The repository's root (this file runs from test-support/dist/). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The composed supergraph the gateway serves. */
export const SUPERGRAPH_PATH = `${ROOT}supergraph.graphql`;

/** A compiled entry point running as its own process, with its output kept for assertions. */
export interface RunningProcess {
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** Sends `signal` (default SIGTERM) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /**
   * Resolves once the output (stdout and stderr, from the start) matches `pattern`; rejects
   * when the process exits first or after `timeoutMs` (default 10 s), showing the output.
   */
  untilOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

/** Starts `node <script> [args]` and waits until its output matches `ready` (or it dies, or 20 s pass). */
export async function spawnNode(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  args: readonly string[] = [],
): Promise<{ process: RunningProcess; match: RegExpMatchArray }> {
  const child = spawnInGroup(process.execPath, [script, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const watchers = new Set<() => void>();
  const running: RunningProcess = {
    child,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    untilOutput: (pattern, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = output.match(pattern);
          if (found) finish(() => resolve(found));
        };
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          watchers.delete(check);
          settle();
        };
        const fail = (why: string) =>
          finish(() =>
            reject(new Error(`${script}: ${why} before its output matched ${pattern}\n--- output ---\n${output}`)),
          );
        const timer = setTimeout(() => fail(`${timeoutMs} ms passed`), timeoutMs); // deadline: a bound on the wait for a line
        watchers.add(check);
        void exited.then((code) => {
          check();
          if (watchers.has(check)) fail(`it exited (${code})`);
        });
        check();
      }),
  };
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`not ready after 20 s`)), 20_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${script}: ${error.message}\n--- output ---\n${output}`));
    };
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      for (const watcher of watchers) watcher();
      const found = output.match(ready);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => fail(new Error(`exited with ${code} before it was ready`)));
  });
  return { process: running, match };
}

export type { SubgraphName };

export interface RunningSubgraph extends RunningProcess {
  readonly url: string;
}

export async function startSubgraph(name: SubgraphName, env: Record<string, string> = {}): Promise<RunningSubgraph> {
  const { process, match } = await spawnNode(
    `subgraphs/dist/${name}/main.js`,
    { PORT: '0', ...env },
    /ready at (http:\/\/\S+\/graphql)/,
  );
  return Object.assign(process, { url: match[1] as string });
}

/** Every subgraph of the catalog, each on a free port. */
export async function startSubgraphs(): Promise<Record<SubgraphName, RunningSubgraph>> {
  const started = await Promise.all(SUBGRAPH_NAMES.map((name) => startSubgraph(name)));
  return Object.fromEntries(SUBGRAPH_NAMES.map((name, i) => [name, started[i]])) as Record<
    SubgraphName,
    RunningSubgraph
  >;
}

export const MOUNTS = ['nest-fastify', 'nest-express', 'fastify', 'express'] as const;
export type Mount = (typeof MOUNTS)[number];

export function mountEnv(mount: Mount): Record<string, string> {
  const [runtime, adapter] = mount.startsWith('nest-') ? ['nest', mount.slice(5)] : ['bare', mount];
  return { GATEWAY_RUNTIME: runtime as string, GATEWAY_ADAPTER: adapter as string };
}

export interface RunningGateway extends RunningProcess {
  /** The GraphQL endpoint, e.g. http://127.0.0.1:41234/graphql */
  readonly url: string;
  /** The server's origin, for /health and /ready. */
  readonly origin: string;
  /** Every JSON log line written so far. */
  logLines(): Record<string, unknown>[];
  /**
   * Resolves with the first JSON log line (written so far or later) holding every field of
   * `fields` (`{ msg: 'shutting down', signal: 'SIGTERM' }`); rejects as `untilOutput` does.
   */
  untilLog(fields: Record<string, unknown>, timeoutMs?: number): Promise<Record<string, unknown>>;
}

/** Starts the compiled gateway (`node server/dist/main.js`) on a free port, serving the repository's supergraph file unless `env` names a source. */
export async function startGateway(mount: Mount, env: Record<string, string>): Promise<RunningGateway> {
  return spawnGateway(mount, { SUPERGRAPH_PATH: 'supergraph.graphql', ...env });
}

/**
 * Starts the compiled gateway on a free port with no supergraph source of its own: for `env`
 * that sets SUPERGRAPH_URL (startup refuses a file and a URL together), or a cluster primary.
 * Resolves once the gateway (for a cluster: its first worker) listens.
 */
export async function spawnGateway(mount: Mount, env: Record<string, string>): Promise<RunningGateway> {
  const { process, match } = await spawnNode(
    'server/dist/main.js',
    {
      GATEWAY_LISTEN_PORT: '0',
      GATEWAY_LISTEN_HOST: '127.0.0.1',
      GATEWAY_LOG_PRETTY: 'false',
      ...mountEnv(mount),
      ...env,
    },
    /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/,
  );
  const url = match[1] as string;
  const logLines = () =>
    process
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{') && line.endsWith('}'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  const holds = (fields: Record<string, unknown>) => (line: Record<string, unknown>) =>
    Object.entries(fields).every(([key, value]) => line[key] === value);
  return Object.assign(process, {
    url,
    origin: new URL(url).origin,
    logLines,
    async untilLog(fields: Record<string, unknown>, timeoutMs?: number) {
      // Each JSON value of `fields` appears in the line as written: a cheap match first, then the parsed check.
      const shown = Object.entries(fields).map(([key, value]) => `"${key}":${JSON.stringify(value)}`);
      const pattern = new RegExp(
        `^\\{${shown.map((part) => `(?=.*${part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')})`).join('')}.*\\}$`,
        'm',
      );
      await process.untilOutput(pattern, timeoutMs);
      return logLines().find(holds(fields)) as Record<string, unknown>;
    },
  });
}

/** Env that points the gateway at the given subgraph processes. */
export function subgraphUrlEnv(subgraphs: Partial<Record<SubgraphName, { url: string }>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, subgraph] of Object.entries(subgraphs)) env[`SUBGRAPH_${name.toUpperCase()}_URL`] = subgraph.url;
  return env;
}
