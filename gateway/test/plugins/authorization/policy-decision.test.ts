// The bounds around a policy decider (policy-decision.ts): whatever it does (answers at once or
// later, throws, rejects, answers nonsense, never answers), the request gets a decision or a
// PolicyDecisionFailed, and a decider cannot grant a policy it was not asked about. Over HTTP on
// every mount: tests/contract/authorization-options-contract.test.ts.
import { describe, expect, it, vi } from 'vitest';
import type { GatewayContext } from '../../../src/contract/index.js';
import { decidePolicies, PolicyDecisionFailed } from '../../../src/plugins/authorization/policy-decision.js';
import type { PolicyDecider } from '../../../src/plugins/authorization/rights.js';

const context = { requestId: 'r-1', identity: { subject: 'user-1' } } as unknown as GatewayContext;
const NEEDED = new Set(['support', 'billing']);

async function failure(decide: PolicyDecider, timeoutMs = 1000): Promise<PolicyDecisionFailed> {
  const error = await decidePolicies(decide, context, NEEDED, timeoutMs).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PolicyDecisionFailed);
  return error as PolicyDecisionFailed;
}

describe('decidePolicies', () => {
  it('keeps only the granted names it asked about, from a list or a Promise of one', async () => {
    expect(await decidePolicies(() => ['support', 'admin'], context, NEEDED, 1000)).toEqual(new Set(['support']));
    expect(await decidePolicies(async () => new Set(['billing', 'x']), context, NEEDED, 1000)).toEqual(
      new Set(['billing']),
    );
  });

  it('gives the decider the identity and the names it needs', async () => {
    let seen: [string | undefined, string[]] | undefined;
    await decidePolicies(
      (asked, policies) => {
        seen = [asked.identity.subject, [...policies]];
        return [];
      },
      context,
      NEEDED,
      1000,
    );
    expect(seen).toEqual(['user-1', ['support', 'billing']]);
  });

  it('a throw, a rejection or an answer that is not a list of names: failed', async () => {
    expect(
      (
        await failure(() => {
          throw new Error('down');
        })
      ).reason,
    ).toBe('failed');
    expect(
      (
        await failure(async () => {
          throw new Error('down');
        })
      ).reason,
    ).toBe('failed');
    expect((await failure(() => null as unknown as string[])).reason).toBe('failed');
    expect((await failure(async () => 42 as unknown as string[])).reason).toBe('failed');
  });

  it('no answer within the timeout: timed out, and its signal is aborted', async () => {
    let signal: AbortSignal | undefined;
    const error = await failure((_context, _policies, options) => {
      signal = options.signal;
      return new Promise<string[]>(() => {});
    }, 20);
    expect(error.reason).toBe('timeout');
    expect(signal?.aborted).toBe(true);
  });

  it('a late rejection after the timeout is not left unhandled', async () => {
    let rejectLate: (error: Error) => void = () => {};
    const error = await failure(
      () =>
        new Promise<string[]>((_, reject) => {
          rejectLate = reject;
        }),
      10,
    );
    expect(error.reason).toBe('timeout');
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      rejectLate(new Error('late'));
      // Node reports unhandled rejections once the microtasks of the turn have run.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
