/**
 * docker-compose.yml and the Dockerfile, checked without a Docker engine: the compose file is
 * valid against the Compose Specification JSON schema (the copy dclint ships,
 * schemas/compose.schema.json) and names the same ports, supergraph and Router config as the
 * native setup; its bench service passes the CLI's own option parser and plans only rows it can
 * run; the images, replayed here, hold no bench dependency and start every service.
 */

import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { available, ROOT, startRedis } from '@fedgw/test-support';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { postJson } from '../src/load/http-post.js';
import { GET_USER_WITH_PRODUCTS_QUERY, requestBody } from '../src/load/queries.js';
import { type BenchOptions, parseOptions } from '../src/run/options.js';
import { planScenarios, SCENARIO_IDS } from '../src/scenarios/index.js';
import { type ManagedProcess, spawnManaged } from '../src/targets/child.js';
import { waitForGraphQL } from '../src/targets/readiness.js';
import { ROUTER_CONFIGS, ROUTER_SUBGRAPHS, ROUTER_VERSION } from '../src/targets/router-binary.js';
import { createSetups } from '../src/targets/setups.js';
import { type ReplayedRuns, replayCopies, replayRuns } from './docker-replay.js';
import { parseDockerfile, type Stage, stage } from './dockerfile.js';
import { freeConsecutivePorts } from './ports.js';
import { installedPackageNames, runtimeClosure, workspacePackages } from './workspace.js';

const REPO_ROOT = ROOT;
const require = createRequire(import.meta.url);

interface Service {
  image?: string;
  build?: { context?: string; target?: string };
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition?: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
  restart?: string;
}
interface ComposeFile {
  services: Record<string, Service>;
}

const GATEWAYS = {
  'gateway-nest-fastify': { runtime: 'nest', adapter: 'fastify' },
  'gateway-nest-express': { runtime: 'nest', adapter: 'express' },
  'gateway-fastify': { runtime: 'bare', adapter: 'fastify' },
  'gateway-express': { runtime: 'bare', adapter: 'express' },
} as const;

/** `users` → 4001 etc., as the checked-in supergraph (the native setup) has them. */
async function nativeSubgraphPorts(): Promise<Record<string, number>> {
  const sdl = await readFile(join(REPO_ROOT, 'supergraph.graphql'), 'utf8');
  const ports: Record<string, number> = {};
  for (const [, name, port] of sdl.matchAll(
    /@join__graph\(name: "([^"]+)", url: "http:\/\/127\.0\.0\.1:(\d+)\/graphql"\)/g,
  )) {
    if (name && port) ports[name] = Number(port);
  }
  return ports;
}

/** `"4010:4000"` → { host: 4010, container: 4000 }. */
function portMapping(spec: string): { host: number; container: number } {
  const match = /^(?:(\d+):)?(\d+)$/.exec(spec);
  if (!match?.[2]) throw new Error(`unexpected port spec ${spec}`);
  return { host: Number(match[1] ?? match[2]), container: Number(match[2]) };
}

let compose: ComposeFile;
let services: Record<string, Service>;
const service = (name: string): Service => {
  const found = services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
};

