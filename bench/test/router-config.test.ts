/**
 * bench/router/*.yaml against the real Apollo Router: each config starts (no GraphOS licence,
 * no configuration warning), serves /graphql with our CSRF, introspection and error-masking
 * rules, and its variant does what it claims (a static subgraph header; ten fresh GUID response
 * headers). The Router takes ~20 minutes to build, so when none is installed these tests are
 * skipped with the reason in their name; `pnpm router:install` fills the cache they look in.
 */

import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { freePort, ROOT, spawnInGroup } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { peerSupergraph } from '../src/targets/peer-supergraph.js';
import {
  findRouterBinary,
  ROUTER_CONFIGS,
  ROUTER_RHAI_DIR,
  ROUTER_VERSION,
  type RouterConfigName,
  routerArgs,
  routerEnv,
} from '../src/targets/router-binary.js';

const REPO_ROOT = ROOT;
// The Router serves what the bench gives it: the supergraph without its (licensed) authorization directives.
const SUPERGRAPH = peerSupergraph(join(REPO_ROOT, 'supergraph.graphql'));
const CONFIG_NAMES = Object.keys(ROUTER_CONFIGS) as RouterConfigName[];

const router = await findRouterBinary();
const SKIP_REASON =
  'skipped: no Apollo Router found (APOLLO_ROUTER_BIN, PATH, ~/.cache/apollo-router) — run pnpm router:install';
if (!router) console.warn(`bench/test/router-config.test.ts: real-Router tests ${SKIP_REASON}`);

const readConfig = async (name: RouterConfigName) =>
  parse(await readFile(join(REPO_ROOT, ROUTER_CONFIGS[name]), 'utf8')) as Record<string, unknown>;

describe('bench/router variants', () => {
  it('router-static-header.yaml is router.yaml plus one subgraph request header', async () => {
    const { headers, ...rest } = await readConfig('static-header');
    expect(rest).toEqual(await readConfig('base'));
    expect(headers).toEqual({ all: { request: { operations: [{ insert: { name: 'source', value: 'gateway' } }] } } });
  });

  it('router-dedup.yaml is router.yaml plus deduplicate_query on every subgraph', async () => {
    const { traffic_shaping: shaping, ...rest } = await readConfig('dedup');
    const { traffic_shaping: baseShaping, ...baseRest } = await readConfig('base');
    expect(rest).toEqual(baseRest);
    const all = (baseShaping as { all: Record<string, unknown> }).all;
    expect(shaping).toEqual({ all: { ...all, deduplicate_query: true } });
  });

  it('router-guid-headers.yaml is router.yaml plus the Rhai script', async () => {
    const { rhai, ...rest } = await readConfig('guid-headers');
    expect(rest).toEqual(await readConfig('base'));
    // Router's expansion syntax, with the directory routerEnv() points ROUTER_RHAI_DIR at as default.
    expect(rhai).toEqual({ scripts: `$\{env.ROUTER_RHAI_DIR:-${ROUTER_RHAI_DIR}}`, main: 'guid_headers.rhai' });
  });
});

// --- a users subgraph that records what the Router sends --------------------------------------

interface Recorded {
  readonly headers: IncomingHttpHeaders;
  readonly body: { query?: string };
}

interface MockSubgraph {
  readonly url: string;
  readonly requests: Recorded[];
  close(): Promise<void>;
}

/** Answers `user(id: "user-1")` with data and `user(id: "user-2")` with an internal error. */
async function startMockUsers(): Promise<MockSubgraph> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Recorded['body'];
      requests.push({ headers: req.headers, body });
      const answer = body.query?.includes('user-2')
        ? { data: { user: null }, errors: [{ message: 'db password=hunter2 leaked', path: ['user'] }] }
        : { data: { user: { id: 'user-1', name: 'x' } } };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- the Router as a child process ------------------------------------------------------------

interface RunningRouter {
  readonly url: string;
  readonly healthUrl: string;
  /** Everything it printed (JSON log lines at --log warn). */
  readonly log: () => string;
  stop(): Promise<void>;
}

