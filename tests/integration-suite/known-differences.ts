import { request as httpRequest } from 'node:http';
import type { CreateServerForIntegrationTests } from '@apollo/server-integration-testsuite';
import type { TestContext } from 'vitest';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Mount } from './create-server.js';

/**
 * Testsuite cases skipped because our mounts deliberately answer differently (listed,
 * with the reason, in SKIPPED.md). Keyed by the full test name: the describe blocks and
 * the test title joined with ' > ', as vitest prints them.
 */
interface KnownDifference {
  reason: string;
  /** Default: every mount. */
  mounts?: readonly Mount[];
}

export const KNOWN_DIFFERENCES: Readonly<Record<string, KnownDifference>> = {
  'integration tests > httpServerTests.ts > graphqlHTTP > throws an error if POST JSON is malformed': {
    reason:
      'our mounts answer body-parse errors with their own JSON error (400, BAD_REQUEST, same on every platform); ' +
      "the case wants the framework's message text ('in JSON at position 1' / 'Bad Request' / 'Invalid JSON')",
  },
  'integration tests > httpServerTests.ts > graphqlHTTP > GET request with array body is not interpreted as batch': {
    reason:
      'our mounts refuse a GET with a body (400, BAD_REQUEST, same on every platform; adapters/src/get-body.ts): ' +
      'a GET body has no meaning and can smuggle a request; the case wants it ignored',
  },
};

/**
 * Registers a file-level beforeEach that skips the listed cases (vitest's `context.skip`),
 * so the testsuite runs unmodified. Call it before `defineIntegrationTestSuite`.
 */
export function skipKnownDifferences(mount: Mount): void {
  beforeEach((context) => {
    const difference = KNOWN_DIFFERENCES[fullName(context.task)];
    if (difference && (!difference.mounts || difference.mounts.includes(mount))) {
      context.skip(difference.reason);
    }
  });
}

/** The describe names (not the file's) and the test's, as vitest prints them. */
function fullName(task: TestContext['task']): string {
  const names = [task.name];
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) names.unshift(suite.name);
  return names.join(' > ');
}

/** What our mounts answer instead, so a skipped case still pins down a behaviour. */
export function defineKnownDifferenceChecks(createServer: CreateServerForIntegrationTests): void {
  describe('known differences', () => {
    it('answers malformed JSON with 400 and our own BAD_REQUEST error', async () => {
      const { server, url, extraCleanup } = await createServer({ typeDefs: 'type Query { x: ID }' });
      try {
        const response = await fetch(`${url}/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{foo',
        });
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
        expect(await response.json()).toEqual({
          errors: [{ message: 'Malformed request body: it is not valid JSON.', extensions: { code: 'BAD_REQUEST' } }],
        });
      } finally {
        await server.stop();
        await extraCleanup?.();
      }
    });

    it('refuses a GET with a body with 400 and our own BAD_REQUEST error, not running it', async () => {
      const { server, url, extraCleanup } = await createServer({
        typeDefs: 'type Query { x: ID }',
        allowBatchedHttpRequests: true,
      });
      try {
        const { status, body } = await getWithBody(`${url}/?query=%7Bx%7D`, '[1, 2]');
        expect(status).toBe(400);
        expect(JSON.parse(body)).toEqual({
          errors: [
            {
              message: 'A GET request must not have a body: send the operation in the query string, or POST it.',
              extensions: { code: 'BAD_REQUEST' },
            },
          ],
        });
      } finally {
        await server.stop();
        await extraCleanup?.();
      }
    });
  });
}

/** fetch() cannot send a GET with a body; node:http can. */
function getWithBody(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'GET',
        headers: {
          'apollo-require-preflight': 't',
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