beforeAll(async () => {
  // Compose merges `<<: *anchor` keys; so does yaml with merge: true.
  compose = parse(await readFile(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as ComposeFile;
  services = compose.services;
});

describe('docker-compose.yml against the Compose Specification schema', () => {
  const loadValidator = async () => {
    const schemaPath = join(dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
    const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as Record<string, unknown>;
    // The spec names its meta-schema https://json-schema.org/draft-07/schema; Ajv registers
    // draft-07 under its canonical id, so point at that (same meta-schema).
    expect(schema.$schema).toMatch(/draft-07/);
    return new Ajv({ allErrors: true, strict: false }).compile({
      ...schema,
      $schema: 'http://json-schema.org/draft-07/schema#',
    });
  };

  it('is valid', async () => {
    const validate = await loadValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema does reject a broken file (it is not vacuous)', async () => {
    const validate = await loadValidator();
    const broken = structuredClone(compose) as unknown as { services: Record<string, Record<string, unknown>> };
    (broken.services.users as Record<string, unknown>).healthcheck = { test: ['CMD', 'true'], intervall: '5s' };
    (broken.services.redis as Record<string, unknown>).ports = '6379';
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/services/users/healthcheck', '/services/redis/ports']),
    );
  });
});

describe('docker-compose.yml matches the native setup', () => {
  it('runs each subgraph on its native port (4001-4003, from supergraph.graphql)', async () => {
    const native = await nativeSubgraphPorts();
    expect(native).toEqual({ users: 4001, products: 4002, reviews: 4003 });
    for (const [name, port] of Object.entries(native)) {
      const s = service(name);
      expect(s.command).toEqual(['node', `subgraphs/dist/${name}/main.js`]);
      expect(s.environment).toMatchObject({ HOST: '0.0.0.0', PORT: String(port) });
      expect(s.ports?.map(portMapping)).toEqual([{ host: port, container: port }]);
    }
  });

  it('points the gateways and the Router at the subgraph services on those ports', async () => {
    const native = await nativeSubgraphPorts();
    const expected = Object.fromEntries(
      ROUTER_SUBGRAPHS.map((name) => [`SUBGRAPH_${name.toUpperCase()}_URL`, `http://${name}:${native[name]}/graphql`]),
    );
    for (const name of [...Object.keys(GATEWAYS), 'gateway-nest-fastify-redis', 'apollo-router']) {
      expect(service(name).environment, name).toMatchObject(expected);
    }
  });

  it('has the gateway on each of the four mounts, on port 4000 inside and distinct host ports', () => {
    const hostPorts = new Set<number>();
    for (const [name, mount] of Object.entries(GATEWAYS)) {
      const s = service(name);
      expect(s.environment, name).toMatchObject({
        GATEWAY_RUNTIME: mount.runtime,
        GATEWAY_ADAPTER: mount.adapter,
        GATEWAY_LISTEN_PORT: '4000',
      });
      const [mapping, ...more] = (s.ports ?? []).map(portMapping);
      expect(more).toEqual([]);
      expect(mapping?.container).toBe(4000);
      if (mapping) hostPorts.add(mapping.host);
    }
    expect(hostPorts.size).toBe(4);
  });

  it(`runs the official Router image pinned to ROUTER_VERSION (${ROUTER_VERSION}) with the native supergraph and ${ROUTER_CONFIGS.base}`, () => {
    const router = service('apollo-router');
    expect(router.image).toBe(`ghcr.io/apollographql/router:v${ROUTER_VERSION}`);
    const mounts = Object.fromEntries(
      (router.volumes ?? []).map((v) => {
        const [host, container] = v.split(':');
        return [container, host];
      }),
    );
    const args = router.command ?? [];
    const argAfter = (flag: string) => args[args.indexOf(flag) + 1] ?? '';
    expect(mounts[argAfter('--supergraph')]).toBe('./supergraph.graphql');
    expect(mounts[argAfter('--config')]).toBe(`./${ROUTER_CONFIGS.base}`);
    expect(router.environment).toMatchObject({ ROUTER_LISTEN: '0.0.0.0:4000', APOLLO_TELEMETRY_DISABLED: 'true' });
    expect((router.ports ?? []).map(portMapping).map((p) => p.container)).toEqual([4000]);
  });

  it('builds the Node services from the Dockerfile stages that exist', async () => {
    const dockerfile = await readFile(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const stages = [...dockerfile.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
    for (const [name, s] of Object.entries(services)) {
      if (s.build) expect(stages, name).toContain(s.build.target);
    }
  });

  it('pins Redis to an exact version', () => {
    expect(service('redis').image).toMatch(/^redis:\d+\.\d+\.\d+/);
  });

  it('has a healthcheck on every long-running service; only the one-shot bench job disables it', () => {
    for (const [name, s] of Object.entries(services)) {
      if (name === 'bench') {
        expect(s.restart).toBe('no');
        expect(s.healthcheck).toEqual({ disable: true });
      } else {
        expect(s.healthcheck?.test?.length, `${name} has no healthcheck test`).toBeGreaterThan(1);
      }
    }
  });
});

describe('the bench service', () => {
  /** The services the bench measures and the setup each was started with. */
  const MEASURED = {
    'gateway-nest-fastify': 'none',
    'gateway-nest-express': 'none',
    'gateway-fastify': 'none',
    'gateway-express': 'none',
    'gateway-nest-fastify-redis': 'rate-limit-redis',
    'apollo-router': 'none',
  } as const;

  /** What `pnpm bench <args>` hands the CLI: the root script ends in the CLI, so the args follow verbatim. */
  async function benchOptions(): Promise<BenchOptions> {
    const [pnpm, script, ...args] = service('bench').command ?? [];
    expect([pnpm, script]).toEqual(['pnpm', 'bench']);
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.bench?.split('&&').at(-1)?.trim()).toBe('node bench/dist/cli.js');
    const options = parseOptions(args);
    if (options === 'help') throw new Error('the bench service asks for --help');
    return options;
  }

  it("passes the CLI's option parser: every section, only externals, each healthy first", async () => {
    const options = await benchOptions();
    expect(options).toMatchObject({ mode: 'full', scenarios: SCENARIO_IDS });
    const declared = Object.fromEntries(
      options.targets.map((target) => {
        expect(target.kind, target.name).toBe('external');
        const { hostname, port, pathname } = new URL(target.url ?? '');
        const s = service(hostname);
        expect(pathname).toBe('/graphql');
        expect((s.ports ?? []).map(portMapping).map((p) => p.container)).toContain(Number(port));
        expect(service('bench').depends_on?.[hostname]?.condition).toBe('service_healthy');
        return [hostname, target.setup];
      }),
    );
    expect(declared).toEqual(MEASURED);
  });

  it('declares each external with the setup its service really runs', async () => {
    const setups = await createSetups();
    for (const target of (await benchOptions()).targets) {
      const { hostname } = new URL(target.url ?? '');
      const environment = service(hostname).environment ?? {};
      const setup = setups[target.setup ?? 'none'];
      expect(environment, hostname).toMatchObject(setup.gatewayEnv({ redisUrl: environment.GATEWAY_REDIS_URL ?? '' }));
      if (setup.key === 'none') expect(environment.GATEWAY_PLUGINS, hostname).toBeUndefined();
    }
  });

  it('plans rows in every section, none needing a target of its own, a Router binary or redis-server', async () => {
    const options = await benchOptions();
    const plans = planScenarios(options.scenarios, {
      targets: options.targets,
      setups: await createSetups(),
      // The build stage the bench runs in has neither.
      router: null,
      redisAvailable: false,
      closedSec: 30,
      fixedSec: 60,
      warmupSec: 5,
      connections: 100,
      adapterConnections: [50, 200, 500],
      constantRate: 100,
      rates: [100, 300, 500],
    });
    const rows = plans.flatMap((plan) => plan.rows.map((row) => ({ plan: plan.id, ...row })));
    expect(rows.filter((row) => row.skip || row.target.kind !== 'external')).toEqual([]);
    const count = (id: string, name: string) =>
      rows.filter((row) => row.plan === id && row.target.name === name).length;
    const plain = options.targets.filter((target) => target.setup === 'none');
    expect(plain).toHaveLength(5);
    for (const { name } of plain) {
      expect(
        ['A', 'B', 'C', 'D', 'E'].map((id) => count(id, name)),
        name,
      ).toEqual([2, 6, 1, 1, 0]);
    }
    const redis = rows.filter((row) => row.target.setup === 'rate-limit-redis');
    expect(redis.map((row) => `${row.plan} ${row.variant} ${row.load.kind === 'fixed' ? row.load.rate : ''}`)).toEqual([
      'E rate-limit (redis) 100',
      'E rate-limit (redis) 300',
      'E rate-limit (redis) 500',
    ]);
  });
});

/**
 * The images, replayed here: each deps stage's own install line runs in a copy of the
 * manifests (offline, from the pnpm store the workspace install filled), and each final
 * stage's COPY lines assemble its /app from that and from the built working tree. `runtime` is
 * the gateway; `subgraphs` the demo's subgraphs, which the gateway image does not carry.
 */
const IMAGES = [
  { target: 'runtime', deps: 'prod-deps' },
  { target: 'subgraphs', deps: 'subgraph-deps' },
] as const;
type Target = (typeof IMAGES)[number]['target'];

describe('Dockerfile: the runtime and subgraphs images, without a Docker engine', () => {
  let work: string;
  let stages: Stage[];
  const assembled = {} as Record<Target, { dir: string; replayed: ReplayedRuns; installSeconds: number }>;

  beforeAll(async () => {
    stages = parseDockerfile(await readFile(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
    work = await mkdtemp(join(tmpdir(), 'runtime-image-'));
    for (const { target, deps } of IMAGES) {
      const depsStage = stage(stages, deps);
      const depsDir = join(work, deps);
      await mkdir(depsDir);
      await replayCopies(depsStage, depsDir, { context: REPO_ROOT, stages: {} });
      const started = performance.now();
      const replayed = await replayRuns(depsStage, depsDir, ['--offline']);
      const installSeconds = (performance.now() - started) / 1000;
      const dir = join(work, target);
      await replayCopies(stage(stages, target), dir, {
        context: REPO_ROOT,
        stages: {
          // The build stage is the working tree after `tsc -b` (the tests run after the build).
          build: { dir: REPO_ROOT, workdir: '/app' },
          [deps]: { dir: depsDir, workdir: depsStage.workdir, move: true },
        },
      });
      assembled[target] = { dir, replayed, installSeconds };
    }
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** The workspace packages an image's entry points live in: its CMD and the commands of the compose services built from it. */
  async function entryPackages(target: Target): Promise<string[]> {
    const packages = await workspacePackages(REPO_ROOT);
    const built = Object.values(services).filter((s) => s.build?.target === target);
    const commands = [stage(stages, target).cmd ?? [], ...built.map((s) => s.command ?? [])];
    const dirs = new Set(commands.map(([node, script]) => (node === 'node' ? script?.split('/')[0] : undefined)));
    return packages.filter((p) => dirs.has(p.dir)).map((p) => p.name);
  }

  it.each(IMAGES)(
    '$target: installs with the pinned pnpm, filtered to the packages its entry points run',
    async ({ target }) => {
      const manifest = JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as {
        packageManager: string;
      };
      const { replayed, installSeconds } = assembled[target];
      expect(`pnpm@${replayed.pnpmVersion}`).toBe(manifest.packageManager);
      const [install] = replayed.pnpmCommands;
      expect(install?.slice(0, 3)).toEqual(['install', '--frozen-lockfile', '--prod']);
      const roots = install?.filter((_, i) => install[i - 1] === '--filter-prod').map((f) => f.replace(/\.\.\.$/, ''));
      expect(new Set(roots)).toEqual(new Set(await entryPackages(target)));
      // Reported, not asserted: the replayed install is the slow part of this file.
      console.info(`${target} deps install (offline): ${installSeconds.toFixed(1)} s`);
    },
  );

  it.each(IMAGES)(
    '$target: holds what its packages depend on, and nothing of the bench or the dev tools',
    async ({ target }) => {
      const packages = await workspacePackages(REPO_ROOT);
      const closure = runtimeClosure(packages, await entryPackages(target));
      const installed = await installedPackageNames(
        assembled[target].dir,
        closure.map((p) => p.dir),
      );
      const expected =
        target === 'runtime'
          ? ['@apollo/gateway', 'fastify', 'express', '@nestjs/core', 'undici', 'ioredis']
          : ['@apollo/subgraph'];
      for (const name of expected) expect(installed, name).toContain(name);
      for (const p of closure) {
        for (const name of Object.keys(p.dependencies)) expect(installed, `${p.name} needs ${name}`).toContain(name);
      }
      // What only the bench depends on (autocannon...), the bench itself, and the root's dev tools.
      const bench = packages.find((p) => p.name === '@fedgw/bench');
      const benchOnly = Object.keys(bench?.dependencies ?? {}).filter(
        (name) => !closure.some((p) => p.name === name || name in p.dependencies),
      );
      expect(benchOnly).toContain('autocannon');
      for (const name of [
        '@fedgw/bench',
        ...benchOnly,
        'playwright-core',
        'vitest',
        'typescript',
        '@biomejs/biome',
        'pino-pretty',
      ]) {
        expect(installed, name).not.toContain(name);
      }
      // The gateway image holds no subgraph code, nor what only the subgraphs depend on.
      if (target === 'runtime') expect(installed).not.toContain('@apollo/subgraph');
    },
  );

  it.each(IMAGES)(
    '$target: copies the manifest, dist and node_modules of exactly the workspace packages its entry points need',
    async ({ target }) => {
      const packages = await workspacePackages(REPO_ROOT);
      const needed = runtimeClosure(packages, await entryPackages(target)).map((p) => p.dir);
      expect(needed.sort()).toEqual(target === 'runtime' ? ['adapters', 'gateway', 'server'] : ['subgraphs']);
      for (const { dir } of packages) {
        const present = await readdir(join(assembled[target].dir, dir)).catch(() => null);
        if (needed.includes(dir))
          expect(present?.sort(), dir).toEqual(expect.arrayContaining(['dist', 'node_modules', 'package.json']));
        else expect(present, `${dir} is not needed at run time`).toBeNull();
      }
    },
  );

  // The compose file's Redis is a real redis-server here: without one this case skips (listed at the end).
  it.skipIf(!available('redis-server', import.meta.url))(
    'starts: every service of docker-compose.yml built from them answers from its assembled /app',
    async () => {
      const runtimeServices = Object.entries(services).filter(([, s]) =>
        IMAGES.some((i) => i.target === s.build?.target),
      );
      const port = await freeConsecutivePorts(runtimeServices.length);
      const ports = Object.fromEntries(runtimeServices.map(([name], i) => [name, port + i]));
      const redis = await startRedis();
      const started: ManagedProcess[] = [];
      const local = (url: string) => {
        const { hostname, pathname } = new URL(url);
        if (hostname === 'redis') return redis.url;
        return `http://127.0.0.1:${ports[hostname]}${pathname}`;
      };
      try {
        const start = async (name: string, s: Service) => {
          const target = s.build?.target as Target;
          const [node, ...args] = s.command ?? stage(stages, target).cmd ?? [];
          expect(node).toBe('node');
          const environment = Object.fromEntries(
            Object.entries(s.environment ?? {}).map(([key, value]) => [
              key,
              /^\w+:\/\//.test(value) ? local(value) : value,
            ]),
          );
          const child = spawnManaged({
            name,
            command: process.execPath,
            args,
            cwd: assembled[target].dir,
            env: {
              PATH: process.env.PATH ?? '',
              ...stage(stages, target).env,
              ...environment,
              // Subgraphs read HOST/PORT, gateways GATEWAY_LISTEN_* (ADR 039): a free port for either.
              HOST: '127.0.0.1',
              PORT: String(ports[name]),
              GATEWAY_LISTEN_HOST: '127.0.0.1',
              GATEWAY_LISTEN_PORT: String(ports[name]),
            },
          });
          started.push(child);
          await waitForGraphQL(`http://127.0.0.1:${ports[name]}/graphql`, child, 30_000);
        };
        const subgraphs = runtimeServices.filter(([name]) => !name.startsWith('gateway-'));
        const gateways = runtimeServices.filter(([name]) => name.startsWith('gateway-'));
        await Promise.all(subgraphs.map(([name, s]) => start(name, s)));
        await Promise.all(gateways.map(([name, s]) => start(name, s)));
        expect(gateways.length).toBe(5);
        for (const [name] of gateways) {
          const response = await postJson(
            `http://127.0.0.1:${ports[name]}/graphql`,
            requestBody(GET_USER_WITH_PRODUCTS_QUERY, 'user-7'),
          );
          expect(response.status, `${name}: ${response.text}`).toBe(200);
          expect(JSON.parse(response.text), name).toEqual({ data: GET_USER_WITH_PRODUCTS_QUERY.expected('user-7') });
        }
      } finally {
        await Promise.all(started.map((child) => child.stop()));
        await redis.stop();
      }
    },
    120_000,
  );
});
