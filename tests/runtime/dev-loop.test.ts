// The development loop. `pnpm dev` restarts the gateway when the build writes new output, and
// never because a dependency's file changed (pnpm's hard-linked store changes when another
// project installs): the gateway runs with the very watch arguments scripts/dev.mjs gives it.
// `pnpm token` signs a token the gateway of `GATEWAY_PLUGINS=jwt pnpm dev` accepts, and refuses
// outside development. `DEV_PORT_BASE` moves all of `pnpm dev` off ports 4000–4003 at once.
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { realpathSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { SUBGRAPHS } from '@fedgw/subgraphs/catalog';
import {
  eventually,
  freePort,
  postGraphQL,
  ROOT,
  type RunningGateway,
  spawnInGroup,
  startGateway,
} from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no declarations
import { devEnv, GATEWAY_WATCH_ARGS } from '../../scripts/dev-tasks.mjs';

/** Whether nothing listens on `port` on loopback now. */
async function isFree(port: number): Promise<boolean> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  const [event] = await Promise.race([once(server, 'listening').then(() => ['listening']), once(server, 'error')]);
  if (event !== 'listening') return false;
  await new Promise((resolve) => server.close(resolve));
  return true;
}

/** A port with it and the three above it free: a base for DEV_PORT_BASE. */
async function freeBase(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = await freePort();
    if (base > 65_532) continue;
    const free = await Promise.all([1, 2, 3].map((offset) => isFree(base + offset)));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no four free ports in a row');
}

const touch = (path: string) => {
  const now = new Date();
  utimesSync(path, now, now);
};

let stop = () => {};
afterAll(() => stop());

