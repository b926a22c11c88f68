// The development loop. `pnpm dev` restarts the gateway when the build writes new output, and
// never because a dependency's file changed (pnpm's hard-linked store changes when another
// project installs): the gateway runs with the very watch arguments scripts/dev.mjs gives it.
// `pnpm token` signs a token the gateway of `GATEWAY_PLUGINS=jwt pnpm dev` accepts, and refuses
// outside development.
import { spawnSync } from 'node:child_process';
import { realpathSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  eventually,
  fixedWait,
  postGraphQL,
  ROOT,
  type RunningGateway,
  spawnInGroup,
  startGateway,
} from '@fedgw/test-support';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, no declarations
import { devEnv, GATEWAY_WATCH_ARGS } from '../../scripts/dev-tasks.mjs';

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
    touch(dependency);
    // fixed wait: node --watch says nothing when it ignores a change; 1.5 s is several times its debounce
    await fixedWait(1500);
    expect(restarts(), output).toBe(0);

    touch(`${ROOT}gateway/dist/index.js`);
    await eventually(() => expect(restarts(), output).toBe(1), 30_000);
    await eventually(() => expect(starts(), output).toBe(2), 60_000);
    expect(output).toMatch(/Change detected in '.*gateway\/dist\/index\.js'/);
  }));

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
