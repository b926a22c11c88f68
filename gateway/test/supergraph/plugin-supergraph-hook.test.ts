// The plugin contract's supergraph hook: every plugin sees each supergraph before it serves
// (start and hot reload), and one that throws refuses it without leaving any plugin behind.
import { readFileSync } from 'node:fs';
import { mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, SUPERGRAPH_PATH } from '@fedgw/test-support';
import type { GraphQLObjectType } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/compose/create-gateway.js';
import { parseConfig } from '../../src/config/parse.js';
import type { GatewayEvent, GatewayPlugin, Supergraph } from '../../src/contract/index.js';
import type { Gateway } from '../../src/gateway-core.js';
import { captureLogger } from '../helpers/captured-logger.js';
import { requestScope } from '../plugins/helpers/scope.js';

const SUPERGRAPH = readFileSync(SUPERGRAPH_PATH, 'utf8');
/** The same graph plus one field in products: a supergraph that differs in its API schema. */
const WITH_SKU = SUPERGRAPH.replace(/(type Product\b[^{]*\{\n)/, '$1  sku: String @join__field(graph: PRODUCTS)\n');

const gateways: Gateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop().catch(() => {})));
});

/** A plugin that records what it is shown and refuses a supergraph when `refuse` says so. */
function watcher(name: string, refuse: (supergraph: Supergraph) => boolean = () => false) {
  const seen: Supergraph[] = [];
  const plugin: GatewayPlugin = {
    name,
    onSupergraph(supergraph) {
      seen.push(supergraph);
      if (refuse(supergraph)) throw new Error(`${name} cannot serve this one`);
    },
  };
  return { plugin, seen, current: () => seen.at(-1) };
}

/** Whether the API schema has the added field. */
const hasSku = (supergraph: Supergraph | undefined) =>
  Boolean((supergraph?.schema.getType('Product') as GraphQLObjectType | undefined)?.getFields().sku);

/** Product's fields as introspection shows them to a client. */
async function introspectProduct(gateway: Gateway): Promise<string> {
  const contextValue = await gateway.context(requestScope());
  const response = await gateway.server.executeOperation(
    { query: '{ __type(name: "Product") { fields { name } } }' },
    { contextValue },
  );
  return JSON.stringify(response.body);
}

async function startOn(initial: string, plugins: GatewayPlugin[]) {
  const dir = await mkdtemp(join(tmpdir(), 'supergraph-hook-'));
  const path = join(dir, 'supergraph.graphql');
  await writeFile(path, initial);
  const events: GatewayEvent[] = [];
  const gateway = createGateway(
    parseConfig({ SUPERGRAPH_PATH: path, SUPERGRAPH_POLL_INTERVAL_MS: '100', INTROSPECTION: 'true' }),
    {
      logger: captureLogger('warn').logger,
      plugins: [...plugins, { name: 'observer', onEvent: (event) => events.push(event) }],
    },
  );
  gateways.push(gateway);
  const write = async (text: string) => {
    await writeFile(`${path}.tmp`, text);
    await rename(`${path}.tmp`, path);
  };
  const loads = () => events.filter((event) => event.type === 'supergraph-load');
  return { gateway, write, loads };
}

describe('GatewayPlugin.onSupergraph', () => {
  it('is shown the supergraph at start: its SDL, API schema and subgraphs', async () => {
    const first = watcher('first');
    const { gateway } = await startOn(SUPERGRAPH, [first.plugin]);
    await gateway.start();
    expect(first.seen).toHaveLength(1);
    expect(first.current()?.sdl).toBe(SUPERGRAPH);
    expect([...(first.current()?.subgraphs ?? [])].sort()).toEqual(['products', 'reviews', 'users']);
    expect(first.current()?.schema.getQueryType()?.getFields().topProducts).toBeDefined();
    // The API schema, not the supergraph's: no join directives' types.
    expect(first.current()?.schema.getType('join__Graph')).toBeUndefined();
  });

  it('refusing at start stops the gateway from starting, naming the plugin', async () => {
    const strict = watcher('strict', () => true);
    const { gateway } = await startOn(SUPERGRAPH, [strict.plugin]);
    await expect(gateway.start()).rejects.toThrow(/plugin strict refused it: strict cannot serve this one/);
    expect(gateway.isReady()).toBe(false);
  });

  it('is shown each reloaded supergraph before it serves', async () => {
    const first = watcher('first');
    const { gateway, write, loads } = await startOn(SUPERGRAPH, [first.plugin]);
    await gateway.start();
    await write(WITH_SKU);
    await eventually(() => expect(loads()).toHaveLength(2));
    expect(loads()[1]).toMatchObject({ outcome: 'applied' });
    expect(first.seen).toHaveLength(2);
    expect(hasSku(first.current())).toBe(true);
    const answer = await introspectProduct(gateway);
    expect(answer).toContain('"sku"');
  });

  it('a refused reload keeps the previous supergraph, and plugins that took the new one are given the previous back', async () => {
    const first = watcher('first');
    const strict = watcher('strict', hasSku);
    const last = watcher('last');
    const { gateway, write, loads } = await startOn(SUPERGRAPH, [first.plugin, strict.plugin, last.plugin]);
    await gateway.start();
    await write(WITH_SKU);
    await eventually(() => expect(loads()).toHaveLength(2));
    expect(loads()[1]).toMatchObject({
      outcome: 'rejected',
      reason: expect.stringContaining('plugin strict refused it'),
    });
    // first saw the new one, then the previous again; last never saw the refused one.
    expect(first.seen.map(hasSku)).toEqual([false, true, false]);
    expect(first.current()?.sdl).toBe(SUPERGRAPH);
    expect(last.seen.map(hasSku)).toEqual([false]);
    const answer = await introspectProduct(gateway);
    expect(answer).toContain('"inStock"');
    expect(answer).not.toContain('"sku"');
    expect(gateway.isReady()).toBe(true);
  });
});
