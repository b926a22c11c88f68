// Each setup is checked to do what its row claims before it is timed: against the real
// subgraphs (counting the header they receive) and the real gateway process on one mount.
import { freePort } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAnswers } from '../src/load/answer-check.js';
import { COMPLEX, GET_USER_WITH_PRODUCTS_QUERY } from '../src/load/queries.js';
import { type RunningSink, startSinkProcess } from '../src/observe/sink-process.js';
import type { RowPlan } from '../src/run/plan.js';
import { checkLimitInOwnProcess, checkSetup } from '../src/targets/setup-check.js';
import { createSetups, type Setup, type SetupContext, type Setups } from '../src/targets/setups.js';
import { startTarget, type TargetEnvironment } from '../src/targets/start-target.js';
import { type RunningSubgraphs, startSubgraphs } from '../src/targets/subgraph-processes.js';
import type { TargetSpec } from '../src/targets/targets.js';
import { freeConsecutivePorts } from './ports.js';

const FASTIFY: TargetSpec = { name: 'fastify', kind: 'mount' };
const QUERY = GET_USER_WITH_PRODUCTS_QUERY;

let setups: Setups;
let subgraphs: RunningSubgraphs;
let environment: TargetEnvironment;

beforeAll(async () => {
  setups = await createSetups();
  const base = await freeConsecutivePorts(4);
  subgraphs = await startSubgraphs(base + 1, undefined);
  environment = {
    port: base,
    subgraphUrls: subgraphs.urls,
    cpus: undefined,
    nodeFlags: [],
    router: null,
    setupContext: {},
  };
}, 60_000);

afterAll(() => subgraphs?.stop());

async function withTarget<T>(
  setup: Setup,
  use: (url: string) => Promise<T>,
  target = FASTIFY,
  setupContext: SetupContext = {},
): Promise<T> {
  const running = await startTarget(target, setup, { ...environment, setupContext });
  try {
    return await use(running.url);
  } finally {
    await running.stop();
  }
}

const subgraphUrls = () => Object.values(subgraphs.urls);
const row = (setup: Setup): RowPlan => ({
  target: FASTIFY,
  setup,
  variant: setup.key,
  query: QUERY,
  load: { kind: 'closed', connections: 1 },
  durationSec: 1,
  warmupSec: 0,
});

describe('the static-header setup', () => {
  it('passes when every subgraph request carries the header', async () => {
    const check = await withTarget(setups['static-header'], (url) =>
      checkSetup(url, setups['static-header'], QUERY, subgraphUrls()),
    );
    expect(check).toEqual({ ok: true });
  });

  it('fails when the gateway does not send it (the claim without the header rule)', async () => {
    const claimed = { ...setups.none, subgraphHeader: setups['static-header'].subgraphHeader };
    const check = await withTarget(claimed, (url) => checkSetup(url, claimed, QUERY, subgraphUrls()));
    expect(check).toEqual({ ok: false, message: 'a subgraph request arrived without the "source" header' });
  });
});

describe('setups with credentials', () => {
  it('refuse a request without the API key and one with a forged token', async () => {
    const setup = setups['rate-limit+api-key+jwt'];
    expect(await withTarget(setup, (url) => checkSetup(url, setup, QUERY, subgraphUrls()))).toEqual({ ok: true });
  });

  it('fail the check when the plugin that should refuse is not on', async () => {
    const claimed: Setup = { ...setups['rate-limit'], refusals: setups['rate-limit+api-key'].refusals };
    const check = await withTarget(claimed, (url) => checkSetup(url, claimed, QUERY, subgraphUrls()));
    expect(check).toEqual({ ok: false, message: 'a request with no API key answered HTTP 200, expected 401' });
  });
});

describe('the rate-limit check, in a process of its own', () => {
  it('passes when the request past the lowered limit is refused with 429', async () => {
    expect(await checkLimitInOwnProcess(row(setups['rate-limit+api-key']), environment)).toBeNull();
  });

  it('fails when nothing limits', async () => {
    const claimed: Setup = { ...setups.none, limitCheck: { max: 3 } };
    expect(await checkLimitInOwnProcess(row(claimed), environment)).toBe(
      'rate limit 3: 4 requests answered, none refused with 429',
    );
  });
});

describe('standalone-undici', () => {
  it('answers both §A queries exactly', async () => {
    const check = await withTarget(
      setups.none,
      (url) => checkAnswers({ url, queries: [QUERY, COMPLEX], userIds: ['user-1', 'user-77', 'user-1000'] }),
      { name: 'standalone-undici', kind: 'standalone' },
    );
    expect(check).toEqual({ ok: true, checked: 6 });
  });
});

// Each observing setup is proven on before §D times it: metrics answer on their port, traces reach the sink.
describe('the metrics setup', () => {
  it('passes when the metrics port serves prom-client text', async () => {
    const metricsPort = await freePort();
    const check = await withTarget(
      setups.metrics,
      (url) => checkSetup(url, setups.metrics, QUERY, subgraphUrls(), { metricsPort }),
      FASTIFY,
      { metricsPort },
    );
    expect(check).toEqual({ ok: true });
  });

  it('fails when nothing serves metrics (the claim without METRICS_ENABLED)', async () => {
    const metricsPort = await freePort();
    const claimed: Setup = { ...setups.none, metrics: true };
    const check = await withTarget(claimed, (url) => checkSetup(url, claimed, QUERY, subgraphUrls(), { metricsPort }));
    expect(check).toEqual({
      ok: false,
      message: `metrics: nothing answers on METRICS_PORT ${metricsPort} (ECONNREFUSED)`,
    });
  });
});

describe('the tracing setups', () => {
  let sink: RunningSink;
  beforeAll(async () => {
    sink = await startSinkProcess(undefined);
  }, 30_000);
  afterAll(() => sink?.process.stop());

  it('pass when the gateway exports to the sink (100% sampled)', async () => {
    const setup = setups['tracing-100%'];
    const check = await withTarget(
      setup,
      (url) => checkSetup(url, setup, QUERY, subgraphUrls(), { sinkCounts: sink.counts }),
      FASTIFY,
      { otlpEndpoint: sink.endpoint },
    );
    expect(check).toEqual({ ok: true });
  }, 60_000);

  it('fail when the gateway does not trace', async () => {
    const claimed: Setup = { ...setups.none, traceCheck: { requests: 5 } };
    const check = await withTarget(claimed, (url) =>
      checkSetup(url, claimed, QUERY, subgraphUrls(), { sinkCounts: sink.counts }),
    );
    expect(check).toEqual({
      ok: false,
      message: 'tracing: 5 requests, and no export reached the OTLP sink within 15 s',
    });
  }, 60_000);
});
