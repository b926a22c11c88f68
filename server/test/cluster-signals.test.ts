// The stop signals a cluster primary (GATEWAY_WORKERS=2) receives, on the paths the single
// process does not have: SIGHUP, a second signal during the drain, a signal while a dead worker
// is being replaced (its backoff, then its start), a worker that misses its grace. Each test
// ends its own primary, so each starts one; they all share one users subgraph that holds its
// answers until the test releases them.
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import {
  closedPortUrl,
  eventually,
  fixedWait,
  SUPERGRAPH_PATH,
  startTestHttpServer,
  type TestHttpServer,
} from '@fedgw/test-support';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  alive,
  type Cluster,
  type LogLine,
  messages,
  postOnNewConnection,
  readyLines,
  refusesConnections,
  startCluster,
} from './helpers/cluster.js';

const USER = { query: '{ user(id: "user-1") { id } }' };
const ANSWER = { data: { user: { id: 'user-1' } } };

/** The lines a worker (not the primary) logged with this message. */
const workerLines = (cluster: Cluster, msg: string) =>
  cluster.lines().filter((line) => line.msg === msg && line.cluster === undefined);
const primaryLines = (cluster: Cluster, msg: string) =>
  cluster.lines().filter((line) => line.msg === msg && line.cluster === 'primary');
/** Every worker the primary ever forked. */
const forkedPids = (cluster: Cluster) => primaryLines(cluster, 'worker started').map((line) => line.pid as number);
/** What the primary logged about each worker's end: pid, exit code, signal, level. */
const stopped = (cluster: Cluster) =>
  primaryLines(cluster, 'worker stopped').map(({ pid, code, signal, level }: LogLine) => ({
    pid,
    code,
    signal,
    level,
  }));

