// Asking a policy decider (often a call to a policy service) which `@policy` names one request
// is granted, bounded in time: a decider that throws, rejects, answers something that is not a
// list of names, or is still deciding when the timeout fires has decided nothing, and the
// caller fails closed. A synchronous decider (the AUTHORIZATION_POLICIES claim rules) costs no
// timer. Nothing is cached: every request is decided for its own identity.
import type { GatewayContext } from '../../plugin-sdk/index.js';
import type { PolicyDecider } from './rights.js';

/** Why no decision came back. */
export class PolicyDecisionFailed extends Error {
  constructor(
    readonly reason: 'timeout' | 'failed',
    cause?: unknown,
  ) {
    super(reason === 'timeout' ? 'the policy decider did not answer in time' : 'the policy decider failed', { cause });
    this.name = 'PolicyDecisionFailed';
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** The names the decider granted, kept to those asked about (a decider cannot grant more). */
function grantedOf(answer: unknown, needed: ReadonlySet<string>): Set<string> {
  if (answer === null || typeof answer !== 'object' || !(Symbol.iterator in answer)) {
    throw new PolicyDecisionFailed('failed', new TypeError('the policy decider must return names (an iterable)'));
  }
  const granted = new Set<string>();
  for (const name of answer as Iterable<unknown>) if (typeof name === 'string' && needed.has(name)) granted.add(name);
  return granted;
}

/**
 * The policies `decide` grants this request, among `needed`. Throws PolicyDecisionFailed when
 * it threw, rejected, answered nonsense, or took longer than `timeoutMs` (its `signal` is then
 * aborted, so a decider that calls a service can cancel the call).
 */
export async function decidePolicies(
  decide: PolicyDecider,
  context: GatewayContext,
  needed: ReadonlySet<string>,
  timeoutMs: number,
): Promise<Set<string>> {
  const controller = new AbortController();
  let answer: unknown;
  try {
    answer = decide(context, needed, { signal: controller.signal });
  } catch (error) {
    throw new PolicyDecisionFailed('failed', error);
  }
  if (!isThenable(answer)) return grantedOf(answer, needed);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const failure = new PolicyDecisionFailed('timeout');
      controller.abort(failure);
      reject(failure);
    }, timeoutMs);
  });
  try {
    return grantedOf(await Promise.race([answer, timeout]), needed);
  } catch (error) {
    throw error instanceof PolicyDecisionFailed ? error : new PolicyDecisionFailed('failed', error);
  } finally {
    clearTimeout(timer);
  }
}
