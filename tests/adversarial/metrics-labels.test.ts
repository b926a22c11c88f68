import { mkdtemp, writeFile } from 'node:fs/promises';
import { METHODS, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postGraphQL, type RunningGateway, startGateway, subgraphUrlEnv } from '@fedgw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrape } from '../contract/metrics-scrape.js';
import { subgraphsForFile } from '../support/lifecycle.js';

/**
 * The operation-name label of the request metrics is shared by every client: one sending
 * junk names must not take the slots the real operations need. Real HTTP to the compiled
 * gateway (METRICS_MAX_OPERATION_NAMES and METRICS_OPERATION_NAME_MIN_COUNT at their
 * defaults, 100 and 10) over the real subgraphs; the scrape is parsed as Prometheus parses it.
 */
const REQUESTS = 'gateway_graphql_requests_total';
const GET_USER = 'query GetUser { user(id: "user-1") { id name } }';
const GET_PRODUCT = 'query GetProduct { product(id: "product-1") { id name } }';
// 100 products × (1 + 25 reviews × (1 + author 1 + 15 reviews)): over MAX_COST, refused.
const PRICEY = 'query Pricey { topProducts(first: 100) { reviews { author { reviews { id } } } } }';

const subgraphs = subgraphsForFile();
let gateway: RunningGateway;

async function send(query: string, times = 1): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) statuses.push((await postGraphQL(gateway.url, { query })).status);
  return statuses;
}

async function labels(): Promise<{ names: Set<string>; value(name: string, outcome: string): number }> {
  const result = await scrape(`${gateway.origin}/metrics`);
  return {
    names: new Set(result.samples(REQUESTS).map((sample) => sample.labels.operation_name as string)),
    value: (name, outcome) => result.value(REQUESTS, { operation_name: name, outcome }),
  };
}

describe('metrics operation-name labels under a flood of junk names', () => {
  beforeAll(async () => {
    gateway = await startGateway('fastify', { ...subgraphUrlEnv(subgraphs()), METRICS_ENABLED: 'true' });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it("550 junk names (valid, invalid, refused) neither take a real operation's slot nor grow the label set", async () => {
    // A real operation already in use, not yet at the minimum count.
    expect(await send(GET_PRODUCT, 4)).toEqual([200, 200, 200, 200]);

    // The flood: 500 one-off valid names (more than the candidate table holds), 50 names of
    // operations that fail validation, one refused operation repeated past the minimum.
    for (let i = 0; i < 500; i++) expect(await send(`query Junk${i} { __typename }`)).toEqual([200]);
    for (let i = 0; i < 50; i++) expect(await send(`query Invalid${i} { noSuchField }`)).toEqual([400]);
    expect(new Set(await send(PRICEY, 12))).toEqual(new Set([400]));

    // A real operation that first appears after the flood, and the one from before it.
    expect(new Set(await send(GET_USER, 15))).toEqual(new Set([200]));
    expect(new Set(await send(GET_PRODUCT, 10))).toEqual(new Set([200]));

    const after = await labels();
    expect(after.names).toEqual(new Set(['GetUser', 'GetProduct', '__other', '__unresolved']));
    // Counted under their own name from the 10th sighting on; the earlier ones are `__other`.
    expect(after.value('GetUser', 'ok')).toBe(15 - 9);
    expect(after.value('GetProduct', 'ok')).toBe(14 - 9);
    expect(after.value('__other', 'ok')).toBe(500 + 9 + 9);
    expect(after.value('__other', 'rejected')).toBe(12);
    expect(after.value('__unresolved', 'rejected')).toBe(50);
  });

  it('a junk name repeated past the minimum takes a slot, but never one already given, and the set stays bounded', async () => {
    for (let round = 0; round < 10; round++) {
      for (let i = 0; i < 120; i++) await send(`query Repeat${i} { __typename }`);
    }
    expect(new Set(await send(GET_USER, 3))).toEqual(new Set([200]));
    const after = await labels();
    expect(after.value('GetUser', 'ok')).toBe(6 + 3);
    // 100 names at most (GetUser, GetProduct and 98 of the repeated ones), plus the special values.
    expect(after.names.size).toBe(100 + 2);
    expect([...after.names].filter((name) => name.startsWith('Repeat'))).toHaveLength(98);
  });
});

describe('with trusted documents (enforce), only manifest operations can hold a label', () => {
  beforeAll(async () => {
    const manifest = join(await mkdtemp(join(tmpdir(), 'metrics-labels-')), 'manifest.json');
    await writeFile(manifest, JSON.stringify({ 'get-user-v1': GET_USER }));
    gateway = await startGateway('fastify', {
      ...subgraphUrlEnv(subgraphs()),
      METRICS_ENABLED: 'true',
      TRUSTED_DOCUMENTS: manifest,
    });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('gives a manifest operation its value at once, and none to names outside the manifest', async () => {
    for (let i = 0; i < 200; i++) expect(await send(`query Junk${i} { __typename }`)).toEqual([400]);
    expect(await send(GET_USER)).toEqual([200]);
    const after = await labels();
    expect(after.value('GetUser', 'ok')).toBe(1);
    expect([...after.names].filter((name) => !name.startsWith('__'))).toEqual(['GetUser']);
  });
});

describe('the HTTP histogram under spoofed methods and paths', () => {
  const HTTP_COUNT = 'http_server_request_duration_seconds_count';
  beforeAll(async () => {
    gateway = await startGateway('express', { ...subgraphUrlEnv(subgraphs()), METRICS_ENABLED: 'true' });
  });
  afterAll(async () => {
    expect(await gateway?.stop()).toBe(0);
  });

  it('every method Node accepts and 300 made-up paths take a bounded set of label values', async () => {
    // Each method Node's parser lets through (WebDAV, QUERY, SOURCE…), on the GraphQL path and beside it.
    for (const method of METHODS.filter((name) => name !== 'CONNECT')) {
      await rawRequest(`${gateway.origin}/graphql`, method);
      await rawRequest(`${gateway.origin}/${method.toLowerCase()}-${Math.random()}`, method);
    }
    for (let i = 0; i < 300; i++) await rawRequest(`${gateway.origin}/probe/${i}/${'x'.repeat(i)}?q=${i}`, 'GET');
    await rawRequest(`${gateway.origin}/graphql?query=%7B__typename%7D`, 'GET');

    const result = await scrape(`${gateway.origin}/metrics`);
    const samples = result.samples(HTTP_COUNT);
    const values = (label: string) => new Set(samples.map((sample) => sample.labels[label]));
    const known = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'QUERY', 'TRACE', '_OTHER'];
    expect([...values('http_request_method')].every((method) => known.includes(method as string))).toBe(true);
    expect(values('http_request_method')).toContain('_OTHER');
    expect(values('http_route')).toEqual(new Set(['/graphql', '_OTHER']));
    // 2 routes × 10 methods × the statuses the gateway chose: a few dozen series at most, whatever was sent.
    expect(samples.length).toBeLessThan(40);
    const total = samples.reduce((sum, sample) => sum + sample.value, 0);
    expect(total).toBe(2 * (METHODS.length - 1) + 300 + 1);
    expect(result.text).not.toContain('probe/');
    expect(result.text).not.toContain('PROPFIND');
  });
});

/** One request with any method (fetch refuses some); resolves to the status. */
function rawRequest(url: string, method: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const outgoing = request(url, { method }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
