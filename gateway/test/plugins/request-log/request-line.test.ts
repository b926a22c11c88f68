import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { logRequest, MAX_LOGGED_CHARS } from '../../../src/plugins/request-log/index.js';
import { requestScope } from '../helpers/scope.js';

/** The request line `logRequest` writes for a scope, parsed. */
function lineFor(scope: ReturnType<typeof requestScope>): Record<string, unknown> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  logRequest(pino({ level: 'info' }, sink), scope, 200);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0] as string);
}

describe('the request line', () => {
  it('keeps a path and operation name of ordinary length as they are', () => {
    const scope = { ...requestScope(), url: '/graphql?query=x', operationName: 'GetUser' };
    expect(lineFor(scope)).toMatchObject({ path: '/graphql', operationName: 'GetUser', status: 200 });
  });

  it("cuts a client's long operation name, batch names and path to MAX_LOGGED_CHARS, marked, and never splits a surrogate pair", () => {
    const long = 'A'.repeat(3000);
    // The cut would fall between the two halves of the emoji: the whole pair is left out instead.
    const astral = `${'B'.repeat(MAX_LOGGED_CHARS - 1)}😀tail`;
    const scope = {
      ...requestScope(),
      url: `/${'p'.repeat(10_000)}?q=1`,
      operationName: long,
      batchOperations: [
        { ...requestScope(), operationName: astral },
        { ...requestScope(), operationName: undefined },
      ],
    };
    const line = lineFor(scope);
    expect(line.operationName).toBe(`${'A'.repeat(MAX_LOGGED_CHARS)}…`);
    expect(line.path).toBe(`/${'p'.repeat(MAX_LOGGED_CHARS - 1)}…`);
    expect(line.batch).toEqual([`${'B'.repeat(MAX_LOGGED_CHARS - 1)}…`, null]);
    expect(JSON.stringify(line).length).toBeLessThan(4 * MAX_LOGGED_CHARS);
  });
});
