import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { parseConfig } from '@fedgw/gateway';
import {
  available,
  eventually,
  postGraphQL,
  type RunningSubgraph,
  SUPERGRAPH_PATH,
  spawnNode,
  startRedis,
  startSubgraphs,
  startTestHttpServer,
  subgraphUrlEnv,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { V8_WORKER_THREAD } from '../src/v8-worker-priority.js';
import { alive, type Cluster, postOnNewConnection, readyLines, startCluster } from './helpers/cluster.js';
import { readProcStat, threadNices } from './helpers/proc-stat.js';

const USER = { query: '{ user(id: "user-1") { id } }' };

async function readyStatus(cluster: Cluster): Promise<number> {
  return (await fetch(`${cluster.origin}/ready`)).status;
}

/** The pids of the workers that logged a completed request. */
const servedBy = (cluster: Cluster) =>
  new Set(
    cluster
      .lines()
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.pid),
  );

/** The parent pid (field 4 of /proc/<pid>/stat). */
const parentOf = (pid: number) => Number(readProcStat(`/proc/${pid}/stat`).fields[1]);

describe('GATEWAY_WORKERS: the parser', () => {
  it('accepts an integer from 1 or auto, and names the field otherwise', () => {
    expect(parseConfig({}).workers).toBe(1);
    expect(parseConfig({ GATEWAY_WORKERS: '3' }).workers).toBe(3);
    expect(parseConfig({ GATEWAY_WORKERS: 'auto' }).workers).toBeGreaterThanOrEqual(1);
    for (const bad of ['0', 'many', '1.5', '-2']) {
      expect(() => parseConfig({ GATEWAY_WORKERS: bad })).toThrow(/GATEWAY_WORKERS: expected an integer from 1/);
    }
  });

  it('refuses metrics with more than one worker (a scrape would see one worker)', () => {
    expect(() => parseConfig({ GATEWAY_WORKERS: '2', METRICS_ENABLED: 'true' })).toThrow(
      /GATEWAY_WORKERS: 2 workers cannot serve METRICS_ENABLED/,
    );
    expect(parseConfig({ GATEWAY_WORKERS: '1', METRICS_ENABLED: 'true' }).metrics.enabled).toBe(true);
  });

  it('refuses the memory entity cache with more than one worker (an invalidation would reach one of them)', async () => {
    expect(() => parseConfig({ GATEWAY_WORKERS: '2', ENTITY_CACHE: 'memory' })).toThrow(
      /GATEWAY_WORKERS: 2 workers cannot share ENTITY_CACHE=memory: .* use ENTITY_CACHE=redis .* or GATEWAY_WORKERS=1/,
    );
    expect(parseConfig({ GATEWAY_WORKERS: '1', ENTITY_CACHE: 'memory' }).entityCache.store).toBe('memory');
    const redis = { ENTITY_CACHE: 'redis', ENTITY_CACHE_REDIS_URL: 'redis://127.0.0.1:6379' };
    expect(parseConfig({ GATEWAY_WORKERS: '2', ...redis }).entityCache.store).toBe('redis');

    // The process refuses to start, before forking any worker, with the code and both settings.
    const started = spawnNode('server/dist/main.js', { GATEWAY_WORKERS: '2', ENTITY_CACHE: 'memory' }, /never/);
    const message = String(await started.catch((error: Error) => error.message));
    expect(message).toContain('exited with 1 before it was ready');
    expect(message).toContain('ERR_GATEWAY_CONFIG_INVALID');
    expect(message).toContain('GATEWAY_WORKERS: 2 workers cannot share ENTITY_CACHE=memory');
    expect(message).not.toContain('worker started');
  });
});

