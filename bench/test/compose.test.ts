/**
 * docker-compose.yml, checked without a Docker engine: valid against the Compose Specification
 * JSON schema (the copy dclint ships, schemas/compose.schema.json), and naming the same ports,
 * supergraph and Router config as the native setup.
 */

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ROOT } from '@fedgw/test-support';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROUTER_CONFIGS, ROUTER_SUBGRAPHS, ROUTER_VERSION } from '../src/router-binary.js';

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
        PORT: '4000',
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

  it('runs `pnpm bench --external` against every target, each of them healthy first', () => {
    const bench = service('bench');
    const [pnpm, script, ...args] = bench.command ?? [];
    expect([pnpm, script]).toEqual(['pnpm', 'bench']);
    const externals = args.filter((_, i) => args[i - 1] === '--external');
    expect(externals.length).toBe(args.length / 2);
    const targets = externals.map((spec) => {
      const [label, url] = spec.split('=');
      const { hostname, port, pathname } = new URL(url ?? '');
      return { label, hostname, port: Number(port), pathname };
    });
    expect(targets.map((t) => t.label)).toEqual(expect.arrayContaining(['nest-fastify', 'apollo-router']));
    for (const t of targets) {
      const s = service(t.hostname);
      expect(t.pathname).toBe('/graphql');
      expect((s.ports ?? []).map(portMapping).map((p) => p.container)).toContain(t.port);
      expect(bench.depends_on?.[t.hostname]?.condition).toBe('service_healthy');
    }
    expect(new Set(targets.map((t) => t.hostname))).toEqual(
      new Set([...Object.keys(GATEWAYS), 'gateway-nest-fastify-redis', 'apollo-router']),
    );
  });
});
