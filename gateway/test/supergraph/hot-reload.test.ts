import { readFileSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, manualClock, SUPERGRAPH_PATH } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { createGateway } from '../../src/compose/create-gateway.js';
import { parseConfig } from '../../src/config/parse.js';
import type { GatewayEvent } from '../../src/contract/index.js';
import type { Gateway } from '../../src/gateway-core.js';
import { captureLogger } from '../helpers/captured-logger.js';
import { requestScope } from '../plugins/helpers/scope.js';

const SUPERGRAPH = readFileSync(SUPERGRAPH_PATH, 'utf8');
/** The same supergraph with a smaller list-size assumption, so its cost estimates differ. */
const SMALLER_LISTS = SUPERGRAPH.replace('@listSize(assumedSize: 25)', '@listSize(assumedSize: 2)');
/** Costs more with larger `Product.reviews` lists; refused (MAX_COST=1) before any subgraph is asked. */
const PROBE = '{ product(id: "1") { reviews { id } } }';

const gateways: Gateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop()));
});

/**
 * A gateway in this process over a supergraph file in a temp directory, polled every 100 ms:
 * on a clock the test moves (`poll()`: one poll, the reload it started included, over when it
 * resolves), or on the real clock with `{ realClock: true }`.
 */
async function startOn(initial: string, options: { realClock?: boolean } = {}) {
  const clock = manualClock();
  const dir = await mkdtemp(join(tmpdir(), 'hot-reload-'));
  const path = join(dir, 'supergraph.graphql');
  await writeFile(path, initial);
  const events: GatewayEvent[] = [];
  const log = captureLogger('debug');
  const gateway = createGateway(
    parseConfig({ SUPERGRAPH_PATH: path, SUPERGRAPH_POLL_INTERVAL_MS: '100', MAX_COST: '1' }),
    {
      logger: log.logger,
      plugins: [{ name: 'observer', onEvent: (event) => events.push(event) }],
      ...(options.realClock ? {} : { clock }),
    },
  );
  gateways.push(gateway);
  await gateway.start();
  const write = async (text: string) => {
    await writeFile(`${path}.tmp`, text);
    await rename(`${path}.tmp`, path);
  };
  /** The probe's estimated cost, read from the demand-control refusal. */
  const probeCost = async () => {
    const contextValue = await gateway.context(requestScope());
    const response = await gateway.server.executeOperation({ query: PROBE }, { contextValue });
    if (response.body.kind !== 'single') throw new Error('expected a single result');
    const [error] = response.body.singleResult.errors ?? [];
    expect(error?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    return error?.extensions?.estimatedCost as number;
  };
  const loads = () => events.filter((event) => event.type === 'supergraph-load');
  return { gateway, write, probeCost, loads, log, path, clock, poll: () => clock.advance(100) };
}

describe('supergraph hot reload (file)', () => {
  it('reports the first load, applies a new supergraph, and the cost estimator follows it (on the real clock)', async () => {
    const { gateway, write, probeCost, loads } = await startOn(SMALLER_LISTS, { realClock: true });
    expect(loads()).toEqual([{ type: 'supergraph-load', outcome: 'applied', source: 'file' }]);
    const before = await probeCost();

    await write(SUPERGRAPH);
    await eventually(() => expect(loads()).toHaveLength(2));
    expect(loads()[1]).toEqual({ type: 'supergraph-load', outcome: 'applied', source: 'file' });
    expect(await probeCost()).toBeGreaterThan(before);
    expect(gateway.isReady()).toBe(true);
  });

  it('rejects an invalid supergraph, logs why without its text, and keeps serving the old one', async () => {
    const { gateway, write, probeCost, loads, log, poll } = await startOn(SUPERGRAPH);
    const before = await probeCost();

    await write('type Query { secretField: String }');
    await poll();
    expect(loads()).toHaveLength(2);
    const rejected = loads()[1];
    expect(rejected).toMatchObject({ type: 'supergraph-load', outcome: 'rejected', source: 'file' });
    expect(rejected?.type === 'supergraph-load' && rejected.reason).toEqual(expect.any(String));
    const warning = log.lines.find((line) => line.msg === 'new supergraph rejected; the previous one keeps serving');
    expect(warning).toMatchObject({ level: 40, source: 'file', component: 'supergraph' });
    expect(JSON.stringify(log.lines)).not.toContain('secretField');

    expect(await probeCost()).toBe(before);
    expect(gateway.isReady()).toBe(true);
    // Fixed: the next good supergraph is applied.
    await write(SMALLER_LISTS);
    await poll();
    expect(loads().at(-1)?.outcome).toBe('applied');
    expect(await probeCost()).toBeLessThan(before);
  });

  it('keeps serving while the file is gone, reporting it once, and loads it when it is back', async () => {
    const { write, probeCost, loads, path, poll } = await startOn(SUPERGRAPH);
    const before = await probeCost();
    await rm(path);
    await poll();
    expect(loads()).toHaveLength(2);
    expect(loads()[1]).toMatchObject({ outcome: 'rejected', reason: expect.stringMatching(/^unreadable: ENOENT/) });
    for (let i = 0; i < 4; i++) await poll(); // several polls of a missing file
    expect(loads()).toHaveLength(2);
    expect(await probeCost()).toBe(before);
    await write(SMALLER_LISTS);
    await poll();
    expect(loads().at(-1)?.outcome).toBe('applied');
  });

  it('stops polling when the gateway stops', async () => {
    const { gateway, write, loads, clock } = await startOn(SUPERGRAPH);
    await gateway.stop();
    expect(clock.scheduled).toBe(0);
    await write(SMALLER_LISTS);
    await clock.advance(400);
    expect(loads()).toHaveLength(1);
  });
});