describe('cluster mode (GATEWAY_WORKERS=2)', () => {
  let subgraphs: Record<string, RunningSubgraph>;
  let cluster: Cluster | undefined;
  let fake: TestHttpServer | undefined;

  beforeAll(async () => {
    subgraphs = await startSubgraphs();
  });
  afterEach(async () => {
    await cluster?.process.stop('SIGKILL');
    cluster = undefined;
    await fake?.close();
    fake = undefined;
  });
  afterAll(async () => {
    await Promise.all(Object.values(subgraphs).map((subgraph) => subgraph.stop()));
  });

  it('answers from two worker processes, and replaces one that is killed', async () => {
    cluster = await startCluster('express', { SUPERGRAPH_PATH, ...subgraphUrlEnv(subgraphs) });
    const running = cluster;
    await eventually(() => expect(readyLines(running)).toHaveLength(1));
    const pids = running.workerPids();
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(parentOf(pid)).toBe(running.process.child.pid);
    // Every process of the tree lowers its own V8 helper threads (ADR 043), not only the primary.
    for (const pid of [running.process.child.pid as number, ...pids]) {
      const helpers = threadNices(pid).filter(([name]) => V8_WORKER_THREAD.test(name));
      expect(helpers.length).toBeGreaterThan(0);
      expect(helpers.every(([, nice]) => nice >= 10)).toBe(true);
    }
    expect(await readyStatus(running)).toBe(200);
    const statuses = await Promise.all(
      [1, 2, 3, 4].map(async () => (await postOnNewConnection(running.url, USER)).status),
    );
    expect(statuses).toEqual([200, 200, 200, 200]);
    // Round robin: both workers served some (each logs its requests, after answering, with its pid).
    await eventually(() => expect([...servedBy(running)].sort()).toEqual([...pids].sort()));

    const [victim, survivor] = pids as [number, number];
    process.kill(victim, 'SIGKILL');
    await eventually(() =>
      expect(running.lines()).toContainEqual(
        expect.objectContaining({ msg: 'worker died', pid: victim, signal: 'SIGKILL' }),
      ),
    );
    // It died young, so its replacement waits a backoff: meanwhile the survivor says 503.
    await eventually(async () => expect(await readyStatus(running)).toBe(503));
    expect((await postOnNewConnection(running.url, USER)).status).toBe(200);

    await eventually(() => expect(readyLines(running)).toHaveLength(2), 15_000);
    const replaced = running.workerPids();
    expect(replaced).toHaveLength(2);
    expect(replaced).toContain(survivor);
    expect(replaced).not.toContain(victim);
    expect(alive(victim)).toBe(false);
    expect(await readyStatus(running)).toBe(200);
    expect((await postGraphQL(running.url, USER)).body.data).toEqual({ user: { id: 'user-1' } });
  });

  it('answers /ready 503 until every worker is ready', async () => {
    // The first supergraph fetch is answered, the next is held: one worker listens, the other cannot start.
    const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
    const held: ServerResponse[] = [];
    fake = await startTestHttpServer((_request, response) => {
      if (fake && fake.requests.length > 1) held.push(response);
      else response.writeHead(200, { 'content-type': 'text/plain' }).end(sdl);
    });
    const supergraph = fake;
    cluster = await startCluster('nest-fastify', {
      SUPERGRAPH_URL: supergraph.url,
      SUPERGRAPH_POLL_INTERVAL_MS: '0',
      SUPERGRAPH_URL_TIMEOUT_MS: '30000',
      ...subgraphUrlEnv(subgraphs),
    });
    const running = cluster;
    await eventually(() => expect(held).toHaveLength(1));
    // The listening worker is started, yet answers 503: its sibling is not ready.
    expect(await readyStatus(running)).toBe(503);
    expect(await readyStatus(running)).toBe(503);
    expect((await postGraphQL(running.url, USER)).status).toBe(200);
    expect(readyLines(running)).toHaveLength(0);

    held[0]?.writeHead(200, { 'content-type': 'text/plain' }).end(sdl);
    await eventually(() => expect(readyLines(running)).toHaveLength(1));
    await eventually(async () => expect(await readyStatus(running)).toBe(200));
    const order = running.lines().map((line) => line.msg);
    expect(order.lastIndexOf('worker ready')).toBeLessThan(order.indexOf('cluster ready'));
  });

  it('drains every worker on SIGTERM: the in-flight request finishes, exit 0', async () => {
    // A users subgraph that holds its answer until the test releases it.
    const held: ServerResponse[] = [];
    fake = await startTestHttpServer((_request, response) => {
      held.push(response);
    });
    cluster = await startCluster('fastify', {
      SUPERGRAPH_PATH,
      ...subgraphUrlEnv(subgraphs),
      SUBGRAPH_USERS_URL: fake.url,
      SUBGRAPH_RETRIES: '0',
      SHUTDOWN_DELAY_MS: '100',
    });
    const running = cluster;
    await eventually(() => expect(readyLines(running)).toHaveLength(1));
    const inFlight = postGraphQL(running.url, USER);
    await eventually(() => expect(held).toHaveLength(1));

    running.process.child.kill('SIGTERM');
    await eventually(() =>
      expect(running.lines().filter((line) => line.msg === 'shutting down' && line.pid)).toHaveLength(2),
    );
    expect(running.process.child.exitCode).toBeNull();
    const body = JSON.stringify({ data: { user: { id: 'user-1' } } });
    held[0]?.writeHead(200, { 'content-type': 'application/json' }).end(body);

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ user: { id: 'user-1' } });
    expect(await running.process.exited).toBe(0);
    const messages = running.lines().map((line) => line.msg);
    expect(messages.filter((msg) => msg === 'shutdown complete')).toHaveLength(2);
    expect(messages).toContain('cluster stopped');
  });

  it('warns that the memory store counts per worker', async () => {
    cluster = await startCluster('fastify', {
      SUPERGRAPH_PATH,
      ...subgraphUrlEnv(subgraphs),
      GATEWAY_PLUGINS: 'rate-limit',
      RATE_LIMIT_MAX: '50',
    });
    const warning = cluster.lines().find((line) => String(line.msg).startsWith('rate limit counted in memory'));
    expect(warning).toMatchObject({ level: 40, workers: 2, rateLimitMax: 50, effectiveMax: 100 });
    expect(String(warning?.msg)).toContain('GATEWAY_REDIS_URL');
  });

  it.skipIf(!available('redis-server', import.meta.url))(
    'counts exactly across workers with the Redis store',
    async () => {
      const redis = await startRedis();
      try {
        cluster = await startCluster('fastify', {
          SUPERGRAPH_PATH,
          ...subgraphUrlEnv(subgraphs),
          GATEWAY_PLUGINS: 'rate-limit',
          RATE_LIMIT_MAX: '6',
          RATE_LIMIT_WINDOW: '60000',
          GATEWAY_REDIS_URL: redis.url,
        });
        const running = cluster;
        await eventually(() => expect(readyLines(running)).toHaveLength(1));
        expect(running.lines().some((line) => String(line.msg).startsWith('rate limit counted in memory'))).toBe(false);
        const statuses: number[] = [];
        // One after the other, each on a new connection: the primary alternates the workers.
        for (let i = 0; i < 7; i += 1) statuses.push((await postOnNewConnection(running.url, USER)).status);
        expect(statuses.filter((status) => status === 429)).toHaveLength(1);
        expect(statuses.at(-1)).toBe(429);
        await eventually(() => expect(servedBy(running).size).toBe(2));
      } finally {
        await redis.stop();
      }
    },
  );
});
