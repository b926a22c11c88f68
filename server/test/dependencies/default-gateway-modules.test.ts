import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postGraphQL, startGateway } from '@fedgw/test-support';
import { describe, expect, it } from 'vitest';

// ADR 044, ADR 051: what the default gateway never uses stays out of its live set (every MB of it
// is about 2 MB of peak RSS at a heap growing factor of 2), where that is our code's doing or the
// @apollo/gateway patch's (the other dependencies' eager loads cost too little to patch: ADR 051).
// A gateway started as the tests start it, which answers a request and stops, must not have
// loaded any of these; a new eager import of one (ours, or @apollo/gateway's after an upgrade
// loses its patch) fails here.
const NEVER_LOADED = [
  '@opentelemetry/semantic-conventions/dist/index-incubating', // @apollo/gateway's data collection
  '@opentelemetry/sdk-metrics',
  '/make-fetch-happen/', // RemoteGraphQLDataSource
  '/node-fetch/',
  '@apollo/usage-reporting-protobuf', // ftv1 traces
  '@apollo/composition', // composing supergraph managers
  '/undici/index.js', // all of undici: the gateway uses its Pool
  '/undici/lib/web/',
];

describe('the default gateway', () => {
  it('never loads what only an optional feature uses', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'loads-')), 'loads.json');
    const fixture = new URL('../fixtures/record-loads.mjs', import.meta.url).pathname;
    const gateway = await startGateway('nest-fastify', { NODE_OPTIONS: `--import=${fixture}`, RECORD_LOADS_LOG: log });
    expect((await postGraphQL(gateway.url, { query: '{ __typename }' })).status).toBe(200);
    await gateway.stop('SIGTERM');
    const { files } = JSON.parse(readFileSync(log, 'utf8')) as { files: string[] };
    expect(files.length).toBeGreaterThan(500); // the hook did see the gateway load
    expect(NEVER_LOADED.filter((text) => files.some((url) => url.includes(text)))).toEqual([]);
  });
});
