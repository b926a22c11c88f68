import { describe, expect, it } from 'vitest';
import { categoryOf, packageOf } from '../src/profile/categories.js';
import { parseProfileOptions } from '../src/profile/options.js';
import { type CpuProfile, summarizeProfile } from '../src/profile/summarize.js';

const PNPM = 'file:///repo/node_modules/.pnpm';
const frame = (functionName: string, url: string) => ({ functionName, url });

describe('profile categories', () => {
  it('names the package of the innermost node_modules, as pnpm nests them', () => {
    const url = `${PNPM}/@apollo+gateway@2.14.0/node_modules/@apollo/gateway/dist/resultShaping.js`;
    expect(packageOf(url)).toBe('@apollo/gateway');
    expect(categoryOf(frame('updateOutputValue', url))).toBe('execution and merge (@apollo/gateway)');
    expect(packageOf(`${PNPM}/undici@8.12.4/node_modules/undici/lib/core/util.js`)).toBe('undici');
    expect(packageOf('file:///repo/gateway/dist/create-gateway.js')).toBeNull();
  });

  it('tells planning, HTTP, logging, ours, Node core, JSON and GC apart', () => {
    const cases: [string, string, string][] = [
      [
        'get',
        `${PNPM}/@apollo+federation-internals@2.14.0/node_modules/@apollo/federation-internals/dist/index.js`,
        'federation-internals (schema helpers for planning and execution)',
      ],
      [
        'plan',
        `${PNPM}/@apollo+query-planner@2.14.0/node_modules/@apollo/query-planner/dist/buildPlan.js`,
        'query planning',
      ],
      ['x', `${PNPM}/@fastify+busboy@3/node_modules/@fastify/busboy/lib/main.js`, 'HTTP server (fastify)'],
      ['redact', `${PNPM}/@pinojs+redact@0.4/node_modules/@pinojs/redact/index.js`, 'logging (pino)'],
      ['process', 'file:///repo/gateway/dist/subgraph-data-source.js', 'our gateway: core and data source'],
      ['limit', 'file:///repo/gateway/dist/plugins/rate-limit/index.js', 'our gateway: plugins'],
      ['listen', 'file:///repo/adapters/dist/fastify.js', 'our adapters and server'],
      ['onStreamRead', 'node:internal/stream_base_commons', 'Node core (net, http, streams, timers)'],
      ['writev', '', 'Node core (net, http, streams, timers)'],
      ['parse', '', 'JSON parse and stringify'],
      ['(garbage collector)', '', 'garbage collection'],
      ['(program)', '', 'V8 and native (program, builtins)'],
      ['leftPad', `${PNPM}/left-pad@1/node_modules/left-pad/index.js`, 'other libraries'],
    ];
    for (const [name, url, category] of cases) expect([name, categoryOf(frame(name, url))]).toEqual([name, category]);
  });
});

describe('summarizeProfile', () => {
  // Node 1 idle, 2 GC, 3 our data source, 4 undici; each sample carries the µs before it.
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(idle)', '') },
      { id: 2, callFrame: frame('(garbage collector)', '') },
      {
        id: 3,
        callFrame: { ...frame('process', 'file:///repo/gateway/dist/subgraph-data-source.js'), lineNumber: 87 },
      },
      { id: 4, callFrame: frame('_resume', `${PNPM}/undici@8/node_modules/undici/lib/dispatcher/client.js`) },
    ],
    samples: [1, 2, 3, 3, 4, 1],
    timeDeltas: [5000, 1000, 2000, 4000, 3000, 5000],
  };

  it('sums self time per part, package and function, and leaves idle time out of the shares', () => {
    const summary = summarizeProfile(profile);
    expect(summary).toMatchObject({ busyMs: 10, idleMs: 10 });
    expect(summary.categories).toEqual([
      { name: 'our gateway: core and data source', ms: 6, percent: 60 },
      { name: 'HTTP client to subgraphs (undici)', ms: 3, percent: 30 },
      { name: 'garbage collection', ms: 1, percent: 10 },
    ]);
    expect(summary.packages.map((share) => share.name)).toEqual(['(ours)', 'undici', '(native, node:)']);
    expect(summary.functions[0]).toEqual({
      name: 'process (gateway/dist/subgraph-data-source.js:88)',
      ms: 6,
      percent: 60,
    });
  });

  it('keeps only the top entries of packages and functions, never of parts', () => {
    const summary = summarizeProfile(profile, 1);
    expect(summary.functions).toHaveLength(1);
    expect(summary.packages).toHaveLength(1);
    expect(summary.categories).toHaveLength(3);
  });
});

describe('profile options', () => {
  it('defaults to nest-fastify, ComplexQuery, no plugin', () => {
    expect(parseProfileOptions([])).toMatchObject({ target: 'nest-fastify', query: 'ComplexQuery', setup: 'none' });
  });

  it('names every bad option at once', () => {
    const problems = (() => {
      try {
        parseProfileOptions(['--query', 'Nope', '--duration=-1', '--node-flags=oops']);
        return [];
      } catch (error) {
        return (error as Error).message.split('\n').sort();
      }
    })();
    expect(problems).toEqual([
      '--duration: "-1" is not a positive number',
      '--node-flags: not a Node flag: oops (each starts with --)',
      '--query: "Nope" is not one of GetUserWithProducts, ComplexQuery, Dashboard',
    ]);
  });
});
