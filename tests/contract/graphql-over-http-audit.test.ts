import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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
const GRAPHQL_HTTP_VERSION = (createRequire(import.meta.url)('graphql-http/package.json') as { version: string })
  .version;

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

/** The notices (a MAY, reported for information): listed by name as the warnings are. */
const EXPECTED_NOTICES: readonly string[] = [
  'MAY accept application/x-www-form-urlencoded formatted GET requests',
  'MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/graphql-response+json',
  'MAY allow URL-encoded JSON string {variables} parameter in GETs when accepting application/json',
];

/**
 * What the audit reports, by status: docs/browsers-and-clients.md states these numbers, and the
 * last test checks that it still does.
 */
const EXPECTED_COUNTS = { ok: 55, warn: EXPECTED_WARNINGS.length, notice: EXPECTED_NOTICES.length, error: 0 };

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
    const noticed = results.filter(({ result }) => result.status === 'notice').map(({ audit }) => audit.name);
    const counts = { ok: 0, warn: 0, notice: 0, error: 0 };
    for (const { result } of results) counts[result.status] += 1;
    expect(failed).toEqual([]);
    expect(warned).toEqual(EXPECTED_WARNINGS);
    expect(noticed).toEqual(EXPECTED_NOTICES);
    expect(counts).toEqual(EXPECTED_COUNTS);
  });
});

describe('the docs state what the audit reports', () => {
  it('docs/browsers-and-clients.md gives the counts this suite asserts', async () => {
    const docs = await readFile(new URL('../../docs/browsers-and-clients.md', import.meta.url), 'utf8');
    const { ok, warn, notice, error } = EXPECTED_COUNTS;
    const total = ok + warn + notice + error;
    expect(docs.replace(/\s+/g, ' ')).toContain(
      `(${total} audits in version ${GRAPHQL_HTTP_VERSION}), runs against every mount in ` +
        `\`tests/contract/graphql-over-http-audit.test.ts\`: ${ok} pass, ${error} fail, ${warn} warn and ${notice} notice`,
    );
  });
});
