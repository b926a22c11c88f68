import { readFileSync } from 'node:fs';
import { closedPortUrl, postGraphQL, type RunningGateway, startGateway } from '@fedgw/test-support';
import { afterEach, describe, expect, it } from 'vitest';

// Class: a request whose failure is expensive. Validation is quadratic in fields of one name
// (graphql-js's OverlappingFieldsCanBeMerged): an 11.5 KB document of 1,100 fields took 170 ms
// of CPU to validate, and then failed or ran. Such documents are refused before validation,
// and every request, failing or not, is charged to the rate limit before it is parsed.

/** 550 times the same field with arguments and a selection: 1,100 fields, under MAX_TOKENS. */
const OVERLAPPING = `{ ${'user(id: "1") { id } '.repeat(550)} }`;
let gateway: RunningGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

/** The process's CPU time (user + system) in ms, from /proc (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(env: Record<string, string> = {}): Promise<RunningGateway> {
  gateway = await startGateway('fastify', {
    SUBGRAPH_USERS_URL: await closedPortUrl(),
    SUBGRAPH_PRODUCTS_URL: await closedPortUrl(),
    SUBGRAPH_REVIEWS_URL: await closedPortUrl(),
    ...env,
  });
  return gateway;
}

/** Sends `query` `count` times in a row; the gateway's CPU per request and the statuses. */
async function loop(target: RunningGateway, query: string, count: number) {
  const pid = target.child.pid as number;
  const before = cpuMs(pid);
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    // A different text each time (a comment), so no cache of checked or parsed documents helps.
    statuses.push((await postGraphQL(target.url, { query: `# ${i}\n${query}` })).status);
  }
  const perRequestMs = (cpuMs(pid) - before) / count;
  console.log(`validation-cost: ${perRequestMs.toFixed(1)} ms of gateway CPU per request`);
  return { perRequestMs, statuses };
}

describe('documents that are expensive to validate', () => {
  it('are refused before validation, at a few ms of CPU each (the limit: MAX_FIELDS)', async () => {
    const target = await start();
    const first = await postGraphQL(target.url, { query: OVERLAPPING });
    expect(first.status).toBe(400);
    expect(first.body.errors?.[0]?.extensions?.code).toBe('OPERATION_LIMIT_EXCEEDED');
    expect(first.body.errors?.[0]?.message).toMatch(/1100 fields; the limit is 500/);
    const { perRequestMs, statuses } = await loop(target, OVERLAPPING, 40);
    expect(new Set(statuses)).toEqual(new Set([400]));
    // Validating each would be ~170 ms; generous, for a shared 2-core machine.
    expect(perRequestMs).toBeLessThan(40);
  });

  it('a client over its rate limit is refused before its document is parsed', async () => {
    const target = await start({ GATEWAY_PLUGINS: 'rate-limit', RATE_LIMIT_MAX: '5', MAX_FIELDS: '100000' });
    // With the field limit lifted, the first five are validated (expensive) and counted; the rest never are.
    const { statuses } = await loop(target, OVERLAPPING, 5);
    expect(statuses.every((status) => status !== 429)).toBe(true);
    const { perRequestMs, statuses: refused } = await loop(target, OVERLAPPING, 40);
    expect(new Set(refused)).toEqual(new Set([429]));
    expect(perRequestMs).toBeLessThan(40);
  });

  it('an invalid document reports at most 10 validation errors', async () => {
    const target = await start();
    const unknown = `{ ${Array.from({ length: 200 }, (_, i) => `nope${i}`).join(' ')} }`;
    const result = await postGraphQL(target.url, { query: unknown });
    expect(result.status).toBe(400);
    expect(result.body.errors?.length).toBeLessThanOrEqual(11);
  });
});
