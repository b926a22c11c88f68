// An operator's own plugin in the shipped entry point: GATEWAY_CONFIG_FILE names ESM modules in
// its `plugins` list, resolved from the file's folder; `pnpm start` (scripts/launch.mjs running
// server/dist/main.js, as the package script does) loads them at start, and refuses to start,
// naming the entry and the reason, when one cannot make a plugin.
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type GatewayError, parseConfig } from '@fedgw/gateway';
import { postGraphQL, ROOT, type RunningProcess, spawnNode } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPluginModules } from '../src/plugin-modules.js';

const FIXTURES = `${ROOT}server/test/fixtures/plugin-modules`;

/** A config file in a folder of its own, naming modules relative to that folder. */
function configFile(content: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'fedgw-plugins-')), 'gateway.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

const BASE_ENV = {
  GATEWAY_LISTEN_PORT: '0',
  GATEWAY_LISTEN_HOST: '127.0.0.1',
  GATEWAY_LOG_PRETTY: 'false',
  SUPERGRAPH_PATH: `${ROOT}supergraph.graphql`,
};
const listening = /"url":"(http:\/\/[^"]+)".*"msg":"gateway listening"/;

/** What `pnpm start` runs: the launcher in front of the compiled entry point. */
function pnpmStart(env: Record<string, string>) {
  return spawnNode('scripts/launch.mjs', { ...BASE_ENV, ...env }, listening, ['server/dist/main.js']);
}

describe('`pnpm start` with plugin modules in GATEWAY_CONFIG_FILE', () => {
  let gateway: RunningProcess;
  let url: string;
  beforeAll(async () => {
    // As docs/plugins.md lays it out: the module in `plugins/` beside the file, named relatively.
    const file = configFile({
      plugins: [
        'client-awareness',
        { module: './plugins/maintenance.mjs', options: { subgraphs: ['products'], message: 'back at noon' } },
      ],
    });
    mkdirSync(join(file, '..', 'plugins'));
    copyFileSync(`${FIXTURES}/maintenance.mjs`, join(file, '..', 'plugins', 'maintenance.mjs'));
    const started = await pnpmStart({ GATEWAY_CONFIG_FILE: file });
    gateway = started.process;
    url = started.match[1] as string;
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('loads the module and runs its plugin with the options the file gives it', async () => {
    const answer = await postGraphQL(url, { query: '{ topProducts(first: 1) { id } }' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: null,
      errors: [expect.objectContaining({ message: 'products: back at noon', extensions: expect.any(Object) })],
    });
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('SUBGRAPH_UNAVAILABLE');
  });
});

describe('a plugin module that cannot make a plugin stops the start', () => {
  it('a missing module: exit 1, and the fatal line names the entry and the file', async () => {
    const file = configFile({ plugins: [{ module: './maint.mjs' }] });
    const started = pnpmStart({ GATEWAY_CONFIG_FILE: file });
    const error = await started.then(
      () => undefined,
      (failure: Error) => failure,
    );
    expect(error?.message).toMatch(/exited with 1 before it was ready/);
    const fatal = (error?.message ?? '').split('\n').find((line) => line.includes('"level":60'));
    expect(JSON.parse(fatal as string)).toMatchObject({
      msg: 'gateway failed to start',
      code: 'ERR_GATEWAY_PLUGIN_MODULE_INVALID',
      err: { message: expect.stringContaining(`${file}: plugins[0] (./maint.mjs): no such file `) },
    });
  });

  it.each([
    ['throws.mjs', 'its factory threw: options.subgraphs: expected a list of subgraph names'],
    ['not-a-plugin.mjs', 'its factory returned undefined (no return?), not a plugin (an object with a string `name`)'],
    [
      'no-default.mjs',
      'its default export is undefined (no default export?), not a factory `(options) => GatewayPlugin`',
    ],
  ])('%s: refused, naming the entry and the reason', async (module, reason) => {
    const file = configFile({ plugins: [{ module: `${FIXTURES}/${module}`, options: {} }] });
    const config = parseConfig({ GATEWAY_CONFIG_FILE: file });
    const error = await loadPluginModules(config.pluginModules).catch((failure: GatewayError) => failure);
    expect((error as GatewayError).code).toBe('ERR_GATEWAY_PLUGIN_MODULE_INVALID');
    expect((error as GatewayError).message).toBe(
      `plugin module ${file}: plugins[0] (${FIXTURES}/${module}): ${reason}`,
    );
  });
});

describe('the config file: module entries beside built-in names', () => {
  it('resolves modules from the file folder, keeps built-in names, refuses a package name or a stray key', () => {
    const file = configFile({ plugins: ['client-awareness', { module: './a.mjs', options: { x: 1 } }] });
    const config = parseConfig({ GATEWAY_CONFIG_FILE: file });
    expect(config.plugins).toEqual(['client-awareness']);
    expect(config.pluginModules).toEqual([
      { entry: `${file}: plugins[1] (./a.mjs)`, path: join(file, '..', 'a.mjs'), options: { x: 1 } },
    ]);
    const bad = configFile({ plugins: [{ module: 'maint' }, { module: './b.mjs', option: {} }, {}] });
    expect(() => parseConfig({ GATEWAY_CONFIG_FILE: bad })).toThrow(
      /plugins\[0\]: module "maint" must be a file path[\s\S]*plugins\[1\]: unknown key option[\s\S]*plugins\[2\]: expected \{ "module"/,
    );
  });

  it('GATEWAY_PLUGINS replaces the file built-in names and keeps its modules', () => {
    const file = configFile({ plugins: ['client-awareness', { module: './a.mjs' }] });
    const config = parseConfig({ GATEWAY_CONFIG_FILE: file, GATEWAY_PLUGINS: 'none' });
    expect(config.plugins).toEqual([]);
    expect(config.pluginModules?.map((entry) => entry.entry)).toEqual([`${file}: plugins[1] (./a.mjs)`]);
  });
});
