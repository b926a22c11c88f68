import { describe, expect, it } from 'vitest';
import { headerRules } from '../../src/plugins/header-rules/index.js';
import { DEFAULT_OPERATION_LIMITS, operationLimits } from '../../src/plugins/operation-limits/index.js';
import { responseHeaders } from '../../src/plugins/response-headers/index.js';
import { issueFields, optionsError } from './helpers/options-error.js';

/** Every plugin refuses option keys it does not know, naming them: a typo must not be silently ignored. */
describe('unknown option keys', () => {
  it('header-rules: at the top, in a rule and in a response rule', () => {
    const error = optionsError('header-rules', () =>
      headerRules({
        all: [
          { propagate: { named: 'x-tenant', renamed: 'x-tenant-id' } },
          { insert: { name: 'source', value: 'gw' }, remove: { named: 'x-debug' } },
        ],
        response: [{ name: 'cache-control', strategy: 'first' }],
        subgraph: {},
      } as never),
    );
    expect(issueFields(error)).toEqual(['all[0]', 'all[1]', 'response[0]', 'subgraph']);
    expect(error.message).toContain(
      'all[0]: unknown propagate option renamed (known: named, matching, rename, default)',
    );
    expect(error.message).toContain('all[1]: expected exactly one of propagate, insert, remove; got insert, remove');
    expect(error.message).toContain('response[0]: unknown option strategy (known: name, merge)');
  });

  it('header-rules and response-headers: x-request-id is the gateway’s own, never forwarded or set', () => {
    expect(
      issueFields(
        optionsError('header-rules', () => headerRules({ all: [{ insert: { name: 'x-request-id', value: 'a' } }] })),
      ),
    ).toEqual(['all[0]']);
    expect(
      issueFields(
        optionsError('response-headers', () => responseHeaders({ headers: [{ name: 'X-Request-Id', value: 'a' }] })),
      ),
    ).toEqual(['headers[0].name']);
  });

  it('response-headers: at the top and in a header', () => {
    const error = optionsError('response-headers', () =>
      responseHeaders({ headers: [{ name: 'x-a', value: '1', when: 'always' }], header: [] } as never),
    );
    expect(issueFields(error)).toEqual(['header', 'headers[0].when']);
  });

  it('operation-limits: a misspelt limit is named, not ignored', () => {
    const error = optionsError('operation-limits', () =>
      operationLimits({ ...DEFAULT_OPERATION_LIMITS, maxDepht: 3 } as never),
    );
    expect(issueFields(error)).toEqual(['maxDepht']);
  });
});
