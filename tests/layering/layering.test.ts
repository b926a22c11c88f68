import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ROOT, SUPERGRAPH_PATH } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

const LOADED_MODULES = fileURLToPath(new URL('./loaded-modules.mjs', import.meta.url));

/** Every module file a fresh Node process loads to import `specifier` (see loaded-modules.mjs). */
async function modulesLoadedBy(specifier: string, mode = ''): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, [LOADED_MODULES, specifier, mode], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', SUPERGRAPH_PATH },
  });
  return JSON.parse(stdout) as string[];
}

/** The packages among `files` (`express`, `@nestjs/core`...), as node_modules names them. */
function packagesIn(files: readonly string[]): Set<string> {
  const names = files.flatMap((file) => {
    const match = file.match(/.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    return match?.[1] ? [match[1]] : [];
  });
  return new Set(names);
}

const FRAMEWORKS = [
  'express',
  'fastify',
  '@nestjs/common',
  '@nestjs/core',
  '@nestjs/platform-express',
  '@nestjs/platform-fastify',
];
const PLUGIN_LIBRARIES = ['jose', 'ioredis'];
// Loaded only when OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT turns tracing on.
const TRACING_SDK = [
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
];

describe('layering: each layer loads only what it uses', () => {
  it('the core (@fedgw/gateway) loads no HTTP framework, no NestJS, neither jose nor ioredis', async () => {
    const packages = packagesIn(await modulesLoadedBy('@fedgw/gateway'));
    expect(packages.has('@apollo/gateway')).toBe(true); // the probe sees what is loaded
    for (const name of [...FRAMEWORKS, ...PLUGIN_LIBRARIES]) expect(packages, name).not.toContain(name);
  });

  it('a gateway started with no plugins enabled and no tracing loads neither jose, ioredis nor the tracing SDK', async () => {
    const packages = packagesIn(await modulesLoadedBy('@fedgw/gateway', 'start-gateway'));
    expect(packages.has('undici')).toBe(true);
    for (const name of [...FRAMEWORKS, ...PLUGIN_LIBRARIES, ...TRACING_SDK]) expect(packages, name).not.toContain(name);
  });

  it("the plugin SDK (an operator plugin's one import) loads no framework, neither jose nor ioredis, nor the tracing SDK", async () => {
    const packages = packagesIn(await modulesLoadedBy('@fedgw/gateway/plugin-sdk'));
    expect(packages.has('graphql')).toBe(true); // the probe sees what is loaded
    for (const name of [...FRAMEWORKS, ...PLUGIN_LIBRARIES, ...TRACING_SDK]) expect(packages, name).not.toContain(name);
  });

  it('the contract is types only: importing it loads no other module', async () => {
    const files = await modulesLoadedBy('@fedgw/gateway/contract');
    expect(files.filter((file) => !file.endsWith('loaded-modules.mjs'))).toEqual([
      expect.stringMatching(/gateway\/dist\/contract\/index\.js$/),
    ]);
  });

  it.each([
    ['@fedgw/adapters/fastify', 'fastify', 'express'],
    ['@fedgw/adapters/express', 'express', 'fastify'],
  ])('%s loads its framework, not the other one, and nothing of NestJS', async (specifier, own, other) => {
    const packages = packagesIn(await modulesLoadedBy(specifier));
    expect(packages).toContain(own);
    expect(packages).not.toContain(other);
    for (const name of FRAMEWORKS.filter((framework) => framework.startsWith('@nestjs/'))) {
      expect(packages).not.toContain(name);
    }
  });

  it('the server package loads a framework only once a runtime is chosen', async () => {
    const packages = packagesIn(await modulesLoadedBy('@fedgw/server'));
    for (const name of [...FRAMEWORKS, ...PLUGIN_LIBRARIES]) expect(packages, name).not.toContain(name);
  });
});

describe('layering: the adapters depend on the core for types only', () => {
  it('no compiled adapter module imports @fedgw/gateway at run time', async () => {
    const dist = join(ROOT, 'adapters/dist');
    const modules = (await readdir(dist)).filter((file) => file.endsWith('.js'));
    expect(modules.length).toBeGreaterThan(5);
    for (const file of modules) {
      const code = await readFile(join(dist, file), 'utf8');
      expect(code, file).not.toMatch(/['"]@fedgw\/gateway/);
    }
    const sources = await readFile(join(ROOT, 'adapters/src/express.ts'), 'utf8');
    expect(sources).toMatch(/import type .* from '@fedgw\/gateway\/contract'/); // the probe reads real imports
  });

  it('no core module imports an adapter, the server or a framework', async () => {
    const files = await modulesLoadedBy('@fedgw/gateway');
    const ours = files.filter((file) => file.includes('/dist/') && !file.includes('/node_modules/'));
    expect(ours.length).toBeGreaterThan(10);
    for (const file of ours) expect(file).toMatch(/\/gateway\/dist\//);
  });
});
