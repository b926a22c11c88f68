import { MOUNTS, subgraphUrlEnv } from '@fedgw/test-support';
import { serverAudits } from 'graphql-http';
import { describe, expect, it } from 'vitest';
import { gatewayForBlock, subgraphsForFile } from '../support/lifecycle.js';

/**
 * The GraphQL-over-HTTP spec's audit suite (graphql-http's `serverAudits`) against every mount:
 * no audit may fail. Warnings (a SHOULD the gateway does otherwise) are listed by name, so a
 * new one shows up as a diff here rather than silently.
 */
const subgraphs = subgraphsForFile();

/**
 * The SHOULDs the gateway answers otherwise (docs/browsers-and-clients.md): for a client that
 * accepts only `application/json`, the spec suggests 200 for a request error; Apollo Server and
 * the Router answer 400, which is what the error codes' documented statuses say.
 */
const EXPECTED_WARNINGS: readonly string[] = [
  'SHOULD use 200 status code on document parsing failure when accepting application/json',
  'SHOULD use 200 status code on document validation failure when accepting application/json',
  'SHOULD use a status code of 200 on variable coercion failure when accepting application/json',
];

describe.each(MOUNTS)('GraphQL over HTTP audits on %s', (mount) => {
  // Two audits query `__type` (a UTF-8 name, variables): introspection on, as the spec's examples assume.
  const gateway = gatewayForBlock(mount, () => ({ ...subgraphUrlEnv(subgraphs()), INTROSPECTION: 'true' }));

  it('passes every MUST; the SHOULDs it does not follow are the known ones', async () => {
    const results = await Promise.all(
      serverAudits({ url: () => gateway().url }).map(async (audit) => ({ audit, result: await audit.fn() })),
    );
    const failed = results
      .filter(({ result }) => result.status === 'error')
      .map(({ audit, result }) => `${audit.name}: ${result.status === 'error' ? result.reason : ''}`);
    const warned = results.filter(({ result }) => result.status === 'warn').map(({ audit }) => audit.name);
    expect(failed).toEqual([]);
    expect(warned).toEqual(EXPECTED_WARNINGS);
    expect(results.length).toBeGreaterThan(40);
  });
});
