import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../src/executor/apollo-internals.js';
import { planStoreKey } from '../../src/executor/lean-executor.js';

// The lean executor stores plans under @apollo/gateway's key, so both find each other's plans
// in one store: its formula is createHash('sha256').update(queryHash).update(operationName).
const QUERY_HASH = createHash('sha256').update('query Q { __typename }').digest('hex');
const context = (operationName?: string) =>
  ({ request: { operationName }, queryHash: QUERY_HASH }) as unknown as RequestContext;

describe('planStoreKey', () => {
  it("is @apollo/gateway's key: the query hash, then the operation name, digested together", () => {
    const gateways = createHash('sha256').update(QUERY_HASH).update('Q').digest('hex');
    expect(planStoreKey(context('Q'))).toBe(gateways);
    expect(planStoreKey(context('Ωmega'))).toBe(createHash('sha256').update(QUERY_HASH).update('Ωmega').digest('hex'));
  });

  it('is the query hash alone for an anonymous operation', () => {
    expect(planStoreKey(context())).toBe(QUERY_HASH);
  });
});