describe('pnpm dev', () =>
  it('a touched dependency file does not restart the gateway; a touched build output does', async () => {
    const child = spawnInGroup(process.execPath, GATEWAY_WATCH_ARGS as string[], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        GATEWAY_LISTEN_PORT: '0',
        GATEWAY_LISTEN_HOST: '127.0.0.1',
        GATEWAY_LOG_PRETTY: 'false',
        GATEWAY_ENV: 'development',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    stop = () => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL');
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
    const starts = () => output.match(/"msg":"gateway listening"/g)?.length ?? 0;
    // node --watch says so at once, before the new gateway takes seconds to listen.
    const restarts = () => output.match(/^Restarting '/gm)?.length ?? 0;
    await eventually(() => expect(starts(), output).toBe(1), 60_000);

    // A module the gateway has loaded, in pnpm's store (node --watch alone follows it there).
    const dependency = realpathSync(createRequire(`${ROOT}gateway/package.json`).resolve('graphql'));
    expect(dependency).toMatch(/node_modules\/\.pnpm\//);
    // node --watch says nothing when it ignores a change, so the ignored one is touched first and a
    // watched one after it: the watcher reports changes in the order they happen, so by the time the
    // second has restarted the gateway, a restart for the first would have come (and been named).
    touch(dependency);
    touch(`${ROOT}gateway/dist/index.js`);
    await eventually(() => expect(starts(), output).toBe(2), 60_000);
    expect(restarts(), output).toBe(1);
    expect(output).toMatch(/Change detected in '.*gateway\/dist\/index\.js'/);
    expect(output).not.toContain(`Change detected in '${dependency}'`);
  }));

describe('DEV_PORT_BASE', () => {
  it('fills in the gateway port, each subgraph port and the URL the gateway sends it to; one set by hand wins', () => {
    expect(devEnv({ DEV_PORT_BASE: '5000', PRODUCTS_PORT: '6000' }, SUBGRAPHS)).toEqual({
      GATEWAY_ENV: 'development',
      DEV_PORT_BASE: '5000',
      GATEWAY_LISTEN_PORT: '5000',
      USERS_PORT: '5001',
      SUBGRAPH_USERS_URL: 'http://127.0.0.1:5001/graphql',
      PRODUCTS_PORT: '6000',
      SUBGRAPH_PRODUCTS_URL: 'http://127.0.0.1:6000/graphql',
      REVIEWS_PORT: '5003',
      SUBGRAPH_REVIEWS_URL: 'http://127.0.0.1:5003/graphql',
    });
    expect(devEnv({}, SUBGRAPHS)).toEqual({ GATEWAY_ENV: 'development' });
    for (const bad of ['0', '65533', '50a0', '-1']) {
      expect(() => devEnv({ DEV_PORT_BASE: bad }, SUBGRAPHS)).toThrow(
        `DEV_PORT_BASE must be an integer from 1 to 65532 (got "${bad}")`,
      );
    }
  });

  it('`pnpm dev` with DEV_PORT_BASE serves a federated query from the four ports it names, and stops on Ctrl-C', async () => {
    const base = await freeBase();
    // What `pnpm dev` runs after its build: scripts/dev.mjs under the launcher.
    const child = spawnInGroup(process.execPath, ['scripts/launch.mjs', 'scripts/dev.mjs'], {
      cwd: ROOT,
      // Each subgraph counts the requests it gets (GET /header-counts): the gateway's prove where it sent them.
      env: {
        PATH: process.env.PATH ?? '',
        DEV_PORT_BASE: String(base),
        GATEWAY_LOG_PRETTY: 'false',
        SUBGRAPH_COUNT_HEADER: 'content-type',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = once(child, 'exit');
    const signalJob = (signal: NodeJS.Signals) => {
      try {
        process.kill(-(child.pid as number), signal);
      } catch {} // already gone
    };
    /** Resolves when the job has ended, or after `ms` (a bound, not a wait). */
    const ended = (ms: number) =>
      // deadline: a bound on the job's exit; reaching it means it is still running
      Promise.race([exited, new Promise((resolve) => setTimeout(resolve, ms).unref())]).then(
        () => child.exitCode !== null || child.signalCode !== null,
      );
    // On a failure: dev.mjs's children each lead a group of their own, which only dev.mjs knows;
    // Ctrl-C, then a second one (dev.mjs kills their groups), and only then SIGKILL to the job.
    const stopJob = async () => {
      for (const signal of ['SIGINT', 'SIGINT'] as const) {
        if (child.exitCode !== null || child.signalCode !== null) return;
        signalJob(signal);
        if (await ended(20_000)) return;
      }
      signalJob('SIGKILL');
    };
    try {
      let output = '';
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk));
      const query = { query: '{ user(id: "user-5") { id orders { product { name } } reviews { rating } } }' };
      await eventually(async () => {
        expect(child.exitCode, output).toBeNull();
        const answer = await postGraphQL(`http://127.0.0.1:${base}/graphql`, query);
        expect(answer.status, output).toBe(200);
        expect(answer.body.errors, output).toBeUndefined();
        expect(answer.body.data?.user).toMatchObject({ id: 'user-5' });
      }, 90_000);
      // The query needs all three subgraphs: each one on base+1..3 was asked, not one on 4001–4003.
      for (const offset of [1, 2, 3]) {
        const answer = await fetch(`http://127.0.0.1:${base + offset}/header-counts`);
        const { counts } = (await answer.json()) as { counts: Record<string, number> };
        expect(
          Object.values(counts).reduce((sum, n) => sum + n, 0),
          `subgraph on ${base + offset}`,
        ).toBeGreaterThan(0);
      }
      // Ctrl-C: SIGINT to the whole job, as a terminal sends it.
      signalJob('SIGINT');
      const [code] = await exited;
      expect(code, output).toBe(0);
      // Nothing it started outlives it.
      await eventually(async () => {
        for (const port of [base, base + 1, base + 2, base + 3]) expect(await isFree(port), `port ${port}`).toBe(true);
      });
    } finally {
      await stopJob();
    }
  }, 180_000);
});

describe('pnpm token', () => {
  const token = (env: Record<string, string>, ...args: string[]) =>
    spawnSync(process.execPath, ['scripts/token.mjs', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ...env },
    });

  let gateway: RunningGateway | undefined;
  afterAll(async () => {
    if (gateway) expect(await gateway.stop()).toBe(0);
  });

  it('signs a token the gateway of `GATEWAY_PLUGINS=jwt pnpm dev` accepts (without it: 401)', async () => {
    gateway = await startGateway('fastify', devEnv({ GATEWAY_PLUGINS: 'jwt' }) as Record<string, string>);
    const query = { query: '{ __typename }' };
    expect((await postGraphQL(gateway.url, query)).status).toBe(401);
    const signed = token({}, 'user-5');
    expect(signed.status, signed.stderr).toBe(0);
    const answer = await postGraphQL(gateway.url, query, { authorization: `Bearer ${signed.stdout.trim()}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('refuses outside development', () => {
    for (const env of [{ GATEWAY_ENV: 'production' }, { NODE_ENV: 'production' }] as Record<string, string>[]) {
      const refused = token(env);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/signs with the development key, which only `pnpm dev` trusts: refused/);
    }
  });
});