describe('cluster primary: stop signals (GATEWAY_WORKERS=2)', () => {
  let users: TestHttpServer;
  const held: ServerResponse[] = [];
  let baseEnv: Record<string, string>;
  let cluster: Cluster | undefined;
  let supergraph: TestHttpServer | undefined;

  const release = () => {
    for (const response of held.splice(0)) {
      if (!response.destroyed)
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ANSWER));
    }
  };

  beforeAll(async () => {
    users = await startTestHttpServer((_request, response) => {
      held.push(response);
    });
    baseEnv = {
      SUBGRAPH_USERS_URL: users.url,
      SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
      SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
      SUBGRAPH_RETRIES: '0',
      // Each line as it happens: a test acts on the primary's lines within a worker's backoff.
      GATEWAY_LOG_BUFFER_BYTES: '0',
    };
  });
  afterEach(async () => {
    const pid = cluster?.process.child.pid;
    // A failed test's leftovers: the primary and its workers share its process group.
    if (pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {}
    }
    cluster = undefined;
    release();
    await supergraph?.close();
    supergraph = undefined;
  });
  afterAll(async () => {
    await users.close();
  });

  /** Starts a cluster and waits until both workers are ready. */
  async function startReady(mount: 'express' | 'fastify', env: Record<string, string>): Promise<Cluster> {
    cluster = await startCluster(mount, { ...baseEnv, ...env });
    const running = cluster;
    await eventually(() => expect(readyLines(running)).toHaveLength(1));
    return running;
  }

  /** After the primary exited: no process it forked is left. */
  async function expectNoWorkerLeft(running: Cluster): Promise<void> {
    const pids = forkedPids(running);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    await eventually(() => expect(pids.filter(alive)).toEqual([]));
  }

  it('SIGHUP: every worker drains, the in-flight request finishes, new connections are refused, exit 0', async () => {
    const running = await startReady('fastify', { SUPERGRAPH_PATH });
    const pids = running.workerPids();
    const inFlight = postOnNewConnection(running.url, USER);
    await eventually(() => expect(held).toHaveLength(1));

    running.process.child.kill('SIGHUP');
    await eventually(() => expect(workerLines(running, 'shutting down')).toHaveLength(2));
    // Both workers closed their listeners (one is still answering): the primary closed the shared socket.
    await eventually(async () => expect(await refusesConnections(running.port)).toBe(true));
    // The same stop asked again (a process manager repeating itself) does not cut the drain short.
    running.process.child.kill('SIGHUP');
    running.process.child.kill('SIGTERM');
    // fixed wait: the primary ignores a repeated stop without a word; 200 ms for it to have read both signals (the answer and exit 0 below fail if they cut the drain short before the release)
    await fixedWait(200);
    expect(running.process.child.exitCode).toBeNull();
    release();

    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual(ANSWER);
    expect(await running.process.exited).toBe(0);
    expect(primaryLines(running, 'cluster shutting down')).toEqual([expect.objectContaining({ signal: 'SIGHUP' })]);
    // The primary passes the stop on as SIGTERM, once to each worker.
    expect(workerLines(running, 'shutting down').map(({ pid, signal }) => ({ pid, signal }))).toEqual(
      expect.arrayContaining(pids.map((pid) => ({ pid, signal: 'SIGTERM' }))),
    );
    expect(workerLines(running, 'shutdown complete')).toHaveLength(2);
    expect(stopped(running)).toEqual(
      expect.arrayContaining(pids.map((pid) => ({ pid, code: 0, signal: null, level: 30 }))),
    );
    expect(primaryLines(running, 'cluster stopped')).toEqual([expect.objectContaining({ exitCode: 0 })]);
    await expectNoWorkerLeft(running);
  });

  it('SIGINT while a dead worker waits for its replacement: no worker is forked after it, exit 0', async () => {
    const running = await startReady('express', { SUPERGRAPH_PATH });
    const [victim, survivor] = running.workerPids() as [number, number];
    // One request held on each worker (the primary hands new connections to them in turn).
    const requests = [1, 2].map(() => postOnNewConnection(running.url, USER).catch((error: Error) => error));
    await eventually(() => expect(held).toHaveLength(2));

    process.kill(victim, 'SIGKILL');
    await eventually(() => expect(primaryLines(running, 'replacing the dead worker')).toHaveLength(1));
    const { delayMs } = primaryLines(running, 'replacing the dead worker')[0] as { delayMs: number };
    expect(delayMs).toBeGreaterThan(0);
    running.process.child.kill('SIGINT');
    await eventually(() =>
      expect(workerLines(running, 'shutting down')).toEqual([expect.objectContaining({ pid: survivor })]),
    );
    // The survivor is still answering when the replacement was due: it was not forked.
    // fixed wait: a timer in the primary that must not fire; only waiting past its due time shows it did not
    await fixedWait(delayMs + 500);
    expect(running.process.child.exitCode).toBeNull();
    const order = messages(running);
    expect(order.slice(order.indexOf('cluster shutting down'))).not.toContain('worker started');
    release();

    // The victim's request died with it; the survivor's was answered.
    const answered = (await Promise.all(requests)).flatMap((result) =>
      result instanceof Error ? [] : [{ status: result.status, body: JSON.parse(result.body) }],
    );
    expect(answered).toEqual([{ status: 200, body: ANSWER }]);
    expect(await running.process.exited).toBe(0);
    expect(primaryLines(running, 'cluster shutting down')).toEqual([
      expect.objectContaining({ signal: 'SIGINT', workers: 1 }),
    ]);
    expect(stopped(running)).toEqual([{ pid: survivor, code: 0, signal: null, level: 30 }]);
    expect(forkedPids(running)).toHaveLength(2);
    await expectNoWorkerLeft(running);
  });

  it('SIGTERM while every worker is dead and waiting for its replacement: the primary says it stopped, exit 0', async () => {
    const running = await startReady('express', { SUPERGRAPH_PATH });
    for (const pid of running.workerPids()) process.kill(pid, 'SIGKILL');
    // Both replacements are due in 1 s and 2 s (the backoff): the signal lands before either.
    await eventually(() => expect(primaryLines(running, 'replacing the dead worker')).toHaveLength(2));
    running.process.child.kill('SIGTERM');
    expect(await running.process.exited).toBe(0);
    expect(primaryLines(running, 'cluster shutting down')).toEqual([
      expect.objectContaining({ signal: 'SIGTERM', workers: 0 }),
    ]);
    expect(primaryLines(running, 'cluster stopped')).toEqual([expect.objectContaining({ exitCode: 0 })]);
    expect(forkedPids(running)).toHaveLength(2);
    await expectNoWorkerLeft(running);
  });

  it('SIGTERM while the replacement worker is still starting: it stops there, exit 0', async () => {
    // The supergraph is served to the first two workers; the replacement's fetch is held, so it never finishes starting.
    const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
    const fetches: ServerResponse[] = [];
    supergraph = await startTestHttpServer((_request, response) => {
      fetches.push(response);
      if (fetches.length <= 2) response.writeHead(200, { 'content-type': 'text/plain' }).end(sdl);
    });
    const running = await startReady('fastify', {
      SUPERGRAPH_URL: supergraph.url,
      SUPERGRAPH_POLL_INTERVAL_MS: '0',
      SUPERGRAPH_URL_TIMEOUT_MS: '30000',
    });
    const [victim, survivor] = running.workerPids() as [number, number];
    process.kill(victim, 'SIGKILL');
    await eventually(() => expect(fetches).toHaveLength(3), 15_000);
    const replacement = forkedPids(running)[2] as number;

    running.process.child.kill('SIGTERM');
    expect(await running.process.exited).toBe(0);
    // The replacement had no shutdown of its own yet: the SIGTERM ended it, as asked, with nothing in flight.
    expect(stopped(running)).toEqual(
      expect.arrayContaining([
        { pid: replacement, code: null, signal: 'SIGTERM', level: 30 },
        { pid: survivor, code: 0, signal: null, level: 30 },
      ]),
    );
    expect(primaryLines(running, 'cluster stopped')).toEqual([expect.objectContaining({ exitCode: 0 })]);
    await expectNoWorkerLeft(running);
  });

  it('a second SIGINT stops waiting: the workers are killed, exit 1', async () => {
    const running = await startReady('express', { SUPERGRAPH_PATH });
    const inFlight = postOnNewConnection(running.url, USER).catch((error: Error) => error);
    await eventually(() => expect(held).toHaveLength(1));

    running.process.child.kill('SIGINT');
    await eventually(() => expect(workerLines(running, 'shutting down')).toHaveLength(2));
    running.process.child.kill('SIGINT');
    expect(await running.process.exited).toBe(1);
    expect(await inFlight).toBeInstanceOf(Error);
    expect(primaryLines(running, 'second SIGINT: killing the workers')).toHaveLength(1);
    await expectNoWorkerLeft(running);
  });

  it('a worker whose request outlives SHUTDOWN_GRACE_MS fails the stop: exit 1', async () => {
    const running = await startReady('fastify', { SUPERGRAPH_PATH, SHUTDOWN_GRACE_MS: '300' });
    const inFlight = postOnNewConnection(running.url, USER).catch((error: Error) => error);
    await eventually(() => expect(held).toHaveLength(1));

    running.process.child.kill('SIGTERM');
    expect(await running.process.exited).toBe(1);
    expect(await inFlight).toBeInstanceOf(Error);
    expect(workerLines(running, 'in-flight requests did not finish within the grace period')).toHaveLength(1);
    expect(
      stopped(running)
        .map(({ code }) => code)
        .sort(),
    ).toEqual([0, 1]);
    expect(primaryLines(running, 'cluster stopped')).toEqual([expect.objectContaining({ exitCode: 1 })]);
    await expectNoWorkerLeft(running);
  });
});