async function startRouter(bin: string, config: RouterConfigName, usersUrl: string): Promise<RunningRouter> {
  const listen = `127.0.0.1:${await freePort()}`;
  const healthListen = `127.0.0.1:${await freePort()}`;
  const { RUST_BACKTRACE: _noisy, ...parentEnv } = process.env;
  const child: ChildProcess = spawnInGroup(bin, routerArgs(SUPERGRAPH, join(REPO_ROOT, ROUTER_CONFIGS[config])), {
    cwd: REPO_ROOT,
    env: {
      ...parentEnv,
      ...routerEnv({ listen, healthListen, repoRoot: REPO_ROOT, subgraphUrls: { users: usersUrl } }),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let exitCode: number | null | undefined;
  void exited.then((code) => {
    exitCode = code;
  });

  const healthUrl = `http://${healthListen}/health`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exitCode !== undefined) {
      throw new Error(
        `Router with ${ROUTER_CONFIGS[config]} exited (code ${exitCode}) before it was healthy:\n${output}`,
      );
    }
    const healthy = await fetch(healthUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Router with ${ROUTER_CONFIGS[config]} not healthy in 20 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50)); // poll: the Router's /health, answered once it is healthy
  }

  return {
    url: `http://${listen}/graphql`,
    healthUrl,
    log: () => output,
    async stop() {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      // Graceful shutdown waits for idle keep-alive connections; do not wait for that here.
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

const post = (url: string, query: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const traceHeaders = (response: Response) =>
  Array.from({ length: 10 }, (_, i) => response.headers.get(`x-trace-${i + 1}`));

const title = router
  ? `Apollo Router ${router.version} (${router.path}) with bench/router configs`
  : `Apollo Router with bench/router configs — ${SKIP_REASON}`;

describe.skipIf(!router)(title, () => {
  let users: MockSubgraph;
  const routers = new Map<RouterConfigName, RunningRouter>();
  const running = (name: RouterConfigName) => {
    const found = routers.get(name);
    if (!found) throw new Error(`Router with ${name} did not start`);
    return found;
  };

  beforeAll(async () => {
    if (!router) return;
    users = await startMockUsers();
    for (const name of CONFIG_NAMES) routers.set(name, await startRouter(router.path, name, users.url));
  });

  afterAll(async () => {
    await Promise.all([...routers.values()].map((r) => r.stop()));
    await users?.close();
  });

  it(`is the pinned version ${ROUTER_VERSION}`, () => {
    expect(router?.version).toBe(ROUTER_VERSION);
  });

  it.each(CONFIG_NAMES)(
    '%s: starts without a licence and answers { __typename } with the preflight header',
    async (name) => {
      const r = running(name);
      expect(await (await fetch(r.healthUrl)).json()).toEqual({ status: 'UP' });
      const response = await post(r.url, '{ __typename }', { 'apollo-require-preflight': 'true' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
    },
  );

  it.each(CONFIG_NAMES)('%s: loads as written (no configuration warning or error in the log)', (name) => {
    const problems = running(name)
      .log()
      .split('\n')
      .filter((line) => /"level":"(WARN|ERROR)"/.test(line) && /apollo_router::configuration|licen[cs]e/i.test(line));
    expect(problems).toEqual([]);
  });

  it('fetches the users subgraph at SUBGRAPH_USERS_URL', async () => {
    const before = users.requests.length;
    const response = await post(running('base').url, '{ user(id: "user-1") { id name } }');
    expect(await response.json()).toEqual({ data: { user: { id: 'user-1', name: 'x' } } });
    expect(users.requests.length).toBe(before + 1);
  });

  it('blocks CSRF like ours: a text/plain POST and a GET without a preflight header get 400', async () => {
    const { url } = running('base');
    const plain = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toMatchObject({ errors: [{ extensions: { code: 'CSRF_ERROR' } }] });
    const get = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}`);
    expect(get.status).toBe(400);
    const preflighted = await fetch(`${url}?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { 'apollo-require-preflight': 'true' },
    });
    expect(await preflighted.json()).toEqual({ data: { __typename: 'Query' } });
  });

  it('has introspection off, no landing page, and masks subgraph errors', async () => {
    const { url } = running('base');
    const introspection = await post(url, '{ __schema { queryType { name } } }');
    expect(await introspection.json()).toMatchObject({ errors: [{ extensions: { code: 'INTROSPECTION_DISABLED' } }] });

    const page = await fetch(url, { headers: { accept: 'text/html', 'apollo-require-preflight': 'true' } });
    expect(page.headers.get('content-type') ?? '').not.toContain('text/html');

    const failed = await post(url, '{ user(id: "user-2") { id name } }');
    const text = await failed.text();
    expect(JSON.parse(text)).toMatchObject({ data: { user: null }, errors: [{}] });
    expect(text).not.toContain('hunter2');
  });

  it('static-header: every subgraph request carries source: gateway (base sends none)', async () => {
    const before = users.requests.length;
    await post(running('static-header').url, '{ user(id: "user-1") { id name } }');
    await post(running('base').url, '{ user(id: "user-1") { id name } }');
    const [withRule, without] = users.requests.slice(before);
    expect(withRule?.headers.source).toBe('gateway');
    expect(without?.headers).not.toHaveProperty('source');
  });

  it('guid-headers: x-trace-1 … x-trace-10 are distinct UUIDv4s, new on every response (base has none)', async () => {
    const { url } = running('guid-headers');
    const first = traceHeaders(await post(url, '{ user(id: "user-1") { id name } }'));
    const second = traceHeaders(await post(url, '{ __typename }', { 'apollo-require-preflight': 'true' }));
    for (const value of [...first, ...second]) expect(value).toMatch(UUID_V4);
    expect(new Set([...first, ...second]).size).toBe(20);

    const base = await post(running('base').url, '{ __typename }', { 'apollo-require-preflight': 'true' });
    expect(base.headers.get('x-trace-1')).toBeNull();
  });
});
